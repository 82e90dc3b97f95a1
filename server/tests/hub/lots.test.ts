import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestHub, type CallOptions, type TestHub } from './hub-harness';

/*
 * The team's sampling lots: a reviewer draws one, every member (and a token) reads it as it was
 * drawn, an update names the revision it was made from (a stale one is 409 LOT_CHANGED and changes
 * nothing, so of two concurrent updates none is lost), only the sample may grow and the action on
 * the rest change, and every create and update is an audit row naming who.
 */

const ITEMS = Array.from({ length: 40 }, (_, i) => `item_${String(i).padStart(3, '0')}`);

const value = (sampleIds = ITEMS.slice(0, 5)) => ({
  version: 1,
  kind: 'simulated',
  source: { kind: 'filter', filters: { state: 'undecided' }, description: 'Undecided items of Catalog' },
  itemIds: ITEMS,
  plan: {
    kind: 'zero-acceptance',
    lotSize: ITEMS.length,
    confidencePct: 95,
    defectRateBp: 500,
    sampleSize: 5,
    assumedDefects: 0,
    binomialSize: 5,
    formula: 'n = ln(1 − C) / ln(1 − p)',
  },
  sampleIds,
  extensions: [],
  action: null,
});

const action = (decision: 'adopt' | 'dispute', recorded: number) => ({
  decision,
  at: 1_764_000_000_000,
  recorded,
  totalMicros: decision === 'adopt' ? recorded * 1_000 : null,
  outcome: { reviewed: 5, defects: 0, lower: 0, upper: 0.43, recommendation: 'accept', decision: 'accepted' },
});

let n = 0;
const newId = () => `lot_${(++n).toString(16).padStart(16, '0')}`;

describe.each(ENGINES)('hub lots on %s', (engine) => {
  let t: TestHub;
  let admin = '';
  let reviewer1 = '';
  let reviewer2 = '';
  let viewer = '';
  let ids: Record<'reviewer1' | 'reviewer2', string>;
  beforeAll(async () => {
    t = await startTestHub(engine);
    admin = await t.signIn(t.accounts.admin);
    reviewer1 = await t.signIn(t.accounts.reviewer1);
    reviewer2 = await t.signIn(t.accounts.reviewer2);
    viewer = await t.signIn(t.accounts.viewer);
    const put = await t.call('PUT', '/hub/v1/subscriptions', {
      cookie: admin,
      body: {
        subscriptions: [
          { id: 'sub_sim', kind: 'simulated' },
          { id: 'sub_live', kind: 'live' },
        ],
      },
    });
    expect(put.status).toBe(200);
    ids = {
      reviewer1: (await t.call('GET', '/hub/v1/me', { cookie: reviewer1 })).body.member.id,
      reviewer2: (await t.call('GET', '/hub/v1/me', { cookie: reviewer2 })).body.member.id,
    };
  });
  afterAll(() => t?.close());

  const create = (cookie: string, id = newId(), body: object = { id, subscription_id: 'sub_sim', value: value() }) =>
    t.call('POST', '/hub/v1/lots', { cookie, body });

  it('keeps a drawn lot whole, shows it to every member and token newest first, and audits who drew it', async () => {
    const first = await create(reviewer1);
    expect(first.status, first.text).toBe(201);
    expect(first.body.lot).toMatchObject({
      subscription_id: 'sub_sim',
      revision: 1,
      created_by: { id: ids.reviewer1, email: t.accounts.reviewer1.email },
      updated_by: { id: ids.reviewer1 },
      value: value(),
    });
    const second = await create(reviewer2);
    expect(second.status).toBe(201);

    const token = (await t.call('POST', '/hub/v1/tokens', { cookie: viewer, body: { name: 'read', scope: 'read', subscriptions: ['*'], expires_in_days: 1 } }))
      .body.token;
    for (const as of [{ cookie: admin }, { cookie: reviewer2 }, { cookie: viewer }, { token, origin: null }] as CallOptions[]) {
      const list = await t.call('GET', '/hub/v1/lots', as);
      expect(list.status).toBe(200);
      expect(list.body.lots.map((l: { id: string }) => l.id).slice(0, 2)).toEqual([second.body.lot.id, first.body.lot.id]);
      const one = await t.call('GET', `/hub/v1/lots/${first.body.lot.id}`, as);
      expect(one.body).toEqual(first.body);
    }

    const audit = (await t.call('GET', '/hub/v1/audit?action=lot.create', { cookie: admin })).body.rows;
    expect(audit.map((r: { actor_id: string; target: string }) => [r.actor_id, r.target])).toEqual([
      [ids.reviewer1, first.body.lot.id],
      [ids.reviewer2, second.body.lot.id],
    ]);
    expect(audit[0]).toMatchObject({ via: 'session', subscription_id: 'sub_sim', outcome: 'ok', details: { items: 40, sample: 5 } });

    // The same ID again (a retried create) is refused, the first kept.
    const again = await create(reviewer2, first.body.lot.id);
    expect([again.status, again.body.errorCode]).toEqual([409, 'LOT_EXISTS']);
    expect((await t.call('GET', `/hub/v1/lots/${first.body.lot.id}`, { cookie: admin })).body).toEqual(first.body);
    expect((await t.call('GET', '/hub/v1/lots/lot_nobody', { cookie: admin })).status).toBe(404);
  });

  it('takes an update only from the revision it was made from: a stale one is 409 and the winner is kept', async () => {
    const made = (await create(reviewer1)).body.lot;
    const url = `/hub/v1/lots/${made.id}`;
    // Both reviewers read revision 1: reviewer 1 extends the sample, reviewer 2 records the action on the rest.
    const extended = { ...value(), sampleIds: ITEMS.slice(0, 8), extensions: [{ at: 1, added: 3 }] };
    const acted = { ...value(), action: action('adopt', 35) };
    const [a, b] = await Promise.all([
      t.call('PUT', url, { cookie: reviewer1, body: { revision: 1, value: extended } }),
      t.call('PUT', url, { cookie: reviewer2, body: { revision: 1, value: acted } }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses, `${a.text} / ${b.text}`).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expect(loser.body).toMatchObject({ success: false, errorCode: 'LOT_CHANGED', errorMessage: expect.stringMatching(/read it again/) });

    // The loser re-reads and re-applies its change on top of the winner's: both are kept.
    const current = (await t.call('GET', url, { cookie: reviewer2 })).body.lot;
    expect(current.revision).toBe(2);
    const merged = { ...current.value, ...(a.status === 409 ? { sampleIds: extended.sampleIds, extensions: extended.extensions } : { action: acted.action }) };
    const retry = await t.call('PUT', url, { cookie: a.status === 409 ? reviewer1 : reviewer2, body: { revision: 2, value: merged } });
    expect(retry.status, retry.text).toBe(200);
    expect(retry.body.lot).toMatchObject({ revision: 3, value: { sampleIds: extended.sampleIds, action: acted.action } });

    // Twenty writers from one revision: exactly one wins.
    const many = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.call('PUT', url, { cookie: i % 2 ? reviewer1 : reviewer2, body: { revision: 3, value: { ...merged, action: action('dispute', i) } } }),
      ),
    );
    expect(many.filter((r) => r.status === 200)).toHaveLength(1);
    expect(many.filter((r) => r.status === 409 && r.body.errorCode === 'LOT_CHANGED')).toHaveLength(19);
    expect((await t.call('GET', url, { cookie: viewer })).body.lot.revision).toBe(4);

    const updates = (await t.call('GET', '/hub/v1/audit?action=lot.update', { cookie: admin })).body.rows.filter(
      (r: { target: string }) => r.target === made.id,
    );
    expect(updates).toHaveLength(3);
    expect(new Set(updates.slice(0, 2).map((r: { actor_id: string }) => r.actor_id))).toEqual(new Set([ids.reviewer1, ids.reviewer2]));
    expect(updates.map((r: { details: { revision: number } }) => r.details.revision)).toEqual([2, 3, 4]);
  });

  it('lets only a reviewer or admin, signed in and from the hub’s origin, draw or update; viewers, tokens and strangers change nothing', async () => {
    const made = (await create(reviewer1)).body.lot;
    const reviewerToken = (
      await t.call('POST', '/hub/v1/tokens', { cookie: reviewer1, body: { name: 'decide', scope: 'decide', subscriptions: ['*'], expires_in_days: 1 } })
    ).body.token;
    const refusals: [string, CallOptions, number, string][] = [
      ['viewer', { cookie: viewer }, 403, 'FORBIDDEN'],
      ['anonymous', {}, 401, 'NOT_SIGNED_IN'],
      ['reviewer token', { token: reviewerToken, origin: null }, 403, 'SESSION_REQUIRED'],
      ['reviewer from another origin', { cookie: reviewer1, origin: 'https://evil.example' }, 403, 'CROSS_ORIGIN_REFUSED'],
      ['reviewer without an Origin', { cookie: reviewer1, origin: null }, 403, 'CROSS_ORIGIN_REFUSED'],
    ];
    for (const [who, as, status, code] of refusals) {
      const post = await t.call('POST', '/hub/v1/lots', { ...as, body: { id: newId(), subscription_id: 'sub_sim', value: value() } });
      expect([who, post.status, post.body.errorCode]).toEqual([who, status, code]);
      const put = await t.call('PUT', `/hub/v1/lots/${made.id}`, { ...as, body: { revision: 1, value: { ...value(), action: action('adopt', 1) } } });
      expect([who, put.status, put.body.errorCode]).toEqual([who, status, code]);
    }
    expect((await t.call('GET', '/hub/v1/lots', {})).status).toBe(401);
    expect((await t.call('GET', `/hub/v1/lots/${made.id}`, { cookie: admin })).body.lot).toEqual(made);
    const byAdmin = await create(admin);
    expect(byAdmin.status).toBe(201);
  });

  it('answers every bad lot or update with a 400 naming the field, and keeps what was stored', async () => {
    const made = (await create(reviewer1)).body.lot;
    const url = `/hub/v1/lots/${made.id}`;
    const badCreates: [unknown, RegExp][] = [
      ['[]', /JSON object/],
      [{ id: newId(), subscription_id: 'sub_sim' }, /value/],
      [{ id: '../x', subscription_id: 'sub_sim', value: value() }, /id/],
      [{ id: newId(), subscription_id: 'sub_nope', value: value() }, /not one of the team/],
      [{ id: newId(), subscription_id: 'sub_live', value: value() }, /value\.kind/],
      [{ id: newId(), subscription_id: 'sub_sim', value: { ...value(), version: 2 } }, /value\.version/],
      [{ id: newId(), subscription_id: 'sub_sim', value: value(['item_000', 'item_000']) }, /listed twice/],
      [{ id: newId(), subscription_id: 'sub_sim', value: value(['not_in_lot']) }, /not in the lot/],
      [{ id: newId(), subscription_id: 'sub_sim', value: { ...value(), itemIds: Array.from({ length: 10_001 }, (_, i) => `i${i}`) } }, /value\.itemIds/],
      [{ id: newId(), subscription_id: 'sub_sim', value: { ...value(), itemIds: ['x'.repeat(201)] } }, /value\.itemIds\[0\]/],
      [{ id: newId(), subscription_id: 'sub_sim', value: value(), extra: 1 }, /extra|unrecognized/i],
    ];
    for (const [body, message] of badCreates) {
      const answer = await t.call('POST', '/hub/v1/lots', { cookie: reviewer1, body });
      const label = `${JSON.stringify(body).slice(0, 80)} → ${answer.status} ${answer.text.slice(0, 200)}`;
      expect(answer.status, label).toBe(400);
      expect(answer.body, label).toMatchObject({ success: false, errorCode: 'INVALID_BODY', errorMessage: expect.stringMatching(message) });
    }
    // The lots' larger body limit is theirs alone: another route still refuses 100 KB.
    const elsewhere = await t.call('PUT', '/hub/v1/subscriptions', { cookie: admin, body: 'x'.repeat(100_000) });
    expect([elsewhere.status, elsewhere.body.errorCode]).toEqual([413, 'BODY_TOO_LARGE']);

    const badUpdates: [unknown, RegExp][] = [
      [{ value: value() }, /revision/],
      [{ revision: 0, value: value() }, /revision/],
      [{ revision: 1, value: { ...value(), itemIds: [...ITEMS, 'item_extra'] } }, /value\.itemIds cannot change/],
      [{ revision: 1, value: { ...value(), plan: { ...value().plan, sampleSize: 2 } } }, /value\.plan cannot change/],
      [{ revision: 1, value: { ...value(), kind: 'live' } }, /value\.kind cannot change/],
      [{ revision: 1, value: value(ITEMS.slice(1, 6)) }, /sampleIds may only grow/],
      [{ revision: 1, value: value(ITEMS.slice(0, 3)) }, /sampleIds may only grow/],
    ];
    for (const [body, message] of badUpdates) {
      const answer = await t.call('PUT', url, { cookie: reviewer1, body });
      const label = `${JSON.stringify(body).slice(0, 80)} → ${answer.status} ${answer.text.slice(0, 200)}`;
      expect(answer.status, label).toBe(400);
      expect(answer.body.errorMessage, label).toMatch(message);
    }
    expect((await t.call('PUT', '/hub/v1/lots/lot_nobody', { cookie: reviewer1, body: { revision: 1, value: value() } })).status).toBe(404);
    expect((await t.call('GET', url, { cookie: admin })).body.lot).toEqual(made);
    expect(
      (await t.call('GET', '/hub/v1/audit?action=lot.update', { cookie: admin })).body.rows.filter((r: { target: string }) => r.target === made.id),
    ).toEqual([]);
  });

  it('takes a lot of 10,000 items (over the usual 64 KiB body limit)', async () => {
    const items = Array.from({ length: 10_000 }, (_, i) => `item_with_a_longer_identifier_${i}`);
    const big = { ...value(), itemIds: items, sampleIds: items.slice(0, 200), plan: { ...value().plan, lotSize: items.length, sampleSize: 200 } };
    const answer = await create(reviewer1, newId(), { id: newId(), subscription_id: 'sub_sim', value: big });
    expect(answer.status, answer.text.slice(0, 200)).toBe(201);
    expect(answer.body.lot.value.itemIds).toHaveLength(10_000);
  });
});
