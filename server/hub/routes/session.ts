import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context } from 'hono';
import { deleteCookie } from 'hono/cookie';
import { validJson, validQuery } from '../../http/validate';
import { HubError } from '../errors';
import { allow, SESSION_COOKIE, setSessionCookie } from '../http/auth';
import type { HubContext, HubEnv } from '../http/context';
import { signInBody, signOutQuery } from '../http/schemas';
import { appendAudit } from '../store/audit';
import { findActiveByEmail, memberView, normalEmail } from '../store/members';
import { createSession, endAllSessions, endSession } from '../store/sessions';
import { accountKey, addressKey, clearAccount, lockedFor, recordFailure } from '../store/throttle';

/** The peer's address (the socket's: X-Forwarded-For is anyone's to write). */
export const clientAddress = (c: Context) => {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
};

/** Sign in, sign out (here or everywhere), and who am I. */
export function sessionRouter(ctx: HubContext) {
  const router = new Hono<HubEnv>();

  router.post('/session', validJson(signInBody), async (c) => {
    const { email: given, password } = c.req.valid('json');
    const email = normalEmail(given);
    const keys = { account: accountKey(email), address: addressKey(clientAddress(c)) };
    const wait = await lockedFor(ctx.db, [keys.account, keys.address]);
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      throw new HubError('TOO_MANY_ATTEMPTS', `too many failed sign-ins: try again in ${seconds} s`, { 'Retry-After': String(seconds) });
    }
    const member = await findActiveByEmail(ctx.db, email);
    const ok = await ctx.passwords.check(member?.password_hash, password);
    // A session the request came with is never kept or adopted (fixation): it ends here, and the
    // cookie gets a token minted now.
    const presented = c.get('principal')?.sessionId;
    const session = await ctx.db.transaction().execute(async (trx) => {
      if (presented) await endSession(trx, presented);
      if (!ok || !member) {
        await recordFailure(trx, ctx.throttle, keys);
        await appendAudit(trx, { actorId: member?.id ?? null, via: 'session', action: 'session.sign_in', target: email, outcome: 'invalid_credentials' });
        return null;
      }
      await clearAccount(trx, keys.account);
      await appendAudit(trx, { actorId: member.id, via: 'session', action: 'session.sign_in', target: email, outcome: 'ok' });
      return createSession(trx, member.id);
    });
    if (!session || !member) throw new HubError('INVALID_CREDENTIALS', 'wrong email or password');
    setSessionCookie(c, session.token, ctx.secureCookies);
    return c.json({ member: memberView(member), expires_at: new Date(session.expiresAt).toISOString() });
  });

  router.delete('/session', validQuery(signOutQuery), async (c) => {
    const principal = allow(c, {});
    // `?all=true` or a JSON body `{ "all": true }`: every session of the member, on every device.
    const text = await c.req.text();
    let all = c.req.valid('query').all === 'true';
    if (text.trim() !== '') {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new HubError('INVALID_BODY', 'request body must be a JSON object');
      }
      if (
        typeof body !== 'object' ||
        body === null ||
        Array.isArray(body) ||
        Object.keys(body).some((k) => k !== 'all') ||
        typeof (body as { all?: unknown }).all !== 'boolean'
      ) {
        throw new HubError('INVALID_BODY', 'the body may only be { "all": true | false }');
      }
      all ||= (body as { all: boolean }).all;
    }
    const ended = await ctx.db.transaction().execute(async (trx) => {
      let count = 1;
      if (all) count = await endAllSessions(trx, principal.member.id);
      else await endSession(trx, principal.sessionId!);
      await appendAudit(trx, {
        actorId: principal.member.id,
        via: principal.via,
        action: all ? 'session.sign_out_all' : 'session.sign_out',
        target: principal.member.email,
        outcome: 'ok',
        details: { sessions: count },
      });
      return count;
    });
    deleteCookie(c, SESSION_COOKIE, { path: '/', secure: ctx.secureCookies });
    return c.json({ ended });
  });

  router.get('/me', (c) => {
    const principal = allow(c, { token: true });
    const token = principal.token && {
      id: principal.token.id,
      scope: principal.token.scope,
      subscriptions: JSON.parse(principal.token.subscriptions) as string[],
      expires_at: new Date(principal.token.expires_at).toISOString(),
    };
    return c.json({ member: memberView(principal.member), via: principal.via === 'session' ? 'session' : 'token', ...(token ? { token } : {}) });
  });

  return router;
}
