// Runtime configuration, read once from the environment (the variables of settings.ts). Embedded defaults need nothing else.
import fs from 'node:fs';
import path from 'node:path';
import {
  AI_CONSTANTS,
  AI_ENV,
  aiTools,
  defaultLimits,
  limitsOverride,
  withOverride,
  type AiProvider,
  type AiTool,
  type LimitsTable,
} from '@quire/contracts';
import { readSettings, type Settings } from './settings.js';

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

/** A token bucket: `burst` requests at once, refilled at `perSecond`. */
export interface RateLimit {
  perSecond: number;
  burst: number;
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

/** Settings that stop the start: each problem names its variable and what is wrong with it. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Quire cannot start; fix these settings:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
}

function oidcOf(s: Settings, problems: string[]): OidcConfig | undefined {
  if (!s.QUIRE_OIDC_ISSUER) return undefined;
  if (!s.QUIRE_OIDC_CLIENT_ID) problems.push('QUIRE_OIDC_ISSUER is set but QUIRE_OIDC_CLIENT_ID is not');
  return {
    issuer: s.QUIRE_OIDC_ISSUER,
    clientId: s.QUIRE_OIDC_CLIENT_ID,
    clientSecret: s.QUIRE_OIDC_CLIENT_SECRET,
    name: s.QUIRE_OIDC_NAME,
    scopes: s.QUIRE_OIDC_SCOPES,
    timeoutMs: s.QUIRE_OIDC_TIMEOUT_S * 1000,
  };
}

/** The provider of each AI tool: its own variable, else QUIRE_AI_PROVIDER. */
function aiProvidersOf(s: Settings): Record<AiTool, AiProvider> {
  const ofTool = (tool: AiTool) => s[`${AI_ENV.providerOfTool}${tool.toUpperCase() as Uppercase<AiTool>}`] ?? s[AI_ENV.provider];
  return Object.fromEntries(aiTools.map((tool) => [tool, ofTool(tool)])) as Record<AiTool, AiProvider>;
}

/** The models the AI providers use; a provider a tool is given without what it needs is a problem. */
function aiModelsOf(s: Settings, providers: Record<AiTool, AiProvider>, problems: string[]): AiModelsConfig {
  const uses = (provider: AiProvider) => Object.values(providers).includes(provider);
  const modelPath = s[AI_ENV.modelPath];
  if (uses('local') && !modelPath) problems.push(`an AI tool's provider is local but ${AI_ENV.modelPath} is not set`);
  const baseUrl = s[AI_ENV.openaiBaseUrl];
  if (uses('openai') && !baseUrl) problems.push(`an AI tool's provider is openai but ${AI_ENV.openaiBaseUrl} is not set`);
  const model = s[AI_ENV.openaiModel];
  if (baseUrl && !model) problems.push(`${AI_ENV.openaiBaseUrl} is set but ${AI_ENV.openaiModel} is not`);
  return {
    local: {
      modelPath: modelPath && path.resolve(modelPath),
      memoryMb: s[AI_ENV.modelMemoryMb],
      contextTokens: s[AI_ENV.modelContext],
      threads: s[AI_ENV.modelThreads],
    },
    openai: baseUrl ? { baseUrl, model, key: s[AI_ENV.openaiKey] } : undefined,
  };
}

const MB = 1024 * 1024;

/** The configuration from `env` (and a `--services=` argument); every invalid setting at once stops it with a ConfigError. */
export function loadConfig(overrides: Partial<Config> = {}, argv = process.argv, env = process.env): Config {
  const servicesArgument = argv.find((a) => a.startsWith('--services='))?.slice('--services='.length);
  const { values: s, problems } = readSettings(servicesArgument === undefined ? env : { ...env, QUIRE_SERVICES: servicesArgument });
  const port = overrides.port ?? s.PORT;
  const limitsFile = overrides.limitsFile ?? s.QUIRE_LIMITS_FILE;
  const providers = overrides.aiProviders ?? aiProvidersOf(s);
  const dataDir = path.resolve(overrides.dataDir ?? (s.QUIRE_DATA_DIR || path.join(process.cwd(), 'data')));
  let limits = defaultLimits;
  try {
    limits = readLimits(limitsFile);
  } catch (e) {
    problems.push((e as Error).message);
  }
  const config: Config = {
    port,
    host: s.HOST,
    dataDir,
    databaseUrl: s.QUIRE_DATABASE_URL || `sqlite:${path.join(dataDir, 'quire.db')}`,
    services: { api: s.QUIRE_SERVICES.includes('api'), worker: s.QUIRE_SERVICES.includes('worker') },
    workerConcurrency: s.QUIRE_WORKERS,
    maxFileBytes: s.QUIRE_MAX_FILE_MB * MB,
    maxPages: s.QUIRE_MAX_PAGES,
    limitsFile,
    limits,
    retentionHours: s.QUIRE_RETENTION_HOURS,
    engineTimeoutMs: s.QUIRE_ENGINE_TIMEOUT_S * 1000,
    taskTimeoutMs: s.QUIRE_TASK_TIMEOUT_S * 1000,
    engineMemoryMb: s.QUIRE_ENGINE_MEMORY_MB,
    officeListeners: s.QUIRE_OFFICE_LISTENERS,
    webDist: path.resolve(s.QUIRE_WEB_DIST || path.join(import.meta.dirname, '../../web/dist')),
    maxQueued: s.QUIRE_MAX_QUEUED,
    maxQueuedPerOwner: s.QUIRE_MAX_QUEUED_PER_VISITOR,
    maxRunningPerOwner: s.QUIRE_MAX_RUNNING_PER_VISITOR,
    // As many as one visitor: a lone address keeps both workers of a 2-core machine busy (ADR 0552).
    maxRunningPerAddress: s.QUIRE_MAX_RUNNING_PER_ADDRESS,
    // About a quarter of an hour of one core: eight 100-page conversions to PNG at 600 dpi, or one 500-page OCR.
    maxQueuedWorkPerAddress: s.QUIRE_MAX_QUEUED_WORK_PER_ADDRESS,
    // An upload of the largest file is 200 parts sent 12 at a time: the burst takes one at once.
    uploadRate: { perSecond: s.QUIRE_UPLOADS_PER_S, burst: s.QUIRE_UPLOAD_BURST },
    taskRate: { perSecond: s.QUIRE_TASKS_PER_S, burst: s.QUIRE_TASK_BURST },
    ipRateFactor: s.QUIRE_RATE_IP_FACTOR,
    maxHeldBytes: s.QUIRE_MAX_HELD_MB * MB,
    minFreeBytes: s.QUIRE_MIN_FREE_MB * MB,
    maxRenderMegapixels: s.QUIRE_MAX_RENDER_MEGAPIXELS,
    maxOcrPages: s.QUIRE_MAX_OCR_PAGES,
    trustProxy: s.QUIRE_TRUST_PROXY || false,
    bodyTimeoutMs: s.QUIRE_BODY_TIMEOUT_S * 1000,
    smtpUrl: s.QUIRE_SMTP_URL,
    mailFrom: s.QUIRE_MAIL_FROM,
    publicUrl: s.QUIRE_PUBLIC_URL || `http://localhost:${port}`,
    sessionDays: s.QUIRE_SESSION_DAYS,
    // Ten attempts at once, then one every two minutes: a password guesser gets 720 a day.
    accountRate: { perSecond: s.QUIRE_SIGNIN_PER_HOUR / 3600, burst: s.QUIRE_SIGNIN_BURST },
    signUpsPerAddressPerDay: s.QUIRE_SIGNUPS_PER_ADDRESS_DAY,
    anonymousTasksPerDay: s.QUIRE_ANON_TASKS_PER_DAY,
    anonymousDownloads: s.QUIRE_ANON_DOWNLOADS,
    oidc: overrides.oidc ?? oidcOf(s, problems),
    aiProviders: providers,
    aiModels: overrides.aiModels ?? aiModelsOf(s, providers, problems),
    aiAnalysisWaitMs: AI_CONSTANTS.summaryWaitMs,
    operatorContact: s.QUIRE_OPERATOR_CONTACT,
    shippedTemplatesDir: path.resolve(path.join(import.meta.dirname, '../../../templates')),
    templatesDir: s.QUIRE_TEMPLATES_DIR && path.resolve(s.QUIRE_TEMPLATES_DIR),
    signingCertificate: s.QUIRE_SIGNING_P12 ? { p12File: s.QUIRE_SIGNING_P12, passwordFile: s.QUIRE_SIGNING_P12_PASSWORD_FILE } : undefined,
    timestampAuthority: s.QUIRE_TSA_URL ? { url: s.QUIRE_TSA_URL, timeoutMs: s.QUIRE_TSA_TIMEOUT_S * 1000 } : undefined,
    ...overrides,
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}

/** The configuration for a process's start: invalid settings end the process, each named, without a stack trace. */
export function startingConfig(argv = process.argv): Config {
  try {
    return loadConfig({}, argv);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(e.message);
    process.exit(1);
  }
}
