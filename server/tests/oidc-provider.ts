import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID Connect provider for the hub's single sign-on tests (panva's oidc-provider, the
 * certified implementation), on loopback, with its development login pages: any login, any
 * password, then a consent page. The login is the account:
 *  - an email address signs in with that address, verified;
 *  - one starting "unverified." has its address marked unverified;
 *  - one without "@" shares no address at all.
 * It answers through a front of its own on the issuer's port, which can turn hostile: `forgeIdTokens`
 * rewrites the ID token of each token answer to name another address, its signature broken (what a
 * party between the hub and the provider could send).
 */
export interface TestProvider {
  issuer: string;
  /** Starts answering, for a client that may come back to these redirect URIs (the hub's port is known only once it runs). */
  serve: (redirectUris: readonly string[]) => void;
  /** From now on, every token answer's ID token names `email` (verified), with a signature that is not the provider's; null: honest again. */
  forgeIdTokens: (email: string | null) => void;
  /** From now on, requests whose path starts with `path` get no answer at all; null: all answered again. */
  hang: (path: string | null) => void;
  close: () => Promise<void>;
}

export const TEST_OIDC_CLIENT = { clientId: 'ddh-hub', clientSecret: 'a-client-secret-for-tests-only' } as const;

const listen = async (server: ReturnType<typeof createServer>, port = 0) => {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

/**
 * Takes a port (the issuer's URL is known before the hub starts); `serve` then starts the provider
 * behind it. `host`: the issuer's host name (`localhost` puts the provider on another site than a
 * hub at 127.0.0.1, as a real provider is).
 */
export async function startOidcProvider({ host = '127.0.0.1' }: { host?: 'localhost' | '127.0.0.1' } = {}): Promise<TestProvider> {
  const inner = createServer();
  const front = createServer();
  const innerPort = await listen(inner);
  const issuer = `http://${host}:${await listen(front)}`;
  let forged: string | null = null;
  let hung: string | null = null;

  front.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (hung !== null && req.url?.startsWith(hung)) return;
    const upstream = request({ host: '127.0.0.1', port: innerPort, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      if (forged === null || !req.url?.startsWith('/token')) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id_token?: string };
        if (body.id_token) {
          const [header, payload] = body.id_token.split('.');
          const claims = { ...JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')), email: forged, email_verified: true };
          body.id_token = [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), 'AAAA'].join('.');
        }
        const { 'content-length': _length, ...headers } = answer.headers;
        res.writeHead(answer.statusCode ?? 502, headers);
        res.end(JSON.stringify(body));
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });

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
    inner.on('request', provider.callback());
  };
  return {
    issuer,
    serve,
    forgeIdTokens: (email) => {
      forged = email;
    },
    hang: (path) => {
      hung = path;
    },
    close: async () => {
      for (const server of [front, inner]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}
