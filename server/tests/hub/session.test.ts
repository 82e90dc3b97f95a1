import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, ENGINES, startTestHub, type TestHub } from './hub-harness';

describe.each(ENGINES)('hub sessions on %s', (engine) => {
  let t: TestHub;
  beforeAll(async () => {
    // A small per-address limit, so the spray test needs few requests; the account lock keeps its default.
    t = await startTestHub(engine, { throttle: { windowMs: 15 * 60_000, perAccount: 5, accountLockMs: 30_000, maxLockMs: 15 * 60_000, perAddress: 12 } });
  });
  afterAll(() => t?.close());

  it('signs in with an HttpOnly, SameSite=Strict, expiring cookie; /me names the member; signing out ends it', async () => {
    const answer = await t.call('POST', '/hub/v1/session', { body: { email: t.accounts.reviewer1.email, password: t.accounts.reviewer1.password } });
    expect(answer.status).toBe(200);
    expect(answer.body.member).toMatchObject({ email: t.accounts.reviewer1.email, role: 'reviewer' });
    const setCookie = answer.headers.getSetCookie().find((c) => c.startsWith('ddh_session='))!;
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Strict/);
    expect(setCookie).toMatch(/; Path=\//);
    expect(setCookie).toMatch(/; Max-Age=43200/);
    expect(setCookie).toMatch(/; Secure/);
    const cookie = cookieOf(answer.headers)!;
    const me = await t.call('GET', '/hub/v1/me', { cookie });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ member: { email: t.accounts.reviewer1.email, role: 'reviewer' }, via: 'session' });
    expect(me.body.member).not.toHaveProperty('password_hash');

    const out = await t.call('DELETE', '/hub/v1/session', { cookie });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().join()).toMatch(/ddh_session=;.*Max-Age=0/);
    expect((await t.call('GET', '/hub/v1/me', { cookie })).status).toBe(401);
  });

  it('refuses a request whose page works as another member than the session now signed in (X-Hub-Member): 401 MEMBER_CHANGED, even a decision', async () => {
    const one = await t.signIn(t.accounts.reviewer1);
    const me = (await t.call('GET', '/hub/v1/me', { cookie: one })).body.member as { id: string };
    const as = (member: string) => ({ cookie: one, headers: { 'X-Hub-Member': member } });
    expect((await t.call('GET', '/hub/v1/me', as(me.id))).status).toBe(200);
    for (const [method, path] of [
      ['GET', '/hub/v1/me'],
      ['POST', '/v1/data/items/x_1/adopt'],
    ] as const) {
      const refused = await t.call(method, path, as('someone-else'));
      expect(refused.status, path).toBe(401);
      expect(refused.body, path).toMatchObject({ errorCode: 'MEMBER_CHANGED' });
    }
    // Without the header (a script, an older page): the session alone, as before.
    expect((await t.call('GET', '/hub/v1/me', { cookie: one })).status).toBe(200);
  });

  it('refuses a wrong password and an unknown email with the same answer', async () => {
    const wrong = await t.call('POST', '/hub/v1/session', { body: { email: t.accounts.viewer.email, password: 'not the password' } });
    const unknown = await t.call('POST', '/hub/v1/session', { body: { email: 'nobody@demo.hub', password: 'not the password' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body).toEqual({ success: false, errorCode: 'INVALID_CREDENTIALS', errorMessage: 'wrong email or password' });
    expect(cookieOf(wrong.headers)).toBeUndefined();
  });

  it('ends every session of the member on sign-out with all=true (query or body)', async () => {
    for (const how of ['query', 'body'] as const) {
      const first = await t.signIn(t.accounts.reviewer2);
      const second = await t.signIn(t.accounts.reviewer2);
      const other = await t.signIn(t.accounts.viewer);
      const out =
        how === 'query'
          ? await t.call('DELETE', '/hub/v1/session?all=true', { cookie: first })
          : await t.call('DELETE', '/hub/v1/session', { cookie: first, body: { all: true } });
      expect(out.status).toBe(200);
      expect(out.body.ended).toBeGreaterThanOrEqual(2);
      expect((await t.call('GET', '/hub/v1/me', { cookie: second })).status).toBe(401);
      // Only that member's sessions.
      expect((await t.call('GET', '/hub/v1/me', { cookie: other })).status).toBe(200);
    }
  });

  it('never keeps a session the browser came with (fixation): a fresh token, and the old one is dead', async () => {
    // An attacker plants a cookie value, here even a real session of their own.
    const planted = await t.signIn(t.accounts.reviewer2);
    const answer = await t.call('POST', '/hub/v1/session', {
      cookie: planted,
      body: { email: t.accounts.reviewer1.email, password: t.accounts.reviewer1.password },
    });
    expect(answer.status).toBe(200);
    const fresh = cookieOf(answer.headers)!;
    expect(fresh).not.toBe(planted);
    expect((await t.call('GET', '/hub/v1/me', { cookie: planted })).status).toBe(401);
    expect((await t.call('GET', '/hub/v1/me', { cookie: fresh })).body.member.email).toBe(t.accounts.reviewer1.email);
    // A made-up value is no session, and signing in over it does not make it one.
    const madeUp = 'ddh_session=attacker-chosen-value';
    const over = await t.call('POST', '/hub/v1/session', {
      cookie: madeUp,
      body: { email: t.accounts.reviewer1.email, password: t.accounts.reviewer1.password },
    });
    expect(cookieOf(over.headers)).not.toBe(madeUp);
    expect((await t.call('GET', '/hub/v1/me', { cookie: madeUp })).status).toBe(401);
  });

  it('slows brute force per account: after 5 failures even the right password gets 429 with Retry-After', async () => {
    const target = t.accounts.admin;
    for (let i = 0; i < 5; i++) {
      expect((await t.call('POST', '/hub/v1/session', { body: { email: target.email, password: `guess number ${i}` } })).status).toBe(401);
    }
    const locked = await t.call('POST', '/hub/v1/session', { body: { email: target.email.toUpperCase(), password: target.password } });
    expect(locked.status).toBe(429);
    expect(locked.body.errorCode).toBe('TOO_MANY_ATTEMPTS');
    expect(Number(locked.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(cookieOf(locked.headers)).toBeUndefined();
  });

  it('slows a password spray per address: many accounts from one address lock that address', async () => {
    let status = 0;
    // 12 is this hub's per-address limit; earlier tests' failures count too.
    for (let i = 0; i < 12 && status !== 429; i++) {
      status = (await t.call('POST', '/hub/v1/session', { body: { email: `spray${i}@demo.hub`, password: 'Winter2026!' } })).status;
    }
    const after = await t.call('POST', '/hub/v1/session', { body: { email: t.accounts.viewer.email, password: t.accounts.viewer.password } });
    expect(after.status).toBe(429);
    expect(Number(after.headers.get('Retry-After'))).toBeGreaterThan(0);
  });

  it('never writes a password or a session token to its log or to an answer', async () => {
    const logged = t.logs.join('\n');
    expect(logged).toContain('POST /hub/v1/session');
    for (const account of Object.values(t.accounts)) expect(logged).not.toContain(account.password);
    expect(logged).not.toMatch(/ddh_session/);
  });
});
