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
    const providers = loadConfig({}, []).aiProviders;
    expect(providers.chat).toBe('local');
    expect(providers.summary).toBe('openai');
    expect(providers.detect).toBe('openai');
    vi.stubEnv('QUIRE_AI_PROVIDER_TRANSLATE', 'gpt');
    expect(() => loadConfig({}, [])).toThrow('QUIRE_AI_PROVIDER_TRANSLATE gpt: not one of classic, local, openai');
  });
});
