import type { Db } from './connect.js';
import type { BannerTable } from './schema.js';

/** The banners whose window ends after `nowSeconds`, soonest first. */
export function bannersNotOver(db: Db, nowSeconds: number): Promise<BannerTable[]> {
  return db.selectFrom('banners').selectAll().where('display_end', '>', nowSeconds).orderBy('display_start').orderBy('id').execute();
}

export function allBanners(db: Db): Promise<BannerTable[]> {
  return db.selectFrom('banners').selectAll().orderBy('display_start', 'desc').orderBy('id').execute();
}

export async function insertBanner(db: Db, banner: BannerTable): Promise<void> {
  await db.insertInto('banners').values(banner).execute();
}

/** True when there was such a banner. */
export async function deleteBanner(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('banners').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
