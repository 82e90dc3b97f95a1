import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestHub, type TestHub } from './hub-harness';

/** The team's subscriptions: what the console's connection is made of in hub mode. */
describe.each(ENGINES)('hub team subscriptions on %s', (engine) => {
  let t: TestHub;
  let admin = '';
  let reviewer = '';
  beforeAll(async () => {
    t = await startTestHub(engine);
    admin = await t.signIn(t.accounts.admin);
    reviewer = await t.signIn(t.accounts.reviewer1);
  });
  afterAll(() => t?.close());

  const LIST = [
    { id: 'sub_live_1', kind: 'live', label: 'Road scenes' },
    { id: 'sub_sim_1', kind: 'simulated' },
  ];

  it('are none on a hub without --demo, set whole by an admin in order, read by every member, and audited', async () => {
    expect((await t.call('GET', '/hub/v1/subscriptions', { cookie: reviewer })).body).toEqual({ subscriptions: [] });
    const put = await t.call('PUT', '/hub/v1/subscriptions', { cookie: admin, body: { subscriptions: LIST } });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ subscriptions: LIST });
    expect(put.headers.get('cache-control')).toBe('no-store');
    const read = await t.call('GET', '/hub/v1/subscriptions', { cookie: reviewer });
    expect(read.body).toEqual({ subscriptions: LIST });
    // The whole list is replaced: one left, reordered labels kept as given.
    const next = [{ id: 'sub_sim_1', kind: 'simulated', label: 'Catalog' }];
    await t.call('PUT', '/hub/v1/subscriptions', { cookie: admin, body: { subscriptions: next } });
    expect((await t.call('GET', '/hub/v1/subscriptions', { cookie: reviewer })).body).toEqual({ subscriptions: next });

    const audit = await t.call('GET', '/hub/v1/audit?action=subscriptions.set', { cookie: admin });
    const rows = audit.body.rows.filter((r: { action: string }) => r.action === 'subscriptions.set');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ actor_id: expect.any(String), outcome: 'ok' });
    expect(rows[1].details).toMatchObject({ from: '["sub_live_1","sub_sim_1"]', to: '["sub_sim_1"]' });
  });

  it('refuses a change from another origin, and bad lists with a clear 400, changing nothing', async () => {
    const before = (await t.call('GET', '/hub/v1/subscriptions', { cookie: admin })).body;
    const foreign = await t.call('PUT', '/hub/v1/subscriptions', { cookie: admin, origin: 'https://evil.example', body: { subscriptions: [] } });
    expect(foreign.status).toBe(403);
    expect(foreign.body.errorCode).toBe('CROSS_ORIGIN_REFUSED');
    const bad = [
      { subscriptions: [{ id: 'a/b', kind: 'live' }] },
      { subscriptions: [{ id: 'x', kind: 'weekly' }] },
      {
        subscriptions: [
          { id: 'x', kind: 'live' },
          { id: 'x', kind: 'simulated' },
        ],
      },
      { subscriptions: [{ id: 'x', kind: 'live', extra: 1 }] },
      { subscriptions: Array.from({ length: 101 }, (_, i) => ({ id: `s${i}`, kind: 'live' })) },
      [],
      'not json',
    ];
    for (const body of bad) {
      const answer = await t.call('PUT', '/hub/v1/subscriptions', { cookie: admin, body });
      expect(answer.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(answer.body.success).toBe(false);
      expect(answer.text).not.toMatch(/at .*\.ts:\d+/);
    }
    expect((await t.call('GET', '/hub/v1/subscriptions', { cookie: admin })).body).toEqual(before);
  });
});

describe('hub --demo team subscriptions', () => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startTestHub('sqlite', { simulator: true });
  });
  afterAll(() => t?.close());

  it('are the demo simulator’s subscriptions, seeded once', async () => {
    const reviewer = await t.signIn(t.accounts.reviewer1);
    const { subscriptions } = (await t.call('GET', '/hub/v1/subscriptions', { cookie: reviewer })).body as { subscriptions: { id: string; kind: string }[] };
    expect(subscriptions.length).toBeGreaterThanOrEqual(2);
    expect(new Set(subscriptions.map((s) => s.kind))).toEqual(new Set(['live', 'simulated']));
    // A pull through the hub works on each: they are the simulator's own.
    for (const s of subscriptions.slice(0, 2)) {
      const path = s.kind === 'live' ? `/v1/live/pull?subscription_id=${s.id}&limit=1&from=beginning` : `/v1/data/pull?subscription_id=${s.id}&limit=1`;
      expect((await t.call('GET', path, { cookie: reviewer })).status).toBe(200);
    }
  });
});
