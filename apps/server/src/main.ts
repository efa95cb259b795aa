// Entry point: `npm start` (api and worker in one process), or --services=api / --services=worker.
import path from 'node:path';
import { startingConfig } from './config.js';
import { createContext } from './context.js';
import { buildApp } from './app.js';
import { Worker } from './queue/worker.js';
import { cleanUpAfterCrashes, ENGINES_DIR, startSweeper, sweep } from './services/sweeper.js';
import { recordEnginesIn } from './engines/processes.js';
import { reportModelProblems } from './engines/ai/providers.js';

const config = startingConfig();
const ctx = await createContext(config);
await cleanUpAfterCrashes(ctx);
recordEnginesIn(path.join(ctx.scratchDir, ENGINES_DIR));
await reportModelProblems(config);
const worker = config.services.worker ? new Worker(ctx) : null;
await worker?.start();
await sweep(ctx);
const stopSweeper = startSweeper(ctx);
const app = config.services.api ? await buildApp(ctx) : null;
if (app) {
  await app.listen({ port: config.port, host: config.host });
  console.log(`Quire listening on http://localhost:${config.port} (data in ${config.dataDir})`);
  if (!ctx.mailer.sends)
    console.warn('Mail is not configured (QUIRE_SMTP_URL): accounts are confirmed with `npm run quire -- users:verify EMAIL`.');
}

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  stopSweeper();
  await app?.close();
  await worker?.stop();
  await ctx.office.close();
  await ctx.db.destroy();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
