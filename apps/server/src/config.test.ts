import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONFIGURATION_DOC, configurationDoc } from './configurationDoc.js';
import { ConfigError, loadConfig } from './config.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

/** What loadConfig throws for `env`, or undefined when it starts. */
function refusal(env: NodeJS.ProcessEnv): ConfigError | undefined {
  try {
    loadConfig({}, [], env);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  return undefined;
}

describe('settings', () => {
  it('stop the start on a value the variable does not take, naming the variable and what is wrong', () => {
    expect(refusal({ QUIRE_MAX_FILE_MB: '1g' })?.message).toContain('QUIRE_MAX_FILE_MB: "1g" is not a whole number above 0');
    expect(refusal({ QUIRE_ANON_DOWNLOADS: 'yes' })?.problems).toEqual(['QUIRE_ANON_DOWNLOADS: "yes" is not 1 or 0']);
    expect(refusal({ QUIRE_SERVICES: 'api,wroker' })?.problems).toEqual(['QUIRE_SERVICES: "api,wroker" is not a list of api, worker']);
    expect(refusal({ PORT: '70000' })?.problems).toEqual(['PORT: "70000" is not a whole number from 0 to 65535']);
  });

  it('name every invalid variable at once', () => {
    const error = refusal({ QUIRE_MAX_FILE_MB: '1g', QUIRE_RETENTION_HOURS: '-3', QUIRE_PUBLIC_URL: 'quire.example.org' });
    expect(error?.problems).toEqual([
      'QUIRE_MAX_FILE_MB: "1g" is not a whole number above 0',
      'QUIRE_RETENTION_HOURS: "-3" is not a whole number above 0',
      'QUIRE_PUBLIC_URL: its value is not a URL',
    ]);
    expect(error?.message).toMatch(/QUIRE_MAX_FILE_MB.*\n.*QUIRE_RETENTION_HOURS.*\n.*QUIRE_PUBLIC_URL/);
  });

  it('never repeat a URL, which may carry credentials, in what they say is wrong', () => {
    expect(refusal({ QUIRE_SMTP_URL: 'http://mailer:hunter2@mail.example.org' })?.problems).toEqual([
      'QUIRE_SMTP_URL: its value is not an smtp:// or smtps:// URL',
    ]);
    expect(
      refusal({ QUIRE_AI_OPENAI_BASE_URL: 'https://user:sk-123@ai.example.org/v1', QUIRE_AI_OPENAI_MODEL: 'llama3' })?.message,
    ).not.toContain('sk-123');
  });

  it('stop the start on a secret file that cannot be read, naming its variable', () => {
    expect(refusal({ QUIRE_AI_OPENAI_KEY_FILE: '/nonexistent/key' })?.problems).toEqual([
      "QUIRE_AI_OPENAI_KEY_FILE: ENOENT: no such file or directory, open '/nonexistent/key'",
    ]);
  });

  it('keep their defaults and bounds for valid values', () => {
    const config = loadConfig({}, [], { QUIRE_DATA_DIR: '/srv/quire', PORT: '9000', QUIRE_MAX_QUEUED_WORK_PER_ADDRESS: '0' });
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      databaseUrl: 'sqlite:/srv/quire/quire.db',
      services: { api: true, worker: true },
      maxFileBytes: 100 * 1024 * 1024,
      maxPages: 2000,
      retentionHours: 2,
      engineTimeoutMs: 120_000,
      taskTimeoutMs: 600_000,
      maxQueuedWorkPerAddress: 0,
      uploadRate: { perSecond: 50, burst: 600 },
      accountRate: { perSecond: 30 / 3600, burst: 10 },
      anonymousTasksPerDay: 1,
      anonymousDownloads: false,
      trustProxy: false,
      publicUrl: 'http://localhost:9000',
      mailFrom: 'Quire <quire@localhost>',
    });
    expect(loadConfig({}, ['--services=worker'], {}).services).toEqual({ api: false, worker: true });
    expect(loadConfig({}, [], { QUIRE_PUBLIC_URL: 'https://quire.example.org/', QUIRE_ANON_DOWNLOADS: '1' })).toMatchObject({
      publicUrl: 'https://quire.example.org',
      anonymousDownloads: true,
    });
  });
});

describe('docs/configuration.md', () => {
  it('is what the settings generate (npm run docs:config writes it)', () => {
    const committed = fs.readFileSync(path.join(import.meta.dirname, '../../..', CONFIGURATION_DOC), 'utf8');
    expect(committed).toBe(configurationDoc());
  });
});

describe('single sign-on settings', () => {
  it('are off without an issuer, and refuse an issuer without a client id', () => {
    vi.stubEnv('QUIRE_OIDC_ISSUER', '');
    expect(loadConfig({}, []).oidc).toBeUndefined();
    vi.stubEnv('QUIRE_OIDC_ISSUER', 'https://id.example.org/realms/staff');
    vi.stubEnv('QUIRE_OIDC_CLIENT_ID', '');
    expect(() => loadConfig({}, [])).toThrow('QUIRE_OIDC_CLIENT_ID');
  });

  it('read the client secret from QUIRE_OIDC_CLIENT_SECRET_FILE in preference to the environment', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-config-'));
    const file = path.join(dir, 'secret');
    fs.writeFileSync(file, 'from-the-file\n');
    vi.stubEnv('QUIRE_OIDC_ISSUER', 'https://id.example.org');
    vi.stubEnv('QUIRE_OIDC_CLIENT_ID', 'quire');
    vi.stubEnv('QUIRE_OIDC_CLIENT_SECRET', 'from-the-environment');
    vi.stubEnv('QUIRE_OIDC_NAME', 'Company SSO');
    expect(loadConfig({}, []).oidc).toEqual({
      issuer: 'https://id.example.org',
      clientId: 'quire',
      clientSecret: 'from-the-environment',
      name: 'Company SSO',
      scopes: 'openid email profile',
      timeoutMs: 10_000,
    });
    vi.stubEnv('QUIRE_OIDC_CLIENT_SECRET_FILE', file);
    expect(loadConfig({}, []).oidc?.clientSecret).toBe('from-the-file');
    fs.rmSync(dir, { recursive: true });
  });
});

describe('AI providers', () => {
  it('are classic by default, QUIRE_AI_PROVIDER for every tool, QUIRE_AI_PROVIDER_<TOOL> for one, and refuse other values', () => {
    vi.stubEnv('QUIRE_AI_PROVIDER', '');
    vi.stubEnv('QUIRE_AI_PROVIDER_CHAT', '');
    expect(loadConfig({}, []).aiProviders.chat).toBe('classic');
    vi.stubEnv('QUIRE_AI_PROVIDER', 'openai');
    vi.stubEnv('QUIRE_AI_PROVIDER_CHAT', 'local');
    // What those providers need, or the start stops (the next tests).
    vi.stubEnv('QUIRE_AI_MODEL_PATH', '/models/tiny.gguf');
    vi.stubEnv('QUIRE_AI_OPENAI_BASE_URL', 'http://localhost:11434/v1');
    vi.stubEnv('QUIRE_AI_OPENAI_MODEL', 'llama3');
    const providers = loadConfig({}, []).aiProviders;
    expect(providers.chat).toBe('local');
    expect(providers.summary).toBe('openai');
    expect(providers.detect).toBe('openai');
    vi.stubEnv('QUIRE_AI_PROVIDER_TRANSLATE', 'gpt');
    expect(() => loadConfig({}, [])).toThrow('QUIRE_AI_PROVIDER_TRANSLATE: "gpt" is not one of classic, local, openai');
  });
});

describe('AI models', () => {
  it('have defaults for the local model', () => {
    vi.stubEnv('QUIRE_AI_PROVIDER', 'local');
    vi.stubEnv('QUIRE_AI_MODEL_PATH', 'models/tiny.gguf');
    expect(loadConfig({}, []).aiModels.local).toMatchObject({
      modelPath: path.resolve('models/tiny.gguf'),
      memoryMb: 8192,
      contextTokens: 4096,
    });
  });

  it('stop the start when a provider lacks what it needs', () => {
    vi.stubEnv('QUIRE_AI_PROVIDER_CHAT', 'local');
    vi.stubEnv('QUIRE_AI_MODEL_PATH', '');
    expect(() => loadConfig({}, [])).toThrow('QUIRE_AI_MODEL_PATH is not set');
    vi.stubEnv('QUIRE_AI_MODEL_PATH', '/models/tiny.gguf');
    vi.stubEnv('QUIRE_AI_MODEL_MEMORY_MB', '4 GB');
    expect(() => loadConfig({}, [])).toThrow('QUIRE_AI_MODEL_MEMORY_MB: "4 GB" is not a whole number above 0');
    vi.stubEnv('QUIRE_AI_MODEL_MEMORY_MB', '');
    vi.stubEnv('QUIRE_AI_PROVIDER_CHAT', 'openai');
    expect(() => loadConfig({}, [])).toThrow('QUIRE_AI_OPENAI_BASE_URL is not set');
    vi.stubEnv('QUIRE_AI_OPENAI_BASE_URL', 'http://localhost:11434/v1');
    expect(() => loadConfig({}, [])).toThrow('QUIRE_AI_OPENAI_MODEL is not');
  });

  it('refuse a key in the endpoint’s URL, and read the key from QUIRE_AI_OPENAI_KEY_FILE in preference to the environment', () => {
    vi.stubEnv('QUIRE_AI_PROVIDER', 'openai');
    vi.stubEnv('QUIRE_AI_OPENAI_MODEL', 'llama3');
    vi.stubEnv('QUIRE_AI_OPENAI_BASE_URL', 'https://ai.example.org/v1?key=sk-123');
    expect(() => loadConfig({}, [])).toThrow('no credentials or query');
    vi.stubEnv('QUIRE_AI_OPENAI_BASE_URL', 'https://user:sk-123@ai.example.org/v1');
    expect(() => loadConfig({}, [])).toThrow('no credentials or query');
    vi.stubEnv('QUIRE_AI_OPENAI_BASE_URL', 'https://ai.example.org/v1/');
    vi.stubEnv('QUIRE_AI_OPENAI_KEY', 'sk-from-the-environment');
    expect(loadConfig({}, []).aiModels.openai).toEqual({
      baseUrl: 'https://ai.example.org/v1',
      model: 'llama3',
      key: 'sk-from-the-environment',
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-config-'));
    fs.writeFileSync(path.join(dir, 'key'), 'sk-from-the-file\n');
    vi.stubEnv('QUIRE_AI_OPENAI_KEY_FILE', path.join(dir, 'key'));
    expect(loadConfig({}, []).aiModels.openai?.key).toBe('sk-from-the-file');
    fs.rmSync(dir, { recursive: true });
  });
});
