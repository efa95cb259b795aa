// The operator's settings of the site, one row a name: a name never set has no row.
import type { Db } from './connect.js';

export async function siteSettings(db: Db, names: readonly string[]): Promise<Map<string, string>> {
  const rows = await db.selectFrom('site_settings').selectAll().where('name', 'in', names).execute();
  return new Map(rows.map((r) => [r.name, r.value]));
}

export async function saveSiteSettings(db: Db, values: Record<string, string>): Promise<void> {
  await db.transaction().execute(async (tx) => {
    for (const [name, value] of Object.entries(values))
      await tx
        .insertInto('site_settings')
        .values({ name, value })
        .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
        .execute();
  });
}
