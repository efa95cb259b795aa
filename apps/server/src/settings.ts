// Every variable Quire reads from its environment, declared once: its type, bounds, default and
// meaning. config.ts builds the running configuration from what readSettings answers, and
// docs/configuration.md is generated from this table (npm run docs:config). A new setting is one
// entry below.
import fs from 'node:fs';
import os from 'node:os';
import { AI_ENV, aiProviders, aiTools, type AiProvider, type AiTool } from '@quire/contracts';

export interface Setting<T> {
  /** The kind of value, as the documentation gives it. */
  type: string;
  /** The default, as the documentation gives it. */
  shownDefault: string;
  /** What the variable does, as the documentation gives it. */
  meaning: string;
  /** A secret: read in preference from the file `<name>_FILE` names (a mounted secret), and never repeated in an error. */
  secret?: boolean;
  /** Never repeated in an error either: a URL may carry credentials. */
  unrepeated?: boolean;
  /** The value when the variable is unset or empty. */
  fallback: T;
  /** The value of a set variable; throws with what is wrong with it. */
  parse(raw: string): T;
}

interface Shown {
  shown?: string;
}

const cores = Math.max(1, os.availableParallelism());

/** A whole number within bounds: `min` to `max`. */
function whole(fallback: number, meaning: string, { min = 1, max, shown }: Shown & { min?: number; max?: number } = {}): Setting<number> {
  const range = max !== undefined ? `from ${min} to ${max}` : min === 1 ? 'above 0' : `of ${min} or more`;
  return {
    type: `whole number ${range}`,
    shownDefault: shown ?? String(fallback),
    meaning,
    fallback,
    parse(raw) {
      const n = Number(raw);
      if (!Number.isInteger(n) || n < min || (max !== undefined && n > max)) throw new Error(`is not a whole number ${range}`);
      return n;
    },
  };
}

function text(meaning: string, { fallback = '', shown, secret }: Shown & { fallback?: string; secret?: boolean } = {}): Setting<string> {
  return {
    type: secret ? 'secret text' : 'text',
    shownDefault: shown ?? (fallback ? `\`${fallback}\`` : 'none'),
    meaning,
    secret,
    fallback,
    parse: (raw) => raw,
  };
}

/**
 * A URL of one of `schemes`; `base`: a base other paths are put after, kept without a trailing slash; `bare`: no
 * credentials or query allowed (they would end up in logs), and where they go instead.
 */
function url(schemes: string[], meaning: string, { shown, base, bare }: Shown & { base?: boolean; bare?: string } = {}): Setting<string> {
  const kinds = schemes.map((s) => `${s}://`).join(' or ');
  return {
    type: `${kinds} URL`,
    shownDefault: shown ?? 'none',
    meaning,
    unrepeated: true,
    fallback: '',
    parse(raw) {
      let parsed: URL;
      try {
        parsed = new URL(raw);
      } catch {
        throw new Error('is not a URL');
      }
      if (!schemes.includes(parsed.protocol.slice(0, -1))) throw new Error(`is not an ${kinds} URL`);
      if (bare && (parsed.username || parsed.password || parsed.search))
        throw new Error(`has credentials or a query: no credentials or query here; ${bare}`);
      return base ? raw.replace(/\/+$/, '') : raw;
    },
  };
}

/** `1`: on; `0`: off (the default). */
function flag(meaning: string): Setting<boolean> {
  return {
    type: '`1` or `0`',
    shownDefault: '`0`',
    meaning,
    fallback: false,
    parse(raw) {
      if (raw !== '1' && raw !== '0') throw new Error('is not 1 or 0');
      return raw === '1';
    },
  };
}

function oneOf<V extends string, F extends V | undefined>(
  values: readonly V[],
  fallback: F,
  meaning: string,
  shown?: string,
): Setting<V | F> {
  const list = values.join(', ');
  return {
    type: values.map((v) => `\`${v}\``).join(', '),
    shownDefault: shown ?? `\`${fallback}\``,
    meaning,
    fallback,
    parse(raw) {
      if (!(values as readonly string[]).includes(raw)) throw new Error(`is not one of ${list}`);
      return raw as V;
    },
  };
}

/** A comma-separated subset of `values`. */
function someOf<V extends string>(values: readonly V[], meaning: string, shown: string): Setting<V[]> {
  return {
    type: `comma-separated ${values.map((v) => `\`${v}\``).join(', ')}`,
    shownDefault: shown,
    meaning,
    fallback: [...values],
    parse(raw) {
      const list = raw.split(',').map((s) => s.trim());
      if (!list.every((v) => (values as readonly string[]).includes(v))) throw new Error(`is not a list of ${values.join(', ')}`);
      return list as V[];
    },
  };
}

type ProviderOfTool = `${typeof AI_ENV.providerOfTool}${Uppercase<AiTool>}`;
const providerOfEachTool = Object.fromEntries(
  aiTools.map((tool) => [
    AI_ENV.providerOfTool + tool.toUpperCase(),
    oneOf(aiProviders, undefined, `the provider of the AI tool ${tool}, over \`${AI_ENV.provider}\``, `\`${AI_ENV.provider}\``),
  ]),
) as Record<ProviderOfTool, Setting<AiProvider | undefined>>;

export const settings = {
  PORT: whole(8080, 'HTTP port (web app and API); 0: any free port', { min: 0, max: 65535 }),
  HOST: text('the address the HTTP server listens on', { fallback: '0.0.0.0' }),
  QUIRE_DATA_DIR: text('database file, stored files, temporary work', { shown: '`./data`' }),
  QUIRE_DATABASE_URL: text('the database: `sqlite:<file>` or `postgres://user@host:5432/db`', {
    shown: '`sqlite:$QUIRE_DATA_DIR/quire.db`',
  }),
  QUIRE_SERVICES: someOf(
    ['api', 'worker'],
    'run only the API or only a worker (a fleet shares one PostgreSQL database and storage); the `--services=` argument takes its place',
    '`api,worker`',
  ),
  QUIRE_WORKERS: whole(cores, 'tasks run at once by one worker process', { shown: 'number of cores' }),
  QUIRE_MAX_FILE_MB: whole(100, "ceiling of every plan's file size (4012 beyond it)"),
  QUIRE_MAX_PAGES: whole(2000, "ceiling of every plan's pages (4013 beyond it)"),
  QUIRE_LIMITS_FILE: text(
    "a JSON file overriding the plans' limits (README, Limits); a file that cannot be read or is not a valid table stops the start",
  ),
  QUIRE_RETENTION_HOURS: whole(2, 'uploads and results are deleted from disk this long after they were made'),
  QUIRE_ENGINE_TIMEOUT_S: whole(120, 'time limit of an engine call'),
  QUIRE_ENGINE_MEMORY_MB: whole(2048, 'highest memory bound of an engine call (address space; data segment for MuPDF)'),
  QUIRE_TASK_TIMEOUT_S: whole(600, 'time limit of a whole task (all its engine calls)'),
  QUIRE_OFFICE_LISTENERS: whole(
    Math.min(2, cores),
    'LibreOffice processes kept running for conversions to PDF, each converting one document at a time',
    {
      shown: '2 (1 on one core)',
    },
  ),
  QUIRE_MAX_QUEUED: whole(500, 'queued tasks of the whole service (3500 beyond them)'),
  QUIRE_MAX_QUEUED_PER_VISITOR: whole(20, 'queued tasks of one visitor (3500 beyond them)'),
  QUIRE_MAX_RUNNING_PER_VISITOR: whole(2, "tasks of one visitor running at once; other visitors' tasks are taken meanwhile"),
  QUIRE_MAX_RUNNING_PER_ADDRESS: whole(
    2,
    "tasks of one address running at once, all its accounts and visitors together; its others wait, other addresses' are taken meanwhile",
  ),
  QUIRE_MAX_QUEUED_WORK_PER_ADDRESS: whole(
    30_000,
    'work of the unfinished tasks of one address, all its accounts and visitors together, in megapixels rendered (a page of other work 1, an OCR page 60); beyond it 3500 (429), unless the address has none; workers take turns between addresses first; 0: no limit',
    { min: 0 },
  ),
  QUIRE_UPLOADS_PER_S: whole(50, 'upload requests per visitor per second (token bucket; HTTP 429 with Retry-After beyond it)'),
  QUIRE_UPLOAD_BURST: whole(600, 'upload requests a visitor may send at once (the bucket of `QUIRE_UPLOADS_PER_S`)'),
  QUIRE_TASKS_PER_S: whole(20, 'task creations per visitor per second (likewise)'),
  QUIRE_TASK_BURST: whole(200, 'task creations a visitor may ask at once (likewise)'),
  QUIRE_RATE_IP_FACTOR: whole(4, "one IP address gets this many visitors' rate limits"),
  QUIRE_MAX_HELD_MB: whole(
    2048,
    'uploads and results one visitor or account holds until retention deletes them (× the IP factor per address; 4017 beyond, ADR 0512)',
  ),
  QUIRE_MIN_FREE_MB: whole(
    256,
    'free space kept on the data volume for the database: below it uploads and tasks answer 3500 and `/api/health` 503',
    {
      min: 0,
    },
  ),
  QUIRE_MAX_RENDER_MEGAPIXELS: whole(5000, 'work one PDF-to-images task may ask for (3100 when it is made)'),
  QUIRE_MAX_OCR_PAGES: whole(500, 'pages one OCR task may ask for (3100 when it is made)'),
  QUIRE_TRUST_PROXY: text('proxies (addresses, subnets, `loopback`) believed on X-Forwarded-Proto: https → Secure cookie, HSTS'),
  QUIRE_BODY_TIMEOUT_S: whole(
    30,
    'a request body bringing under 16 KiB in this many seconds is cut off, its temporary file deleted; one not complete within this time plus its length at 32 KiB/s is answered 408',
  ),
  QUIRE_SMTP_URL: url(['smtp', 'smtps'], 'account mail goes here (`smtp://user:pass@host:587`); none: no mail, `users:verify` confirms'),
  QUIRE_MAIL_FROM: text('sender of account mail', { fallback: 'Quire <quire@localhost>' }),
  QUIRE_PUBLIC_URL: url(
    ['http', 'https'],
    "the address users reach Quire at: the base of links in account mail, share links, and the marketing pages' canonical and hreflang links and sitemap.xml",
    { shown: '`http://localhost:$PORT`', base: true },
  ),
  QUIRE_SESSION_DAYS: whole(30, 'a sign-in lasts this long unless refreshed (`account/refresh`) or ended'),
  QUIRE_SIGNIN_BURST: whole(
    10,
    'account mails per address, password checks per account and IP address at once (× the IP factor per IP; × 10 per account from anywhere; 429)',
  ),
  QUIRE_SIGNIN_PER_HOUR: whole(30, 'the same, refilled per hour'),
  QUIRE_SIGNUPS_PER_ADDRESS_DAY: whole(10, 'sign-ups one IP address may ask per UTC day (3500, 429 until the next day); 0: no limit', {
    min: 0,
  }),
  QUIRE_ANON_TASKS_PER_DAY: whole(1, 'tasks per UTC day of a visitor without account (× IP factor per address; 4016); 0: no limit', {
    min: 0,
  }),
  QUIRE_ANON_DOWNLOADS: flag('`1`: visitors download without signing in; `0`: sign-in first (3001), which binds the task'),
  QUIRE_OPERATOR_CONTACT: text('how users reach you to buy a plan (an address or a URL), on `/pricing`; none: "Ask the operator"'),
  QUIRE_TEMPLATES_DIR: text(
    'a folder of your own template PDFs for the gallery, each with an optional `<name>.json` (templates/README.md)',
  ),
  QUIRE_SIGNING_P12: text(
    "the operator's PKCS#12 (.p12/.pfx): Sign PDF's digital signatures with `certificate: operator` (4213 without one)",
  ),
  QUIRE_SIGNING_P12_PASSWORD_FILE: text('a file holding the password of `QUIRE_SIGNING_P12`'),
  QUIRE_TSA_URL: url(
    ['http', 'https'],
    'an RFC 3161 Time Stamping Authority: Sign PDF then offers a trusted timestamp (PAdES B-T) on digital signatures (4215–4217 when it fails)',
  ),
  QUIRE_TSA_TIMEOUT_S: whole(10, 'a request to that authority gives up after this'),
  QUIRE_OIDC_ISSUER: url(
    ['http', 'https'],
    "single sign-on: the provider's issuer URL (its `/.well-known/openid-configuration` is read at first use); none: no single sign-on",
  ),
  QUIRE_OIDC_CLIENT_ID: text('the client id the provider gave Quire; needed with `QUIRE_OIDC_ISSUER`'),
  QUIRE_OIDC_CLIENT_SECRET: text('the client secret: a file holding it (a mounted secret, read at start), or the secret itself', {
    secret: true,
  }),
  QUIRE_OIDC_NAME: text("the provider's name on the button (`Continue with <name>`), e.g. `Company SSO`", { fallback: 'single sign-on' }),
  QUIRE_OIDC_SCOPES: text('the scopes asked for; Quire needs `openid` and `email`', { fallback: 'openid email profile' }),
  QUIRE_OIDC_TIMEOUT_S: whole(10, 'each request to the provider gives up after this (3006 to the user)'),
  [AI_ENV.provider]: oneOf(aiProviders, 'classic', 'the provider of every AI tool: `classic` (no model), `local` or `openai`'),
  ...providerOfEachTool,
  [AI_ENV.modelPath]: text(
    "a GGUF model file for the AI tools whose provider is `local`, run by llama.cpp's prebuilt CPU build; needed when one is; missing or not GGUF: said in the log at the start, 11020 for its answers",
  ),
  [AI_ENV.modelMemoryMb]: whole(
    8192,
    "address space of the local model's worker (the model file counts: raise it for a model larger than about 6 GB)",
  ),
  [AI_ENV.modelContext]: whole(4096, "the local model's context in tokens"),
  [AI_ENV.modelThreads]: whole(
    cores,
    "CPU threads of one local answer; fewer than the cores where the machine runs other tasks (llama.cpp's threads spin while they wait for each other)",
    { shown: 'number of cores' },
  ),
  [AI_ENV.openaiBaseUrl]: url(
    ['http', 'https'],
    'an OpenAI-compatible endpoint (e.g. `http://localhost:11434/v1` for Ollama) for the tools whose provider is `openai`; needed when one is; no credentials or query in the URL',
    { base: true, bare: `the key goes in ${AI_ENV.openaiKeyFile}` },
  ),
  [AI_ENV.openaiModel]: text("that endpoint's model; needed with it"),
  [AI_ENV.openaiKey]: text(
    "that endpoint's key: a file holding it, or the key itself; sent only in the Authorization header, never logged",
    { secret: true },
  ),
  QUIRE_WEB_DIST: text('the built web app served', { shown: '`apps/web/dist`' }),
  QUIRE_LOG: flag('`1`: log each request to standard output'),
} satisfies Record<string, Setting<unknown>>;

export type SettingName = keyof typeof settings;
export type Settings = { [N in SettingName]: (typeof settings)[N] extends Setting<infer T> ? T : never };

/** One variable's value from `env`, or what is wrong with it. */
export function readSetting<N extends SettingName>(name: N, env: NodeJS.ProcessEnv): { value: Settings[N]; problem?: string } {
  const setting: Setting<Settings[N]> = settings[name] as Setting<Settings[N]>;
  let raw = env[name];
  const file = setting.secret ? env[`${name}_FILE`] : undefined;
  if (file) {
    try {
      raw = fs.readFileSync(file, 'utf8');
    } catch (e) {
      return { value: setting.fallback, problem: `${name}_FILE: ${(e as Error).message}` };
    }
  }
  raw = raw?.trim();
  if (!raw) return { value: setting.fallback };
  try {
    return { value: setting.parse(raw) };
  } catch (e) {
    const what = setting.secret || setting.unrepeated ? 'its value' : `"${raw}"`;
    return { value: setting.fallback, problem: `${name}: ${what} ${(e as Error).message}` };
  }
}

/** Every variable's value from `env`, and what is wrong with each invalid one (its default stands in for it meanwhile). */
export function readSettings(env: NodeJS.ProcessEnv): { values: Settings; problems: string[] } {
  const problems: string[] = [];
  const values = Object.fromEntries(
    (Object.keys(settings) as SettingName[]).map((name) => {
      const { value, problem } = readSetting(name, env);
      if (problem) problems.push(problem);
      return [name, value];
    }),
  ) as Settings;
  return { values, problems };
}
