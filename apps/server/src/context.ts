// What every service needs, built once at start-up.
import os from 'node:os';
import path from 'node:path';
import type { Config } from './config.js';
import { connectDb, type Db } from './db/connect.js';
import { LocalStorage, type Storage } from './storage/storage.js';
import type { EngineLimits } from './engines/qpdf.js';
import { TaskEvents } from './queue/events.js';
import { OfficePool } from './engines/office.js';
import { processStartTime } from './engines/processes.js';
import { RateLimits } from './services/rateLimits.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import type { AiTool } from '@quire/contracts';
import type { ModelProvider } from './engines/ai/model.js';
import { createModelProvider } from './engines/ai/providers.js';
import { type TaskModels, taskModels } from './services/aiAnswers.js';

export interface AppContext {
  config: Config;
  db: Db;
  storage: Storage;
  /** The ceiling of engine calls made while answering a request (upload checks); each call's kind may bound it lower. */
  inspectLimits: EngineLimits;
  /** The ceiling of a tool's engine calls inside a worker (the configured limits); each call's kind may bound it lower. */
  toolLimits: EngineLimits;
  tmpDir: string;
  /**
   * Temporary files of this process only (task work folders, uploads being received, engine
   * records), named by its PID and start time: the next start removes it once the process is gone.
   */
  scratchDir: string;
  events: TaskEvents;
  /** LibreOffice listeners, started on the first conversion; close() when stopping. */
  office: OfficePool;
  /** Uploads, task creation and account calls per client and IP address (this process's count). */
  rateLimits: RateLimits;
  /** The account service's mail (QUIRE_SMTP_URL). */
  mailer: Mailer;
  /**
   * Epoch ms, as the services that keep time for days read it (shares' expiry and daily count).
   * Date.now in production; a test replaces it to move days ahead without waiting (ADR 0290).
   */
  now: () => number;
  /**
   * The generative model answering an AI tool (its provider local or openai, built on first use
   * and kept), or null where the tool's provider is classic; 11020 when the model cannot be had.
   */
  modelFor: (tool: AiTool) => ModelProvider | null;
  /**
   * The models the worker gives a task of `ownerId`'s tool, their answers charged to the owner's
   * tokens (services/aiAnswers.ts): wired here, as tools sit below the services that charge.
   */
  taskModels: (ownerId: string) => TaskModels;
}

/** ctx.modelFor over the configured providers: one model per provider, shared by the tools it answers. */
export function modelLookup(config: Config, workDir: string): (tool: AiTool) => ModelProvider | null {
  const built = new Map<ModelProvider['name'], ModelProvider>();
  return (tool) => {
    const provider = config.aiProviders[tool];
    if (provider === 'classic') return null;
    const model = built.get(provider) ?? createModelProvider(provider, config, workDir);
    built.set(provider, model);
    return model;
  };
}

/** Under the data folder's tmp: one folder per running process (AppContext.scratchDir). */
export const PROCESSES_DIR = 'processes';
/** The host is part of it, as machines sharing a data folder have PIDs of their own. */
export const processFolderName = (host: string, pid: number, startTime: number | undefined) => `${host}-${pid}-${startTime}`;
export function processOfFolder(name: string): { host: string; pid: number; startTime: number } {
  const parts = name.split('-');
  const startTime = Number(parts.pop());
  const pid = Number(parts.pop());
  return { host: parts.join('-'), pid, startTime };
}

export async function createContext(config: Config): Promise<AppContext> {
  const db = await connectDb(config.databaseUrl);
  const scratchDir = path.join(
    config.dataDir,
    'tmp',
    PROCESSES_DIR,
    processFolderName(os.hostname(), process.pid, processStartTime(process.pid)),
  );
  const ctx: AppContext = {
    config,
    db,
    storage: new LocalStorage(path.join(config.dataDir, 'storage')),
    // Reading a PDF's structure needs little memory: its streams are not decoded, and bombs are refused here.
    inspectLimits: { timeoutMs: 30_000, memoryMb: Math.min(512, config.engineMemoryMb) },
    toolLimits: { timeoutMs: config.engineTimeoutMs, memoryMb: config.engineMemoryMb },
    tmpDir: path.join(config.dataDir, 'tmp'),
    scratchDir,
    events: new TaskEvents(),
    office: new OfficePool(path.join(config.dataDir, 'tmp', 'office'), config.officeListeners, config.engineMemoryMb),
    rateLimits: new RateLimits(config),
    mailer: createMailer(config.smtpUrl, config.mailFrom),
    now: Date.now,
    modelFor: modelLookup(config, scratchDir),
    taskModels: (ownerId) => taskModels(ctx, ownerId),
  };
  return ctx;
}
