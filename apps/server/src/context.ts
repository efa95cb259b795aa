// What every service needs, built once at start-up.
import path from 'node:path';
import type { Config } from './config.js';
import { connectDb, type Db } from './db/connect.js';
import { LocalStorage, type Storage } from './storage/storage.js';
import type { EngineLimits } from './engines/qpdf.js';
import { TaskEvents } from './queue/events.js';
import { OfficePool } from './engines/office.js';

export interface AppContext {
  config: Config;
  db: Db;
  storage: Storage;
  /** Limits for quick engine calls made while answering a request (inspection). */
  inspectLimits: EngineLimits;
  /** Limits for a tool's engine calls inside a worker. */
  toolLimits: EngineLimits;
  tmpDir: string;
  events: TaskEvents;
  /** LibreOffice listeners, started on the first conversion; close() when stopping. */
  office: OfficePool;
}

export async function createContext(config: Config): Promise<AppContext> {
  const db = await connectDb(config.databaseUrl);
  return {
    config,
    db,
    storage: new LocalStorage(path.join(config.dataDir, 'storage')),
    // Reading a PDF's structure needs little memory: its streams are not decoded, and bombs are refused here.
    inspectLimits: { timeoutMs: 30_000, memoryMb: Math.min(512, config.engineMemoryMb) },
    toolLimits: { timeoutMs: config.engineTimeoutMs, memoryMb: config.engineMemoryMb },
    tmpDir: path.join(config.dataDir, 'tmp'),
    events: new TaskEvents(),
    office: new OfficePool(path.join(config.dataDir, 'tmp', 'office'), config.officeListeners, config.engineMemoryMb),
  };
}
