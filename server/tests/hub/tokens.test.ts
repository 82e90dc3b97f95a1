import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../hub/secrets';
import { ENGINES, startTestHub, type TestHub } from './hub-harness';

describe.each(ENGINES)('hub personal access tokens on %s', (engine) => {
  let t: TestHub;
  let reviewer = '';
  beforeAll(async () => {
    t = await startTestHub(engine);
    reviewer = await t.signIn(t.accounts.reviewer1);
  });
  afterAll(() => t?.close());

  const create = (cookie: string, body: Record<string, unknown>) =>
    t.call('POST', '/hub/v1/tokens', { cookie, body: { name: 'ci', scope: 'read', subscriptions: ['sub_1'], expires_in_days: 30, ...body } });

  /** Every token row as stored. */
  const storedTokens = () => t.hub.store.db.selectFrom('access_tokens').selectAll().execute();

  it('is shown once, stored only as its SHA-256, and authenticates like a session', async () => {
    const made = await create(reviewer, { scope: 'decide', subscriptions: ['sub_1', 'sub_2'] });
    expect(made.status).toBe(201);
    const token: string = made.body.token;
    expect(token).toMatch(/^ddh_pat_[A-Za-z0-9_-]{43}$/);
    expect(made.body.access_token).toMatchObject({ scope: 'decide', subscriptions: ['sub_1', 'sub_2'], last4: token.slice(-4), revoked_at: null });
    expect(Date.parse(made.body.access_token.expires_at) - Date.now()).toBeGreaterThan(29 * 86_400_000);

    const me = await t.call('GET', '/hub/v1/me', { token, origin: null });
    expect(me.body).toMatchObject({
      member: { email: t.accounts.reviewer1.email },
      via: 'token',
      token: { id: made.body.access_token.id, scope: 'decide', subscriptions: ['sub_1', 'sub_2'] },
    });

    // Never again: not in the list, not in /me, not in the audit log, not in the database.
    const list = await t.call('GET', '/hub/v1/tokens', { cookie: reviewer });
    expect(list.body.access_tokens.map((x: { id: string }) => x.id)).toContain(made.body.access_token.id);
    const admin = await t.signIn(t.accounts.admin);
    const audit = await t.call('GET', '/hub/v1/audit?action=token.create', { cookie: admin });
    expect(audit.body.rows.length).toBeGreaterThan(0);
    for (const text of [list.text, me.text, audit.text, JSON.stringify(await storedTokens()), t.logs.join('\n')]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(token.slice('ddh_pat_'.length));
    }
    const row = (await storedTokens()).find((r) => r.id === made.body.access_token.id)!;
    expect(row.token_hash).toBe(sha256Hex(token));
  });

  it('cannot do more than its member: a viewer cannot make a decide token; tokens cannot manage anything', async () => {
    const viewer = await t.signIn(t.accounts.viewer);
    expect((await create(viewer, { scope: 'decide' })).body.errorCode).toBe('FORBIDDEN');
    const token = (await create(viewer, { scope: 'read' })).body.token;
    const attempt = await t.call('POST', '/hub/v1/tokens', {
      token,
      origin: null,
      body: { name: 'more', scope: 'read', subscriptions: ['*'], expires_in_days: 1 },
    });
    expect(attempt.body.errorCode).toBe('SESSION_REQUIRED');
  });

  it('stops working when revoked, and when expired', async () => {
    const made = await create(reviewer, {});
    const token = made.body.token;
    expect((await t.call('GET', '/hub/v1/me', { token })).status).toBe(200);
    expect((await t.call('DELETE', `/hub/v1/tokens/${made.body.access_token.id}`, { cookie: reviewer })).status).toBe(200);
    const revoked = await t.call('GET', '/hub/v1/me', { token });
    expect(revoked.status).toBe(401);
    expect(revoked.body.errorCode).toBe('TOKEN_REVOKED');

    // Expiry: the stored instant moved into the past (a token lives at least a day; nobody waits for that).
    const second = await create(reviewer, {});
    await t.hub.store.db
      .updateTable('access_tokens')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', second.body.access_token.id)
      .execute();
    const expired = await t.call('GET', '/hub/v1/me', { token: second.body.token });
    expect(expired.status).toBe(401);
    expect(expired.body.errorCode).toBe('TOKEN_EXPIRED');
  });

  it('another member’s token is not found to a reviewer, and revocable by an admin', async () => {
    const other = await t.signIn(t.accounts.reviewer2);
    const made = await create(other, {});
    expect((await t.call('DELETE', `/hub/v1/tokens/${made.body.access_token.id}`, { cookie: reviewer })).status).toBe(404);
    const admin = await t.signIn(t.accounts.admin);
    expect((await t.call('DELETE', `/hub/v1/tokens/${made.body.access_token.id}`, { cookie: admin })).status).toBe(200);
    expect((await t.call('GET', '/hub/v1/me', { token: made.body.token })).status).toBe(401);
  });

  it('refuses a vendor key or JWT with a clear 401, echoing none of it', async () => {
    const vendorKey = `acme_live_sk_${'A1b2C3d4'.repeat(4)}`;
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    for (const headers of [{ Authorization: `Bearer ${vendorKey}` }, { Authorization: `Bearer ${jwt}` }, { 'X-API-Key': vendorKey }] as Record<
      string,
      string
    >[]) {
      const answer = await t.call('GET', '/hub/v1/me', { headers });
      expect(answer.status).toBe(401);
      expect(answer.body.errorCode).toBe('VENDOR_KEY_NOT_ACCEPTED');
      expect(answer.text).not.toContain(vendorKey);
      expect(answer.text).not.toContain(jwt);
    }
    // Even beside a valid session.
    expect((await t.call('GET', '/hub/v1/me', { cookie: reviewer, headers: { Authorization: `Bearer ${vendorKey}` } })).body.errorCode).toBe(
      'VENDOR_KEY_NOT_ACCEPTED',
    );
    const unknown = await t.call('GET', '/hub/v1/me', { token: `ddh_pat_${'x'.repeat(43)}` });
    expect(unknown.body.errorCode).toBe('INVALID_TOKEN');
    expect(t.logs.join('\n')).not.toContain(vendorKey);
  });

  it('refuses bad token requests with a clear 400', async () => {
    for (const body of [
      { scope: 'admin' },
      { subscriptions: [] },
      { expires_in_days: 0 },
      { expires_in_days: 366 },
      { name: '' },
      { subscriptions: ['a b'] },
    ]) {
      const answer = await create(reviewer, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.errorCode).toBe('INVALID_BODY');
    }
  });
  it('a token limited to some subscriptions reads only theirs: the team-wide reads are refused, and another subscription’s queue', async () => {
    const admin = await t.signIn(t.accounts.admin);
    const subscriptions = ['sub_1', 'sub_2'].map((id) => ({ id, kind: 'simulated' }));
    expect((await t.call('PUT', '/hub/v1/subscriptions', { cookie: admin, body: { subscriptions } })).status).toBe(200);
    const limited: string = (await create(admin, { name: 'one', scope: 'read', subscriptions: ['sub_1'] })).body.token;
    const every: string = (await create(admin, { name: 'all', scope: 'read', subscriptions: ['*'] })).body.token;
    for (const path of [
      '/audit',
      '/holds',
      '/budgets',
      '/lots',
      '/disagreements',
      '/agreement',
      '/reviewers/figures',
      '/leases',
      '/leases?subscription_id=sub_2',
      '/queue/counts?subscription_id=sub_2',
    ]) {
      const refused = await t.call('GET', `/hub/v1${path}`, { token: limited, origin: null });
      expect(refused.status, `${path}: ${refused.text}`).toBe(403);
      expect(refused.body.errorCode).toBe('FORBIDDEN');
      expect((await t.call('GET', `/hub/v1${path}`, { token: every, origin: null })).status, path).toBe(200);
    }
    expect((await t.call('GET', '/hub/v1/queue/counts?subscription_id=sub_1', { token: limited, origin: null })).status).toBe(200);
    expect((await t.call('GET', '/hub/v1/leases?subscription_id=sub_1', { token: limited, origin: null })).status).toBe(200);
  });
});
