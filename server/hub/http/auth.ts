import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { API_KEY_PATTERN } from '../../../src/api/contract';
import type { Role } from '../db/schema';
import { HubError } from '../errors';
import { ACCESS_TOKEN_PATTERN } from '../secrets';
import { lookupToken } from '../store/access-tokens';
import { sessionMember, SESSION_TTL_MS } from '../store/sessions';
import type { HubContext, HubEnv, Principal } from './context';

export const SESSION_COOKIE = 'ddh_session';

/** The cookie every sign-in sets (a password, or single sign-on): HttpOnly, SameSite=Strict, for the session's lifetime. */
export const setSessionCookie = (c: Context, token: string, secure: boolean) =>
  setCookie(c, SESSION_COOKIE, token, { httpOnly: true, sameSite: 'Strict', path: '/', secure, maxAge: SESSION_TTL_MS / 1000 });

/** Three base64url segments: the shape of the vendor's JWTs. */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

const VENDOR_REFUSAL = 'vendor keys and JWTs are not accepted here: the hub holds the vendor key; sign in, or use a personal access token (ddh_pat_…)';

/**
 * Finds who is asking, for every hub request. A vendor credential is refused outright: clients
 * never need one, and one sent here is a leak to stop, not a login. A cookie that names no live
 * session is simply no session (signed out). Nothing of a credential is ever echoed.
 */
export const identify = (ctx: HubContext) =>
  createMiddleware<HubEnv>(async (c, next) => {
    const authorization = c.req.header('Authorization');
    const bearer = authorization?.match(/^Bearer[ ]+(\S+)$/i)?.[1];
    if (c.req.header('X-API-Key') !== undefined || (bearer !== undefined && (API_KEY_PATTERN.test(bearer) || JWT_SHAPE.test(bearer)))) {
      throw new HubError('VENDOR_KEY_NOT_ACCEPTED', VENDOR_REFUSAL);
    }
    let principal: Principal | null = null;
    const cookie = getCookie(c, SESSION_COOKIE);
    if (cookie !== undefined) {
      const found = await (c.get('forwardReads')?.session ?? sessionMember(ctx.db, cookie));
      if (found) principal = { member: found.member, via: 'session', sessionId: found.sessionId };
      // The console names the member its page works as: a page opened as one member (or started from
      // memory offline) whose browser now holds another's session (a sign-in in another tab) must not
      // send the first member's decisions as the second's.
      const expected = c.req.header('X-Hub-Member');
      if (found && expected !== undefined && expected !== found.member.id) {
        throw new HubError('MEMBER_CHANGED', 'this page works as another member than the one signed in now in this browser: reload it');
      }
    }
    // The cookie wins when both are sent, so such a request is still held to the Origin check.
    c.set('bearer', principal === null && authorization !== undefined);
    if (principal === null && authorization !== undefined) {
      if (bearer === undefined || !ACCESS_TOKEN_PATTERN.test(bearer)) {
        throw new HubError('INVALID_TOKEN', 'Authorization must be `Bearer ddh_pat_…`, a personal access token of this hub');
      }
      const found = await lookupToken(ctx.db, bearer);
      if ('refused' in found) throw new HubError(found.refused, TOKEN_MESSAGES[found.refused]);
      principal = { member: found.member, via: `pat:${found.token.id}`, token: found.token };
    }
    c.set('principal', principal);
    return next();
  });

const TOKEN_MESSAGES = {
  INVALID_TOKEN: 'this access token is not known to the hub',
  TOKEN_EXPIRED: 'this access token has expired: create a new one',
  TOKEN_REVOKED: 'this access token was revoked',
} as const;

export interface Rule {
  /** Roles allowed; every role when absent. */
  roles?: readonly Role[];
  /**
   * Whether a personal access token may call it. Tokens read (scope read or decide) and decide on
   * /v1 (coming); they never manage members, tokens or sessions: that takes a signed-in person.
   */
  token?: boolean;
  /**
   * Reads what spans the team's subscriptions (the audit log, holds, agreement, figures, lots,
   * budgets): a token limited to some subscriptions may not, since the rows of the others are in it.
   */
  everySubscription?: boolean;
}

/** The member a route may act for, or the refusal: 401 when nobody is signed in, 403 otherwise. */
export function allow(c: Context<HubEnv>, rule: Rule): Principal {
  const principal = c.get('principal');
  if (!principal) throw new HubError('NOT_SIGNED_IN', 'sign in first (POST /hub/v1/session), or send a personal access token');
  if (principal.token && !rule.token) throw new HubError('SESSION_REQUIRED', 'an access token cannot do this: sign in');
  if (principal.token && rule.everySubscription && !(JSON.parse(principal.token.subscriptions) as string[]).includes('*')) {
    throw new HubError('FORBIDDEN', 'this access token is limited to some subscriptions, and this reads every subscription’s: use a token for all (*)');
  }
  if (rule.roles && !rule.roles.includes(principal.member.role)) {
    throw new HubError('FORBIDDEN', `this needs the role ${rule.roles.join(' or ')}; you are ${principal.member.role}`);
  }
  return principal;
}
