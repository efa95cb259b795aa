// A real OpenID Connect provider for the tests: the certified `oidc-provider`, on a free local
// port, with one client registered for a Quire's callback and its own sign-in and consent pages
// (its development interactions: any login signs in as the person of that name, with any password).
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import type { Config } from '../src/config.js';
import { SSO_CALLBACK_PATH } from '../src/services/sso.js';

/** A person the provider knows: the login typed at its sign-in page names them. */
export interface ProviderPerson {
  email: string;
  email_verified: boolean;
  given_name?: string;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  stop(): Promise<void>;
}

/** Starts a provider whose client `quire` may come back to `redirectUri` only. */
export async function startProvider(redirectUri: string, people: Record<string, ProviderPerson>): Promise<TestProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientSecret = 'a-client-secret-of-32-characters!';
  const provider = new Provider(issuer, {
    clients: [{ client_id: 'quire', client_secret: clientSecret, redirect_uris: [redirectUri], response_types: ['code'] }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name'] },
    findAccount: (_, login) => {
      const person = people[login];
      return person && { accountId: login, claims: () => ({ sub: login, ...person }) };
    },
    pkce: { required: () => true },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId: 'quire',
    clientSecret,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nobody listens on now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A provider for a Quire about to start, and the settings that Quire starts with to use it: its
 * port is chosen first, as its address is the redirect URI the provider registers.
 */
export async function providerForQuire(
  people: Record<string, ProviderPerson>,
): Promise<{ provider: TestProvider; settings: Partial<Config> }> {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const provider = await startProvider(publicUrl + SSO_CALLBACK_PATH, people);
  const { issuer, clientId, clientSecret } = provider;
  return {
    provider,
    settings: {
      port,
      publicUrl,
      oidc: { issuer, clientId, clientSecret, name: 'Company SSO', scopes: 'openid email profile', timeoutMs: 5000 },
    },
  };
}
