import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestHub, type TestHub } from './hub-harness';

describe.each(ENGINES)('hub members and Origin checks on %s', (engine) => {
  let t: TestHub;
  let admin = '';
  beforeAll(async () => {
    t = await startTestHub(engine);
    admin = await t.signIn(t.accounts.admin);
  });
  afterAll(() => t?.close());

  const add = (email: string, role = 'reviewer', password = 'a-long-password-1') =>
    t.call('POST', '/hub/v1/members', { cookie: admin, body: { email, role, password } });

  it('lists, adds (once per email), and shows no password hash', async () => {
    const added = await add('New.Member@Demo.Hub');
    expect(added.status).toBe(201);
    expect(added.body.member).toMatchObject({ email: 'new.member@demo.hub', role: 'reviewer' });
    expect((await add('new.member@demo.hub')).body.errorCode).toBe('MEMBER_EXISTS');
    const list = await t.call('GET', '/hub/v1/members', { cookie: admin });
    expect(list.body.members.map((m: { email: string }) => m.email)).toContain('new.member@demo.hub');
    expect(list.text).not.toMatch(/argon2|password/);
    // The new member can sign in with the password the admin chose.
    await t.signIn({ email: 'new.member@demo.hub', password: 'a-long-password-1' });
  });

  it('refuses bad input with a clear 400', async () => {
    const cases = [
      { email: 'not-an-email', role: 'reviewer', password: 'a-long-password-1' },
      { email: 'x@demo.hub', role: 'owner', password: 'a-long-password-1' },
      { email: 'x@demo.hub', role: 'reviewer', password: 'short' },
      { email: 'x@demo.hub', role: 'reviewer', password: 'a-long-password-1', extra: 1 },
    ];
    for (const body of cases) {
      const answer = await t.call('POST', '/hub/v1/members', { cookie: admin, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.errorCode).toBe('INVALID_BODY');
    }
    expect((await t.call('POST', '/hub/v1/members', { cookie: admin, body: '{not json' })).body.errorCode).toBe('INVALID_BODY');
  });

  it('a removed member’s next request is refused: session and token', async () => {
    const { body } = await add('leaving@demo.hub');
    const cookie = await t.signIn({ email: 'leaving@demo.hub', password: 'a-long-password-1' });
    const token = (await t.call('POST', '/hub/v1/tokens', { cookie, body: { name: 'script', scope: 'decide', subscriptions: ['*'], expires_in_days: 7 } })).body
      .token;
    expect((await t.call('GET', '/hub/v1/me', { token })).status).toBe(200);
    expect((await t.call('DELETE', `/hub/v1/members/${body.member.id}`, { cookie: admin })).status).toBe(200);
    expect((await t.call('GET', '/hub/v1/me', { cookie })).status).toBe(401);
    expect((await t.call('GET', '/hub/v1/me', { token })).body.errorCode).toBe('TOKEN_REVOKED');
    expect((await t.call('POST', '/hub/v1/session', { body: { email: 'leaving@demo.hub', password: 'a-long-password-1' } })).status).toBe(401);
    expect((await t.call('DELETE', `/hub/v1/members/${body.member.id}`, { cookie: admin })).status).toBe(404);
  });

  it('a demoted admin loses admin rights on the next request', async () => {
    const { body } = await add('second.admin@demo.hub', 'admin');
    const cookie = await t.signIn({ email: 'second.admin@demo.hub', password: 'a-long-password-1' });
    expect((await t.call('GET', '/hub/v1/members', { cookie })).status).toBe(200);
    const demoted = await t.call('PATCH', `/hub/v1/members/${body.member.id}`, { cookie: admin, body: { role: 'viewer' } });
    expect(demoted.body.member.role).toBe('viewer');
    expect((await t.call('GET', '/hub/v1/members', { cookie })).status).toBe(403);
    expect((await t.call('GET', '/hub/v1/me', { cookie })).body.member.role).toBe('viewer');
  });

  it('keeps one admin: the last cannot be demoted or removed', async () => {
    const me = (await t.call('GET', '/hub/v1/me', { cookie: admin })).body.member.id;
    expect((await t.call('PATCH', `/hub/v1/members/${me}`, { cookie: admin, body: { role: 'reviewer' } })).body.errorCode).toBe('LAST_ADMIN');
    expect((await t.call('DELETE', `/hub/v1/members/${me}`, { cookie: admin })).body.errorCode).toBe('LAST_ADMIN');
  });

  it('refuses a state change from a foreign or missing Origin (CSRF), and allows same-origin fetches without one', async () => {
    const body = { email: 'csrf@demo.hub', role: 'admin', password: 'a-long-password-1' };
    const foreign = await t.call('POST', '/hub/v1/members', { cookie: admin, body, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.errorCode).toBe('CROSS_ORIGIN_REFUSED');
    const missing = await t.call('POST', '/hub/v1/members', { cookie: admin, body, origin: null });
    expect(missing.status).toBe(403);
    const crossSite = await t.call('POST', '/hub/v1/members', { cookie: admin, body, origin: null, headers: { 'Sec-Fetch-Site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    // Nothing was made by the refused requests.
    const list = await t.call('GET', '/hub/v1/members', { cookie: admin, origin: 'https://evil.example' });
    expect(list.body.members.map((m: { email: string }) => m.email)).not.toContain('csrf@demo.hub');
    // A foreign page cannot sign a browser in, nor out.
    expect(
      (
        await t.call('POST', '/hub/v1/session', {
          body: { email: t.accounts.viewer.email, password: t.accounts.viewer.password },
          origin: 'https://evil.example',
        })
      ).status,
    ).toBe(403);
    expect((await t.call('DELETE', '/hub/v1/session', { cookie: admin, origin: 'https://evil.example' })).status).toBe(403);
    expect((await t.call('GET', '/hub/v1/me', { cookie: admin })).status).toBe(200);
    // The loopback names of the hub's own address count as its origin, and a same-origin fetch without Origin passes.
    const port = new URL(t.url).port;
    expect((await t.call('POST', '/hub/v1/members', { cookie: admin, body, origin: `http://localhost:${port}` })).status).toBe(201);
    expect(
      (
        await t.call(
          'PATCH',
          `/hub/v1/members/${(await t.call('GET', '/hub/v1/members', { cookie: admin })).body.members.find((m: { email: string }) => m.email === 'csrf@demo.hub').id}`,
          { cookie: admin, body: { role: 'viewer' }, origin: null, headers: { 'Sec-Fetch-Site': 'same-origin' } },
        )
      ).status,
    ).toBe(200);
  });
});
