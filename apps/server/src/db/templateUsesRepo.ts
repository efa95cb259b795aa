// The template_uses table: how often each template was used, by template id.
import { sql } from 'kysely';
import type { Db } from './connect.js';

export async function allTemplateUses(db: Db): Promise<Map<string, number>> {
  const rows = await db.selectFrom('template_uses').select(['template_id', 'uses']).execute();
  return new Map(rows.map((r) => [r.template_id, r.uses]));
}

/** One more use of the template, by an upsert so concurrent uses all count; answers the new count. */
export async function addTemplateUse(db: Db, templateId: string): Promise<number> {
  await db
    .insertInto('template_uses')
    .values({ template_id: templateId, uses: 1 })
    .onConflict((oc) => oc.column('template_id').doUpdateSet({ uses: sql<number>`template_uses.uses + 1` }))
    .execute();
  const row = await db.selectFrom('template_uses').select('uses').where('template_id', '=', templateId).executeTakeFirstOrThrow();
  return row.uses;
}
