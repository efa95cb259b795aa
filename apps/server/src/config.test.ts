import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from './config.js';

afterEach(() => {
  vi.unstubAllEnvs();
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
    expect(() => loadConfig({}, [])).toThrow('QUIRE_AI_PROVIDER_TRANSLATE gpt: not one of classic, local, openai');
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
