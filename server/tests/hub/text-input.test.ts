import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAudit } from '../../hub/store/audit';
import { ENGINES, startTestHub, type TestHub } from './hub-harness';

/*
 * What no field of the hub can hold is refused before anything reads it, with a 400 envelope, on
 * both engines: a NUL in a path, a query or a body (PostgreSQL answered 500; SQLite kept it and the
 * audit chain could never verify again), and a path whose %-encoding is malformed (a 500 from an
 * unguarded decode). Found by an adversarial pass; the audit chain verifies after all of them.
 */

describe.each(ENGINES)('text the hub cannot hold, on %s', (engine) => {
  let t: TestHub;
  let reviewer: string;
  let admin: string;
  beforeAll(async () => {
    t = await startTestHub(engine, { simulator: true });
    admin = await t.signIn(t.accounts.admin);
    reviewer = await t.signIn(t.accounts.reviewer1);
  });
  afterAll(() => t?.close());

  it('a NUL anywhere is a 400 envelope, signed in or not, and the audit chain still verifies', async () => {
    const refused = [
      await t.call('POST', '/hub/v1/session', { body: { email: 'nobody\u0000@x.y', password: 'whatever-123456' } }),
      await t.call('POST', '/v1/data/items/%00/adopt', { cookie: reviewer }),
      await t.call('POST', '/v1/live/items/500002/dispute', { cookie: reviewer, body: { subscription_id: 'sub_live_streets', reason: 'bad\u0000x' } }),
      await t.call('POST', '/v1/live/items/500002/dispute', { cookie: reviewer, body: `{"subscription_id":"sub_live_streets","reason":"raw\u0000nul"}` }),
      await t.call('POST', '/hub/v1/tokens', { cookie: admin, body: { name: 'a\u0000b', scope: 'read', expires_in_days: 7 } }),
      await t.call('DELETE', '/hub/v1/tokens/%00', { cookie: admin }),
      await t.call('GET', '/hub/v1/lots/%00', { cookie: reviewer }),
      await t.call('GET', '/hub/v1/inbox?subscription_id=sub_sim_retail%00', { cookie: reviewer }),
    ];
    for (const answer of refused) {
      expect(answer.status, answer.text).toBe(400);
      expect(['INVALID_PARAMETER', 'INVALID_BODY']).toContain((answer.body as { errorCode: string }).errorCode);
      expect(answer.text).not.toMatch(/at .*\.ts:\d+/);
    }
    expect(await verifyAudit(t.hub.store.db)).toMatchObject({ ok: true });
  });

  it('a backslash followed by "u0000" is text like any other: only a NUL is refused', async () => {
    const answer = await t.call('POST', '/v1/live/items/500002/dispute', {
      cookie: reviewer,
      body: `{"subscription_id":"sub_live_streets","reason":"path C:\\\\u0000 kept"}`,
    });
    expect(answer.status, answer.text).toBe(200);
    const row = await t.hub.store.db.selectFrom('decisions').select('reason').where('item_id', '=', '500002').executeTakeFirstOrThrow();
    expect(row.reason).toBe('path C:\\u0000 kept');
    expect(await verifyAudit(t.hub.store.db)).toMatchObject({ ok: true });
  });

  it('malformed %-encoding in a path is a 400, before the sign-in and the Origin are looked at', async () => {
    for (const id of ['%FF', '%uD800', '%', '%E0%A4%A', '%C0%AF']) {
      for (const as of [{ cookie: reviewer }, { origin: null }]) {
        const answer = await t.call('POST', `/v1/data/items/${id}/adopt`, as);
        expect(answer.status, `${id}: ${answer.text}`).toBe(400);
        expect((answer.body as { errorCode: string }).errorCode).toBe('INVALID_PARAMETER');
      }
    }
  });
});
