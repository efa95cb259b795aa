// Runtime configuration, read once from the environment. Embedded defaults need nothing else.
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import {
  AI_CONSTANTS,
  AI_ENV,
  aiProviders,
  aiTools,
  defaultLimits,
  limitsOverride,
  withOverride,
  type AiProvider,
  type AiTool,
  type LimitsTable,
} from '@quire/contracts';

export type Services = { api: boolean; worker: boolean };

export interface SigningCertificate {
  p12File: string;
  passwordFile: string;
}

/** The operator's Time Stamping Authority for trusted timestamps (PAdES B-T). */
export interface TimestampAuthority {
  /** Where RFC 3161 requests are posted (http or https). */
  url: string;
  /** A request gives up after this. */
  timeoutMs: number;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** sqlite (default, a file in dataDir) or a postgres:// URL */
  databaseUrl: string;
  services: Services;
  workerConcurrency: number;
  /** The ceiling of every plan's file size and page count. */
  maxFileBytes: number;
  maxPages: number;
  /** An operator's JSON file of plan limits (QUIRE_LIMITS_FILE); empty: the defaults. */
  limitsFile: string;
  /** Each kind of user's limits: the defaults with the limits file's values over them. */
  limits: LimitsTable;
  retentionHours: number;
  engineTimeoutMs: number;
  /** Bounds a whole task, however many engine calls it makes. */
  taskTimeoutMs: number;
  engineMemoryMb: number;
  /** LibreOffice listeners kept running for conversions (each converts one document at a time). */
  officeListeners: number;
  webDist: string;
  cookieSecret: string;
  /** Queued tasks of the whole service; beyond it new tasks are refused with 3500. */
  maxQueued: number;
  /** Queued tasks of one visitor; beyond it that visitor's new tasks are refused with 3500. */
  maxQueuedPerOwner: number;
  /** Tasks of one visitor running at once; the worker takes other visitors' tasks meanwhile. */
  maxRunningPerOwner: number;
  /** Tasks of one address running at once, all its accounts and visitors together; its others wait while other addresses' are taken. */
  maxRunningPerAddress: number;
  /**
   * Work (tools/budget.ts units) of the unfinished tasks asked from one address, whatever accounts
   * or visitors they are; a task past it is refused with 3500 (429) unless the address has none. 0: no limit.
   */
  maxQueuedWorkPerAddress: number;
  /** Requests per visitor (and, times ipRateFactor, per IP address) answered before 429. */
  uploadRate: RateLimit;
  taskRate: RateLimit;
  /** How many visitors' allowance one IP address gets (several people behind one NAT). */
  ipRateFactor: number;
  /**
   * Bytes one visitor or account may hold in uploads and results until retention deletes them (an
   * address: times ipRateFactor); past it, uploads and tasks are refused with 4017.
   */
  maxHeldBytes: number;
  /** Free space kept on the data volume for the database and tasks under way; below it uploads and tasks are refused with 3500. */
  minFreeBytes: number;
  /** Pixels (millions) a conversion of PDF pages to images may render in all, checked when it is made. */
  maxRenderMegapixels: number;
  /** Pages one OCR task may recognise, checked when it is made. */
  maxOcrPages: number;
  /** Proxies (addresses, subnets or `loopback`) whose X-Forwarded-For/-Proto are believed; false: none. */
  trustProxy: string | false;
  /** A request body that brings almost nothing for this long is cut off. */
  bodyTimeoutMs: number;
  /** Where the account service's mail goes (smtp:// or smtps://); empty: mail is not sent. */
  smtpUrl: string;
  /** The sender of that mail. */
  mailFrom: string;
  /** The address users reach Quire at: the base of links in mail. */
  publicUrl: string;
  /** How long a sign-in lasts unless refreshed (account/refresh) or ended. */
  sessionDays: number;
  /** Password checks and account mails per address (and, times ipRateFactor, per IP address). */
  accountRate: RateLimit;
  /** Sign-ups (account/register) one address may ask per UTC day; beyond it 3500 (429). 0: no limit. */
  signUpsPerAddressPerDay: number;
  /** How users reach the operator to buy a plan (an address or a URL), shown on the pricing page; empty: not given. */
  operatorContact: string;
  /** The shipped templates: sources and metadata, with their PDFs built into .built/ (scripts/build-templates.mjs). */
  shippedTemplatesDir: string;
  /** The operator's own templates (QUIRE_TEMPLATES_DIR): PDFs with optional JSON side-cars; empty: none. */
  templatesDir: string;
  /** The operator's PKCS#12 for digital signatures (QUIRE_SIGNING_P12) and the file holding its password; undefined: none. */
  signingCertificate: SigningCertificate | undefined;
  /** The Time Stamping Authority of QUIRE_TSA_URL, which digital signatures may ask a timestamp of; undefined: none. */
  timestampAuthority: TimestampAuthority | undefined;
  /** Tasks an anonymous visitor may make per UTC day (an address: times ipRateFactor); 0: no limit. */
  anonymousTasksPerDay: number;
  /** Whether an anonymous visitor may download outputs; false: signing in (which binds the task) comes first. */
  anonymousDownloads: boolean;
  /** Single sign-on through an OpenID Connect provider; undefined when QUIRE_OIDC_ISSUER is unset. */
  oidc: OidcConfig | undefined;
  /** The provider answering each AI tool: QUIRE_AI_PROVIDER_<TOOL>, else QUIRE_AI_PROVIDER, else classic. */
  aiProviders: Record<AiTool, AiProvider>;
  /** The models of the AI tools whose provider is local or openai. */
  aiModels: AiModelsConfig;
  /** How long a summary or question waits for the file's analysis before 90002: the spec's 60 s (a test's shorter). */
  aiAnalysisWaitMs: number;
}

export interface AiModelsConfig {
  /** The local provider's GGUF model and what its worker may take. */
  local: LocalModelConfig;
  /** The OpenAI-compatible endpoint; undefined when QUIRE_AI_OPENAI_BASE_URL is unset. */
  openai: OpenAiConfig | undefined;
}

export interface LocalModelConfig {
  /** Empty when unset (then no tool may use `local`). */
  modelPath: string;
  /** The worker's address space: the model file is mapped into it, its context and buffers come on top. */
  memoryMb: number;
  contextTokens: number;
  threads: number;
}

export interface OpenAiConfig {
  /** The API's base, `/chat/completions` is called under it (e.g. http://localhost:11434/v1). */
  baseUrl: string;
  model: string;
  /** Sent as a bearer token; empty: none (a local server that asks for none). */
  key: string;
}

export interface OidcConfig {
  /** The provider's issuer URL; its discovery document is read from under it. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** What the sign-in button calls the provider: "Continue with <name>". */
  name: string;
  /** Space-separated; openid and email are what Quire needs. */
  scopes: string;
  /** Each request to the provider (discovery, token, user info) gives up after this. */
  timeoutMs: number;
}

/** A secret from the file `<name>_FILE` names (a mounted secret), else from the variable `name`. */
function secret(name: string): string {
  const file = process.env[`${name}_FILE`];
  if (file) return fs.readFileSync(file, 'utf8').trim();
  return process.env[name] ?? '';
}

function loadOidc(): OidcConfig | undefined {
  const issuer = process.env.QUIRE_OIDC_ISSUER;
  if (!issuer) return undefined;
  const clientId = process.env.QUIRE_OIDC_CLIENT_ID;
  if (!clientId) throw new Error('QUIRE_OIDC_ISSUER is set but QUIRE_OIDC_CLIENT_ID is not');
  return {
    issuer,
    clientId,
    clientSecret: secret('QUIRE_OIDC_CLIENT_SECRET'),
    name: process.env.QUIRE_OIDC_NAME || 'single sign-on',
    scopes: process.env.QUIRE_OIDC_SCOPES || 'openid email profile',
    timeoutMs: int('QUIRE_OIDC_TIMEOUT_S', 10) * 1000,
  };
}

function loadTimestampAuthority(): TimestampAuthority | undefined {
  const url = process.env.QUIRE_TSA_URL;
  if (!url) return undefined;
  if (!/^https?:\/\//.test(url)) throw new Error('QUIRE_TSA_URL must be an http:// or https:// URL');
  return { url, timeoutMs: int('QUIRE_TSA_TIMEOUT_S', 10) * 1000 };
}

/** A token bucket: `burst` requests at once, refilled at `perSecond`. */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

function int(name: string, fallback: number): number {
  const raw = process.env[name];
  const n = raw === undefined || raw === '' ? NaN : Number(raw);
  return Number.isFinite(n) ? n : fallback;
}

/** A whole number above 0 from `name`, or `fallback` when unset; anything else stops the start with why. */
function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name}: "${raw}" is not a whole number above 0`);
  return n;
}

/** The models the AI providers use; a provider a tool is given without what it needs stops the start with why. */
export function loadAiModels(providers: Record<AiTool, AiProvider>): AiModelsConfig {
  const uses = (provider: AiProvider) => Object.values(providers).includes(provider);
  const modelPath = process.env[AI_ENV.modelPath] ?? '';
  if (uses('local') && !modelPath) throw new Error(`an AI tool's provider is local but ${AI_ENV.modelPath} is not set`);
  const baseUrl = (process.env[AI_ENV.openaiBaseUrl] ?? '').replace(/\/+$/, '');
  if (uses('openai') && !baseUrl) throw new Error(`an AI tool's provider is openai but ${AI_ENV.openaiBaseUrl} is not set`);
  let openai: OpenAiConfig | undefined;
  if (baseUrl) {
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      throw new Error(`${AI_ENV.openaiBaseUrl}: "${baseUrl}" is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${AI_ENV.openaiBaseUrl}: only http and https are spoken`);
    // A key in the URL would end up in logs: it has its own variables.
    if (url.username || url.password || url.search)
      throw new Error(`${AI_ENV.openaiBaseUrl}: no credentials or query; the key goes in ${AI_ENV.openaiKeyFile}`);
    const model = process.env[AI_ENV.openaiModel] ?? '';
    if (!model) throw new Error(`${AI_ENV.openaiBaseUrl} is set but ${AI_ENV.openaiModel} is not`);
    openai = { baseUrl, model, key: secret(AI_ENV.openaiKey) };
  }
  return {
    local: {
      modelPath: modelPath && path.resolve(modelPath),
      memoryMb: positiveInt(AI_ENV.modelMemoryMb, 8192),
      contextTokens: positiveInt(AI_ENV.modelContext, 4096),
      threads: positiveInt(AI_ENV.modelThreads, Math.max(1, os.availableParallelism())),
    },
    openai,
  };
}

function parseServices(argv: string[]): Services {
  const flag = argv.find((a) => a.startsWith('--services='))?.slice('--services='.length) ?? process.env.QUIRE_SERVICES;
  const list = (flag ?? 'api,worker').split(',').map((s) => s.trim());
  return { api: list.includes('api'), worker: list.includes('worker') };
}

/** The provider of each AI tool from the environment; a value that names no provider stops the start with why. */
export function readAiProviders(env: NodeJS.ProcessEnv = process.env): Record<AiTool, AiProvider> {
  const parse = (name: string, fallback: AiProvider): AiProvider => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    if (!(aiProviders as readonly string[]).includes(raw)) throw new Error(`${name} ${raw}: not one of ${aiProviders.join(', ')}`);
    return raw as AiProvider;
  };
  const all = parse(AI_ENV.provider, 'classic');
  return Object.fromEntries(aiTools.map((tool) => [tool, parse(AI_ENV.providerOfTool + tool.toUpperCase(), all)])) as Record<
    AiTool,
    AiProvider
  >;
}

/** The plan limits of `file` over the defaults; a file that cannot be read or is not a valid table stops the start with why. */
export function readLimits(file: string): LimitsTable {
  if (!file) return defaultLimits;
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`QUIRE_LIMITS_FILE ${file}: ${(e as Error).message}`);
  }
  const parsed = limitsOverride.safeParse(json);
  if (!parsed.success) {
    const where = (p: PropertyKey[]) => p.map(String).join('.') || '(top level)';
    throw new Error(`QUIRE_LIMITS_FILE ${file}: ${parsed.error.issues.map((i) => `${where(i.path)}: ${i.message}`).join('; ')}`);
  }
  return withOverride(defaultLimits, parsed.data);
}

export function loadConfig(overrides: Partial<Config> = {}, argv = process.argv): Config {
  const port = overrides.port ?? int('PORT', 8080);
  const limitsFile = overrides.limitsFile ?? process.env.QUIRE_LIMITS_FILE ?? '';
  const providers = overrides.aiProviders ?? readAiProviders();
  const dataDir = path.resolve(overrides.dataDir ?? process.env.QUIRE_DATA_DIR ?? path.join(process.cwd(), 'data'));
  return {
    port,
    host: process.env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl: process.env.QUIRE_DATABASE_URL ?? `sqlite:${path.join(dataDir, 'quire.db')}`,
    services: parseServices(argv),
    workerConcurrency: int('QUIRE_WORKERS', Math.max(1, os.availableParallelism())),
    maxFileBytes: int('QUIRE_MAX_FILE_MB', 100) * 1024 * 1024,
    maxPages: int('QUIRE_MAX_PAGES', 2000),
    limitsFile,
    limits: readLimits(limitsFile),
    retentionHours: int('QUIRE_RETENTION_HOURS', 2),
    engineTimeoutMs: int('QUIRE_ENGINE_TIMEOUT_S', 120) * 1000,
    taskTimeoutMs: int('QUIRE_TASK_TIMEOUT_S', 600) * 1000,
    engineMemoryMb: int('QUIRE_ENGINE_MEMORY_MB', 2048),
    officeListeners: Math.max(1, int('QUIRE_OFFICE_LISTENERS', Math.min(2, os.availableParallelism()))),
    webDist: path.resolve(process.env.QUIRE_WEB_DIST ?? path.join(import.meta.dirname, '../../web/dist')),
    cookieSecret: process.env.QUIRE_COOKIE_SECRET ?? '',
    maxQueued: int('QUIRE_MAX_QUEUED', 500),
    maxQueuedPerOwner: int('QUIRE_MAX_QUEUED_PER_VISITOR', 20),
    maxRunningPerOwner: Math.max(1, int('QUIRE_MAX_RUNNING_PER_VISITOR', 2)),
    // As many as one visitor: a lone address keeps both workers of a 2-core machine busy (ADR 0552).
    maxRunningPerAddress: Math.max(1, int('QUIRE_MAX_RUNNING_PER_ADDRESS', 2)),
    // About a quarter of an hour of one core: eight 100-page conversions to PNG at 600 dpi, or one 500-page OCR.
    maxQueuedWorkPerAddress: int('QUIRE_MAX_QUEUED_WORK_PER_ADDRESS', 30_000),
    // An upload of the largest file is 200 parts sent 12 at a time: the burst takes one at once.
    uploadRate: { perSecond: int('QUIRE_UPLOADS_PER_S', 50), burst: int('QUIRE_UPLOAD_BURST', 600) },
    taskRate: { perSecond: int('QUIRE_TASKS_PER_S', 20), burst: int('QUIRE_TASK_BURST', 200) },
    ipRateFactor: Math.max(1, int('QUIRE_RATE_IP_FACTOR', 4)),
    maxHeldBytes: int('QUIRE_MAX_HELD_MB', 2048) * 1024 * 1024,
    minFreeBytes: int('QUIRE_MIN_FREE_MB', 256) * 1024 * 1024,
    maxRenderMegapixels: int('QUIRE_MAX_RENDER_MEGAPIXELS', 5000),
    maxOcrPages: int('QUIRE_MAX_OCR_PAGES', 500),
    trustProxy: process.env.QUIRE_TRUST_PROXY || false,
    bodyTimeoutMs: int('QUIRE_BODY_TIMEOUT_S', 30) * 1000,
    smtpUrl: process.env.QUIRE_SMTP_URL ?? '',
    mailFrom: process.env.QUIRE_MAIL_FROM || 'Quire <quire@localhost>',
    publicUrl: (process.env.QUIRE_PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    sessionDays: int('QUIRE_SESSION_DAYS', 30),
    // Ten attempts at once, then one every two minutes: a password guesser gets 720 a day.
    accountRate: { perSecond: int('QUIRE_SIGNIN_PER_HOUR', 30) / 3600, burst: int('QUIRE_SIGNIN_BURST', 10) },
    signUpsPerAddressPerDay: Math.max(0, int('QUIRE_SIGNUPS_PER_ADDRESS_DAY', 10)),
    anonymousTasksPerDay: Math.max(0, int('QUIRE_ANON_TASKS_PER_DAY', 1)),
    anonymousDownloads: process.env.QUIRE_ANON_DOWNLOADS === '1',
    oidc: overrides.oidc ?? loadOidc(),
    aiProviders: providers,
    aiModels: overrides.aiModels ?? loadAiModels(providers),
    aiAnalysisWaitMs: AI_CONSTANTS.summaryWaitMs,
    operatorContact: (process.env.QUIRE_OPERATOR_CONTACT ?? '').trim(),
    shippedTemplatesDir: path.resolve(path.join(import.meta.dirname, '../../../templates')),
    templatesDir: process.env.QUIRE_TEMPLATES_DIR ? path.resolve(process.env.QUIRE_TEMPLATES_DIR) : '',
    signingCertificate: process.env.QUIRE_SIGNING_P12
      ? { p12File: process.env.QUIRE_SIGNING_P12, passwordFile: process.env.QUIRE_SIGNING_P12_PASSWORD_FILE ?? '' }
      : undefined,
    timestampAuthority: loadTimestampAuthority(),
    ...overrides,
  };
}
