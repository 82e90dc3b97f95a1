import * as client from 'openid-client';
import type { SsoFailure } from '../../src/api/contract/hub-sign-in';
import { UsageError } from '../lib/service-error';
import type { VendorCipher } from './vendor-cipher';

/*
 * Single sign-on with OpenID Connect (docs/hub.md, "Single sign-on"): the authorization code flow
 * with PKCE, a state and a nonce, run by openid-client (discovery, the token request, the ID
 * token's signature against the provider's published keys, issuer, audience, expiry and nonce;
 * openid-client checks the signature only when asked, `enableNonRepudiationChecks`, since TLS to the
 * token endpoint may stand in for it, which an http issuer on loopback does not give). The hub keeps nothing of the flow: its
 * state travels in a cookie sealed under the hub secret (AES-GCM, its own context), so a flow
 * started on one hub of the team can end on another, and a forged or foreign callback opens nothing.
 * The provider proves an email address; the hub signs in the active member who has it, and nobody
 * else: members are still made by an admin.
 */

export interface OidcSettings {
  /** The provider's issuer URL: https, or http on a loopback address (a provider run beside the hub). */
  issuer: string;
  clientId: string;
  /** A confidential client's secret (client_secret_basic); absent: a public client, PKCE alone. */
  clientSecret?: string;
  /** The sign-in button says "Sign in with {label}". */
  label?: string;
  /** The redirect URI registered with the provider; `<the origin the browser used>/hub/v1/oidc/callback` when absent. */
  redirectUri?: string;
  /** How long one request to the provider may take (s): PROVIDER_TIMEOUT_S when absent (tests shorten it). */
  timeoutSeconds?: number;
}

export class OidcError extends Error {
  constructor(
    /** Why (the console names each; never the provider's own text). */
    readonly failure: SsoFailure,
    message: string,
  ) {
    super(message);
  }
}

/** The flow's cookie: only its own path sees it, and it lasts as long as a person takes at the provider. */
export const OIDC_FLOW_COOKIE = 'ddh_oidc_flow';
export const OIDC_FLOW_TTL_MS = 10 * 60_000;
const FLOW_CONTEXT = 'oidc-flow v1';

interface Flow {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
  returnTo: string;
  expiresAt: number;
  /**
   * The session the browser had when it started (its id, not its token): ended when the sign-in
   * completes. The callback comes from the provider's site, with which a SameSite=Strict cookie is
   * not sent, so this is the only moment the hub sees it.
   */
  replaces: string | null;
}

/** How long one request to the provider may take before the sign-in says it did not answer (openid-client's default is 30 s). */
const PROVIDER_TIMEOUT_S = 10;

/** An address the hub can match to a member as it is: printable ASCII, at most 254 characters (RFC 5321's path). No Unicode case mapping can turn another mailbox into a member's. */
const MATCHABLE_EMAIL = /^[\x21-\x7e]{3,254}$/;

export interface Oidc {
  label: string;
  /** Where to send the browser for a new sign-in, and the sealed flow for its cookie. */
  begin: (redirectUri: string, returnTo: string, replaces: string | null, now?: number) => Promise<{ url: string; sealed: string }>;
  /** The provider's answer (the callback's query) checked against the flow: the verified address, where to go, and the session it replaces. */
  finish: (
    query: URLSearchParams,
    sealed: string | undefined,
    now?: number,
  ) => Promise<{ email: string; subject: string; returnTo: string; replaces: string | null }>;
  /** The redirect URI for a browser that came through `origin` (the configured one when set). */
  redirectUriFor: (origin: string) => string;
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/** Checks the settings at start-up: a bad issuer or a client without an id is a usage error, not a failed sign-in later. */
export function checkOidcSettings(settings: OidcSettings): URL {
  let issuer: URL;
  try {
    issuer = new URL(settings.issuer);
  } catch {
    throw new UsageError(`--oidc-issuer must be a URL, got ${settings.issuer}`);
  }
  if (issuer.protocol !== 'https:' && !(issuer.protocol === 'http:' && LOOPBACK_HOST.test(issuer.hostname)))
    throw new UsageError('--oidc-issuer must be an https URL (http only on a loopback address)');
  if (issuer.username || issuer.password || issuer.search || issuer.hash) throw new UsageError('--oidc-issuer must have no credentials, query or fragment');
  if (!settings.clientId.trim()) throw new UsageError('--oidc-client-id is required with --oidc-issuer');
  if (settings.redirectUri !== undefined) {
    let redirect: URL;
    try {
      redirect = new URL(settings.redirectUri);
    } catch {
      throw new UsageError(`--oidc-redirect-uri must be a URL, got ${settings.redirectUri}`);
    }
    if (redirect.pathname !== '/hub/v1/oidc/callback' || redirect.search || redirect.hash)
      throw new UsageError('--oidc-redirect-uri must end in /hub/v1/oidc/callback (the hub’s callback), with no query');
  }
  return issuer;
}

export function createOidc(settings: OidcSettings, cipher: VendorCipher): Oidc {
  const issuer = checkOidcSettings(settings);
  // Read when first needed and kept once it answered: a provider down at start-up does not stop the hub.
  let configuration: Promise<client.Configuration> | null = null;
  const configured = () => {
    configuration ??= client
      .discovery(issuer, settings.clientId, undefined, settings.clientSecret !== undefined ? client.ClientSecretBasic(settings.clientSecret) : client.None(), {
        timeout: settings.timeoutSeconds ?? PROVIDER_TIMEOUT_S,
        ...(issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
      })
      .then((config) => {
        client.enableNonRepudiationChecks(config);
        return config;
      })
      .catch((error: unknown) => {
        configuration = null;
        throw new OidcError('unavailable', `the sign-in provider could not be reached (${(error as Error).name})`);
      });
    return configuration;
  };

  const seal = (flow: Flow) => cipher.seal(JSON.stringify(flow), FLOW_CONTEXT);
  const open = (sealed: string | undefined, now: number): Flow => {
    if (!sealed) throw new OidcError('expired', 'no sign-in was started in this browser, or it took longer than 10 minutes');
    let flow: Flow;
    try {
      flow = JSON.parse(cipher.open(sealed, FLOW_CONTEXT)) as Flow;
    } catch {
      throw new OidcError('invalid', 'the sign-in’s state could not be read');
    }
    if (!(flow.expiresAt > now)) throw new OidcError('expired', 'the sign-in took longer than 10 minutes');
    return flow;
  };

  return {
    label: settings.label?.trim() || issuer.hostname,
    redirectUriFor: (origin) => settings.redirectUri ?? `${origin}/hub/v1/oidc/callback`,
    async begin(redirectUri, returnTo, replaces, now = Date.now()) {
      const config = await configured();
      const flow: Flow = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        verifier: client.randomPKCECodeVerifier(),
        redirectUri,
        returnTo,
        expiresAt: now + OIDC_FLOW_TTL_MS,
        replaces,
      };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email',
        response_type: 'code',
        code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
      });
      return { url: url.href, sealed: seal(flow) };
    },
    async finish(query, sealed, now = Date.now()) {
      const flow = open(sealed, now);
      if (query.get('state') !== flow.state) throw new OidcError('invalid', 'the provider’s answer belongs to another sign-in');
      if (query.has('error')) throw new OidcError(query.get('error') === 'access_denied' ? 'denied' : 'invalid', 'the provider did not sign you in');
      const config = await configured();
      // The answer as the provider sent it to the registered redirect URI (a proxy may have changed the URL the hub sees).
      const answer = new URL(flow.redirectUri);
      for (const [name, value] of query) answer.searchParams.append(name, value);
      let claims: { sub: string; email?: unknown; email_verified?: unknown } | undefined;
      try {
        const tokens = await client.authorizationCodeGrant(config, answer, {
          pkceCodeVerifier: flow.verifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        });
        claims = tokens.claims();
        // A provider may keep the email scope's claims for its UserInfo endpoint (the code flow's default): asked there, for the same subject.
        if (claims && typeof claims.email !== 'string') claims = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      } catch (error) {
        if (error instanceof OidcError) throw error;
        // No answer in time (or none at all) is the provider being away; anything else is an answer
        // refused: the code, or an ID token that failed a check. Nothing of its text is shown or kept.
        // (openid-client reports a timeout as a ClientError coded OAUTH_TIMEOUT; a refused connection as fetch's TypeError.)
        const away = error instanceof TypeError || (error instanceof client.ClientError && error.code === 'OAUTH_TIMEOUT');
        throw new OidcError(away ? 'unavailable' : 'invalid', `the provider’s answer was refused (${(error as Error).name})`);
      }
      if (!claims) throw new OidcError('invalid', 'the provider sent no ID token');
      const email = typeof claims.email === 'string' ? claims.email : '';
      if (!email) throw new OidcError('no_email', 'the provider named no email address: it must share the `email` scope');
      if (claims.email_verified !== true) throw new OidcError('email_not_verified', 'the provider has not verified this email address');
      if (!MATCHABLE_EMAIL.test(email))
        throw new OidcError('invalid', 'the provider’s email address is not one the hub matches (printable ASCII, at most 254 characters)');
      return { email, subject: claims.sub, returnTo: flow.returnTo, replaces: flow.replaces };
    },
  };
}
