// The site's own calls under /api/site/v1/, for every page, signed in or not: the top banners.
import { bannerQuery, operationList as operationListAnswer } from '@quire/contracts';
import { operationList } from '../services/banners.js';
import type { Call } from './calls.js';

export function siteCalls(): Call[] {
  return [
    {
      method: 'GET',
      path: '/api/site/v1/operation/list',
      summary:
        'The top banners not yet over, for pid 4512 and key HiPDFTopMessageBar (any other: none); the page shows the one whose window holds the present',
      query: bannerQuery,
      response: operationListAnswer,
      session: 'ignored',
      handler: ({ query }, c) => operationList(c.ctx, query.pid, query.key),
    },
  ];
}
