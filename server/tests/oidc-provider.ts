import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID Connect provider for the hub's single sign-on tests (panva's oidc-provider, the
 * certified implementation), on loopback, with its development login pages: any login, any
 * password, then a consent page. The login is the account:
 *  - an email address signs in with that address, verified;
 *  - one starting "unverified." has its address marked unverified;
 *  - one without "@" shares no address at all.
 */
export interface TestProvider {
  issuer: string;
  /** Starts answering, for a client that may come back to these redirect URIs (the hub's port is known only once it runs). */
  serve: (redirectUris: readonly string[]) => void;
  close: () => Promise<void>;
}

export const TEST_OIDC_CLIENT = { clientId: 'ddh-hub', clientSecret: 'a-client-secret-for-tests-only' } as const;

/** Takes a port (the issuer's URL is known before the hub starts); `serve` then starts the provider on it. */
export async function startOidcProvider(port = 0): Promise<TestProvider> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const serve = (redirectUris: readonly string[]) => {
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: TEST_OIDC_CLIENT.clientId,
          client_secret: TEST_OIDC_CLIENT.clientSecret,
          redirect_uris: [...redirectUris],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      claims: { openid: ['sub'], email: ['email', 'email_verified'] },
      findAccount: (_ctx, id) => ({
        accountId: id,
        claims: () => ({ sub: `subject-${id}`, ...(id.includes('@') ? { email: id, email_verified: !id.startsWith('unverified.') } : {}) }),
      }),
      cookies: { keys: ['oidc-provider-cookie-key-for-tests'] },
      features: { devInteractions: { enabled: true } },
    });
    // Its own warnings (development keys, the development login) are the point here, not news.
    provider.on('server_error', (_ctx, error) => console.error('oidc-provider:', error));
    server.on('request', provider.callback());
  };
  return {
    issuer,
    serve,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
