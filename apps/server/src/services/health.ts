// What /api/health answers: whether this process can serve, which a load balancer or an operator's
// monitor reads from its HTTP status.
import type { AppContext } from '../context.js';
import { databaseAnswers } from '../db/connect.js';

export type HealthStatus = 'ok' | 'database unavailable';

export async function healthOf(ctx: AppContext): Promise<HealthStatus> {
  return (await databaseAnswers(ctx.db)) ? 'ok' : 'database unavailable';
}
