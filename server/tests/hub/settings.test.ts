import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestHub, type CallOptions, type TestHub } from './hub-harness';

/*
 * Team settings (the reason codes; the team's lots are /hub/v1/lots): every member reads them, only an admin signed in writes
 * them (Origin-checked), each save is one audit row naming what changed, and every bad document
 * is a 400 envelope that leaves the stored one as it was.
 */

const GOOD = {
  reason_codes: [
    { code: 'wrong_label', label: 'Wrong label' },
    { code: 'blurry', label: 'Blurry' },
  ],
};

describe.each(ENGINES)('hub team settings on %s', (engine) => {
  let t: TestHub;
  let admin = '';
  beforeAll(async () => {
    t = await startTestHub(engine);
    admin = await t.signIn(t.accounts.admin);
  });
  afterAll(() => t?.close());

  it('is empty before the first save, is replaced by an admin in order, and is read by every role and token', async () => {
    const first = await t.call('GET', '/hub/v1/settings', { cookie: admin });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ reason_codes: [], updated_at: null, updated_by: null });

    const saved = await t.call('PUT', '/hub/v1/settings', { cookie: admin, body: GOOD });
    expect(saved.status, saved.text).toBe(200);
    const adminId = (await t.call('GET', '/hub/v1/me', { cookie: admin })).body.member.id;
    expect(saved.body).toMatchObject({ ...GOOD, updated_by: adminId });

    const reviewer = await t.signIn(t.accounts.reviewer1);
    const viewer = await t.signIn(t.accounts.viewer);
    const token = (await t.call('POST', '/hub/v1/tokens', { cookie: reviewer, body: { name: 'ci', scope: 'read', subscriptions: ['*'], expires_in_days: 1 } }))
      .body.token;
    for (const as of [{ cookie: reviewer }, { cookie: viewer }, { token, origin: null }] as CallOptions[]) {
      const read = await t.call('GET', '/hub/v1/settings', as);
      expect(read.status).toBe(200);
      expect(read.body.reason_codes).toEqual(GOOD.reason_codes);
      expect(read.body).not.toHaveProperty('lots');
    }

    // Reordered, one renamed, one removed, one added: the audit row says which.
    const next = {
      reason_codes: [
        { code: 'blurry', label: 'Blurry image' },
        { code: 'duplicate', label: 'Duplicate' },
      ],
    };
    expect((await t.call('PUT', '/hub/v1/settings', { cookie: admin, body: next })).status).toBe(200);
    expect((await t.call('GET', '/hub/v1/settings', { cookie: viewer })).body.reason_codes).toEqual(next.reason_codes);
    const audit = (await t.call('GET', '/hub/v1/audit?action=settings.update', { cookie: admin })).body.rows;
    expect(audit).toHaveLength(2);
    expect(audit[1]).toMatchObject({ actor_id: adminId, via: 'session', target: 'team', outcome: 'ok' });
    expect(JSON.parse(audit[1].details.reason_codes)).toEqual({ added: ['duplicate'], removed: ['wrong_label'], changed: ['blurry'] });
    expect(audit[1].details).not.toHaveProperty('lots');
  });

  it('lets only an admin with a session write: reviewer, viewer, tokens and nobody are refused, nothing stored', async () => {
    const before = (await t.call('GET', '/hub/v1/settings', { cookie: admin })).body;
    const attempt = { reason_codes: [{ code: 'hijack', label: 'Hijack' }] };
    const adminToken = (await t.call('POST', '/hub/v1/tokens', { cookie: admin, body: { name: 'a', scope: 'read', subscriptions: ['*'], expires_in_days: 1 } }))
      .body.token;
    const matrix: [string, CallOptions, number, string][] = [
      ['reviewer', { cookie: await t.signIn(t.accounts.reviewer1) }, 403, 'FORBIDDEN'],
      ['viewer', { cookie: await t.signIn(t.accounts.viewer) }, 403, 'FORBIDDEN'],
      ['anonymous', {}, 401, 'NOT_SIGNED_IN'],
      ['admin token', { token: adminToken, origin: null }, 403, 'SESSION_REQUIRED'],
      ['admin from another origin', { cookie: admin, origin: 'https://evil.example' }, 403, 'CROSS_ORIGIN_REFUSED'],
      ['admin without an Origin', { cookie: admin, origin: null }, 403, 'CROSS_ORIGIN_REFUSED'],
    ];
    for (const [who, as, status, code] of matrix) {
      const answer = await t.call('PUT', '/hub/v1/settings', { ...as, body: attempt });
      expect([who, answer.status, answer.body.errorCode]).toEqual([who, status, code]);
    }
    expect((await t.call('GET', '/hub/v1/settings', {})).status).toBe(401);
    expect((await t.call('GET', '/hub/v1/settings', { cookie: admin })).body).toEqual(before);
  });

  it('answers every bad document with a 400 envelope naming the field, and keeps the stored one', async () => {
    const before = (await t.call('GET', '/hub/v1/settings', { cookie: admin })).body;
    const code = (c: string, label = 'L') => ({ code: c, label });
    const bad: [unknown, RegExp][] = [
      ['[]', /JSON object/],
      [{}, /reason_codes/],
      [{ reason_codes: [], extra: 1 }, /extra|unrecognized/i],
      // The stand-in list of lots is gone: the team's lots are /hub/v1/lots.
      [{ reason_codes: [], lots: [] }, /lots|unrecognized/i],
      [{ reason_codes: [code('Wrong Label')] }, /reason_codes\[0\]\.code/],
      [{ reason_codes: [code('other')] }, /reserved/],
      [{ reason_codes: [code('a'.repeat(33))] }, /reason_codes\[0\]\.code/],
      [{ reason_codes: [code('ok', '   ')] }, /reason_codes\[0\]\.label/],
      [{ reason_codes: [code('ok', 'x'.repeat(61))] }, /reason_codes\[0\]\.label/],
      [{ reason_codes: [code('dup'), code('dup')] }, /listed twice/],
      [{ reason_codes: Array.from({ length: 31 }, (_, i) => code(`c${i}`)) }, /reason_codes/],
      [{ reason_codes: [{ code: 'ok' }] }, /label/],
      ['{"reason_codes": [', /JSON/],
    ];
    for (const [body, message] of bad) {
      const answer = await t.call('PUT', '/hub/v1/settings', { cookie: admin, body });
      const label = `${JSON.stringify(body).slice(0, 80)} → ${answer.status} ${answer.text.slice(0, 200)}`;
      expect(answer.status, label).toBe(400);
      expect(answer.body, label).toMatchObject({ success: false, errorCode: 'INVALID_BODY' });
      expect(answer.body.errorMessage, label).toMatch(message);
    }
    expect((await t.call('GET', '/hub/v1/settings', { cookie: admin })).body).toEqual(before);
  });
});
