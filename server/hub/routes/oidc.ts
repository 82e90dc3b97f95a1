import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { oidcStartQuery, type SignInMethods } from '../../../src/api/contract/hub-sign-in';
import { validQuery } from '../../http/validate';
import { HubError } from '../errors';
import { setSessionCookie } from '../http/auth';
import type { HubContext, HubEnv } from '../http/context';
import { OIDC_FLOW_COOKIE, OIDC_FLOW_TTL_MS, OidcError, type Oidc } from '../oidc';
import { appendAudit } from '../store/audit';
import { findActiveByEmail, normalEmail } from '../store/members';
import { createSession, endSession } from '../store/sessions';
import { accountKey, addressKey, lockedFor, recordFailure } from '../store/throttle';
import { clientAddress } from './session';

/** Only the callback reads the flow's cookie. */
const FLOW_PATH = '/hub/v1/oidc';

/**
 * Single sign-on (server/hub/oidc.ts): which methods the sign-in page offers, the start (a redirect
 * to the provider), and the provider's callback (a session for the member the provider vouched for,
 * then the console). Both are top-level navigations of the browser, so they answer with redirects:
 * a failure lands on the sign-in page with a code it explains, never with the provider's text.
 */
export function oidcRouter(ctx: HubContext) {
  const router = new Hono<HubEnv>();
  const configured = (): Oidc => {
    if (!ctx.oidc) throw new HubError('NOT_FOUND', 'single sign-on is not set up on this hub: sign in with your email and password');
    return ctx.oidc;
  };

  router.get('/sign-in-methods', (c) =>
    c.json({ password: true, sso: ctx.oidc ? { label: ctx.oidc.label, start: '/hub/v1/oidc/start' } : null } satisfies SignInMethods),
  );

  router.get('/oidc/start', validQuery(oidcStartQuery), async (c) => {
    const oidc = configured();
    const returnTo = c.req.valid('query').redirect ?? '/review';
    try {
      // The session this browser has now (a same-site navigation: the Strict cookie came) ends when the sign-in completes.
      const replaces = c.get('principal')?.sessionId ?? null;
      const { url, sealed } = await oidc.begin(oidc.redirectUriFor(new URL(c.req.url).origin), returnTo, replaces);
      // Lax: the provider sends the browser back with a top-level GET from its own site, which a Strict cookie would not follow.
      setCookie(c, OIDC_FLOW_COOKIE, sealed, { httpOnly: true, sameSite: 'Lax', path: FLOW_PATH, secure: ctx.secureCookies, maxAge: OIDC_FLOW_TTL_MS / 1000 });
      return c.redirect(url, 302);
    } catch (error) {
      return failed(c, error);
    }
  });

  router.get('/oidc/callback', async (c) => {
    const oidc = configured();
    const sealed = getCookie(c, OIDC_FLOW_COOKIE);
    // One use: whatever the answer, the flow is over.
    deleteCookie(c, OIDC_FLOW_COOKIE, { path: FLOW_PATH, secure: ctx.secureCookies });
    // An address that kept signing in as nobody (the password form's failures count too) waits, as at the form.
    const address = addressKey(clientAddress(c));
    if ((await lockedFor(ctx.db, [address])) > 0) return failed(c, new OidcError('throttled', 'too many sign-ins from this address matched no member'));
    let identity: Awaited<ReturnType<Oidc['finish']>>;
    try {
      identity = await oidc.finish(new URL(c.req.url).searchParams, sealed);
    } catch (error) {
      return failed(c, error);
    }
    const email = normalEmail(identity.email);
    const member = await findActiveByEmail(ctx.db, email);
    // As a password sign-in: the session the browser had is never kept (fixation), and the outcome is audited.
    const replaced = new Set([identity.replaces, c.get('principal')?.sessionId].filter((id): id is string => !!id));
    const session = await ctx.db.transaction().execute(async (trx) => {
      for (const id of replaced) await endSession(trx, id);
      if (!member) await recordFailure(trx, ctx.throttle, { account: accountKey(email), address });
      await appendAudit(trx, {
        actorId: member?.id ?? null,
        via: 'oidc',
        action: 'session.sign_in',
        target: email,
        outcome: member ? 'ok' : 'no_member',
        details: { provider: oidc.label },
      });
      return member ? createSession(trx, member.id) : null;
    });
    if (!session) return failed(c, new OidcError('no_member', 'no active member has this email address'));
    setSessionCookie(c, session.token, ctx.secureCookies);
    return c.redirect(identity.returnTo, 303);
  });

  /** Back to the sign-in page, saying why (a code from a fixed list); anything unexpected stays a failure of the hub. */
  const failed = (c: Context<HubEnv>, error: unknown) => {
    if (!(error instanceof OidcError)) throw error;
    ctx.log?.(`hub: single sign-on refused (${error.failure}): ${error.message}`);
    return c.redirect(`/sign-in?sso=${error.failure}`, 303);
  };

  return router;
}
