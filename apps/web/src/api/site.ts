// The site's own calls (/api/site/v1/): the top banners.
import { BANNER_KEY, BANNER_PID, type BannerResource, operationList } from '@quire/contracts';
import { getJson, urlWithQuery } from './client';

/** The banners not yet over, soonest first. */
export async function topBanners(signal?: AbortSignal): Promise<BannerResource[]> {
  const { operation_list } = await getJson(
    urlWithQuery('/api/site/v1/', 'operation/list', { pid: BANNER_PID, key: BANNER_KEY }),
    operationList,
    signal,
  );
  return operation_list.find((o) => o.key === BANNER_KEY)?.resource_list ?? [];
}
