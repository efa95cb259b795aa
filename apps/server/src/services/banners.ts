// The top message banners: operators publish and withdraw them (/admin); anyone's page asks for the
// list by the product id and key of spec §7.7 and shows the one whose window holds the present.
import {
  BANNER_KEY,
  BANNER_PID,
  ErrorCode,
  QuireError,
  type BannerResource,
  type OperationList,
  type bannerCreateRequest,
} from '@quire/contracts';
import type { z } from 'zod';
import type { AppContext } from '../context.js';
import { allBanners, bannersNotOver, deleteBanner, insertBanner } from '../db/bannersRepo.js';
import type { BannerTable } from '../db/schema.js';
import { newId } from '../ids.js';
import type { Session } from './accounts.js';
import { operatorOf } from './operators.js';

const toResource = (b: BannerTable): BannerResource => ({
  resource_id: b.id,
  title: b.title,
  jump_url: b.jump_url,
  display_start_time: b.display_start,
  display_end_time: b.display_end,
});

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The banners not yet over for the product's banner key; any other id or key has none. */
export async function operationList(ctx: AppContext, pid: number, key: string): Promise<OperationList> {
  if (pid !== BANNER_PID || key !== BANNER_KEY) return { operation_list: [] };
  const banners = await bannersNotOver(ctx.db, nowSeconds());
  return { operation_list: [{ key: BANNER_KEY, resource_list: banners.map(toResource) }] };
}

/** Operators: every banner, the latest window first. */
export async function listBanners(ctx: AppContext, session: Session): Promise<{ banners: BannerResource[] }> {
  operatorOf(session);
  return { banners: (await allBanners(ctx.db)).map(toResource) };
}

export async function publishBanner(ctx: AppContext, session: Session, body: z.infer<typeof bannerCreateRequest>): Promise<BannerResource> {
  const operator = operatorOf(session);
  const banner: BannerTable = {
    id: newId(),
    title: body.title,
    jump_url: body.jump_url,
    display_start: body.display_start_time,
    display_end: body.display_end_time,
    created_at: Date.now(),
  };
  await insertBanner(ctx.db, banner);
  console.info(`Operator ${operator.email} (${operator.id}) published the banner ${banner.id}.`);
  return toResource(banner);
}

/** Operators: a banner withdrawn at once; 2405 for one that does not exist. */
export async function withdrawBanner(ctx: AppContext, session: Session, id: string): Promise<void> {
  const operator = operatorOf(session);
  if (!(await deleteBanner(ctx.db, id))) throw new QuireError(ErrorCode.NoData);
  console.info(`Operator ${operator.email} (${operator.id}) withdrew the banner ${id}.`);
}
