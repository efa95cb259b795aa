// What /api/health answers: whether this process can serve, which a load balancer or an operator's
// monitor reads from its HTTP status.
import type { AppContext } from '../context.js';
import { databaseAnswers } from '../db/connect.js';
import { diskLow } from './holdings.js';

export type HealthStatus = 'ok' | 'database unavailable' | 'low disk space';

export async function healthOf(ctx: AppContext): Promise<HealthStatus> {
  if (!(await databaseAnswers(ctx.db))) return 'database unavailable';
  // Uploads and tasks are refused (3500) until space is freed: the service is not ok.
  return (await diskLow(ctx)) ? 'low disk space' : 'ok';
}
