// The site's own calls (/api/site/v1/): the top banners.
import { BANNER_KEY, BANNER_PID, type BannerResource, type operationList } from '@quire/contracts';
import { getJson, urlWithQuery, type Answer } from './client';

/** The banners not yet over, soonest first. */
export async function topBanners(signal?: AbortSignal): Promise<BannerResource[]> {
  const { operation_list } = await getJson<Answer<typeof operationList>>(
    urlWithQuery('/api/site/v1/', 'operation/list', { pid: BANNER_PID, key: BANNER_KEY }),
    signal,
  );
  return operation_list.find((o) => o.key === BANNER_KEY)?.resource_list ?? [];
}
