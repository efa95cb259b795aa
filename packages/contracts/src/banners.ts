// The top message banner (spec §7.7): operators publish a title and a link for a time window; the
// page asks for the banner list by its product id and key, shows the one whose window holds the
// present, and remembers a closed one (its key plus resource id) so it stays closed.
import { z } from 'zod';
import { isSiteLink } from './siteLinks.js';

const seconds = z.number().int().min(0).describe('Epoch seconds');

export const bannerResource = z.object({
  resource_id: z.string(),
  title: z.string(),
  jump_url: z.string(),
  display_start_time: seconds,
  display_end_time: seconds,
});
export type BannerResource = z.infer<typeof bannerResource>;

/** GET /api/site/v1/operation/list: the banners not yet over, soonest first. */
export const bannerQuery = z.object({
  pid: z.coerce.number().int(),
  key: z.string().max(64),
  client_sign: z.string().max(128).optional(),
  wsid: z.string().max(128).optional(),
});
export const operationList = z.object({
  operation_list: z.array(z.object({ key: z.string(), resource_list: z.array(bannerResource) })),
});
export type OperationList = z.infer<typeof operationList>;

/** A banner's or a message's link: a page of the site (a path) or a web address. */
export const siteLink = z.string().trim().max(2000).refine(isSiteLink, 'A link is a path of the site (/pricing) or an http(s) address.');

/** POST /api/account/v1/admin/banners */
export const bannerCreateRequest = z
  .object({
    title: z.string().trim().min(1).max(200),
    jump_url: siteLink,
    display_start_time: seconds,
    display_end_time: seconds,
  })
  .refine((b) => b.display_end_time > b.display_start_time, {
    message: 'The banner must end after it starts.',
    path: ['display_end_time'],
  });
export const bannerRef = z.object({ resource_id: z.string().min(1).max(64) });
export const bannerList = z.object({ banners: z.array(bannerResource) });
