import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestHub, type TestHub } from './hub-harness';
import { recordDecision, seedInbox, type InboxFixtureItem } from './inbox-fixture';

/*
 * GET /queue/counts against the rows themselves (issue 26 item 9): the counts are read from
 * `inbox_counts`, kept ahead by triggers (migration 0014), and from the rows of the quality range's
 * edge buckets and of the live leases. Here every answer is compared with the same counts worked
 * out in the test from the inbox's payloads, the decisions and the leases, under filters whose
 * bounds fall on, beside and between the buckets, after each write that moves a count: items
 * arriving (some decided before they arrive), takes, a lease running out with no write, the sweep,
 * a release, decisions, a decision dropped or refused (undone), a take-back, and another writer's
 * SQL rewriting and deleting rows.
 */

const SUBSCRIPTION = 'sub_counts';

const FILTERS = [
  '',
  'quality_max=0.6',
  'quality_min=0.6',
  'quality_min=0.25&quality_max=0.6',
  'quality_min=0.255&quality_max=0.605',
  'quality_min=0.6&quality_max=0.6',
  'quality_min=0.7&quality_max=0.3',
  'quality_min=-1&quality_max=2',
  'quality_max=0',
  'quality_min=1',
  'task=t1',
  'task=t1,t3&quality_max=0.6',
  'source=app',
  'grade=A,B&vertical=v1',
  'topic=k2&quality_min=0.5',
  'price_max=0.5',
  'price_min=0.2&task=t2',
];

/** Items of every shape the filters meet: qualities on and off bucket edges, out of range, absent or text; fields absent. */
function items(prefix: string, n: number): InboxFixtureItem[] {
  const qualities = [0.6, 0.25, 0.255, 0.605, 0.3, 0.005, 0, 1, -0.5, 1.5, 0.599999, 0.6000001, undefined, '0.1', 0.999, 0.01];
  return Array.from({ length: n }, (_, i) => {
    const payload: Record<string, unknown> = { id: `${prefix}${i}` };
    const quality = qualities[i % qualities.length];
    if (quality !== undefined) payload.quality_score = quality;
    if (i % 5 !== 4) payload.task_id = `t${(i % 3) + 1}`;
    if (i % 2 === 0) payload.source = i % 4 === 0 ? 'web' : 'app';
    if (i % 3 !== 2) payload.quality_grade = ['A', 'B', 'C'][i % 3];
    if (i % 7 !== 6) payload.vertical_id = `v${i % 2}`;
    if (i % 4 !== 3) payload.topic_id = `k${i % 3}`;
    return { item_id: `${prefix}${i}`, payload, price_micros: i % 6 === 5 ? null : (i % 10) * 100_000 };
  });
}

interface Row {
  family: string;
  item_id: string;
  payload: string;
  price_micros: number | null;
}

/** Whether an item passes the filters, by the items view's rules, read from its payload. */
function passes(row: Row, query: URLSearchParams): boolean {
  const p = JSON.parse(row.payload) as Record<string, unknown>;
  const quality = typeof p.quality_score === 'number' ? p.quality_score : null;
  const bound = (key: string) => (query.has(key) ? Number(query.get(key)) : undefined);
  const qMin = bound('quality_min');
  const qMax = bound('quality_max');
  if (qMin !== undefined && (quality === null || quality < qMin)) return false;
  if (qMax !== undefined && (quality === null || quality > qMax)) return false;
  const price = row.price_micros === null ? null : Number(row.price_micros);
  const pMin = bound('price_min');
  const pMax = bound('price_max');
  if (pMin !== undefined && (price === null || price < Math.round(pMin * 1e6))) return false;
  if (pMax !== undefined && (price === null || price > Math.round(pMax * 1e6))) return false;
  const lists = { task: 'task_id', source: 'source', grade: 'quality_grade', vertical: 'vertical_id', topic: 'topic_id' };
  for (const [key, field] of Object.entries(lists)) {
    const wanted = query.get(key)?.split(',');
    if (wanted && !wanted.includes(p[field] as string)) return false;
  }
  return true;
}

describe.each(ENGINES)('queue counts on %s', (engine) => {
  let t: TestHub;
  let now = Date.now();
  let admin = '';
  let reviewer1 = '';
  let reviewer2 = '';
  let viewer = '';
  const members = new Map<string, string>();
  beforeAll(async () => {
    t = await startTestHub(engine, { clock: () => now });
    admin = await t.signIn(t.accounts.admin);
    reviewer1 = await t.signIn(t.accounts.reviewer1);
    reviewer2 = await t.signIn(t.accounts.reviewer2);
    viewer = await t.signIn(t.accounts.viewer);
    for (const cookie of [admin, reviewer1, reviewer2]) {
      const me = (await t.call('GET', '/hub/v1/me', { cookie })).body.member;
      members.set(me.id, me.email);
    }
    expect((await t.call('PUT', '/hub/v1/subscriptions', { cookie: admin, body: { subscriptions: [{ id: SUBSCRIPTION, kind: 'simulated' }] } })).status).toBe(
      200,
    );
    expect((await t.call('PUT', '/hub/v1/queue/settings', { cookie: admin, body: { subscription_id: SUBSCRIPTION, idle_seconds: 60 } })).status).toBe(200);
  });
  afterAll(() => t?.close());

  /** The counts under a filter, worked out from the inbox's rows, the decisions and the leases. */
  async function expected(filter: string) {
    const db = t.hub.store.db;
    const rows = await db
      .selectFrom('inbox_items')
      .select(['family', 'item_id', 'payload', 'price_micros'])
      .where('subscription_id', '=', SUBSCRIPTION)
      .execute();
    const decided = new Set(
      (await db.selectFrom('decisions').select(['family', 'item_id']).where('state', 'not in', ['refused', 'dropped']).execute()).map(
        (d) => `${d.family}/${d.item_id}`,
      ),
    );
    const held = new Map(
      (await db.selectFrom('leases').select(['family', 'item_id', 'member_id']).where('state', '=', 'active').where('expires_at', '>', now).execute()).map(
        (l) => [`${l.family}/${l.item_id}`, l.member_id],
      ),
    );
    const query = new URLSearchParams(filter);
    const matching = rows.filter((r) => passes(r, query));
    const undecided = matching.filter((r) => !decided.has(`${r.family}/${r.item_id}`));
    const leased = undecided.filter((r) => held.has(`${r.family}/${r.item_id}`));
    const perHolder = new Map<string, number>();
    for (const r of leased) {
      const id = held.get(`${r.family}/${r.item_id}`)!;
      perHolder.set(id, (perHolder.get(id) ?? 0) + 1);
    }
    return {
      total: matching.length,
      undecided: undecided.length,
      leased: leased.length,
      available: undecided.length - leased.length,
      holders: [...perHolder]
        .map(([id, items]) => ({ member: { id, email: members.get(id) }, items }))
        .sort((a, b) => a.member.email!.localeCompare(b.member.email!)),
    };
  }

  /** Every filter's counts as the hub answers them, beside the same worked out from the rows. */
  async function compare() {
    const answered: Record<string, unknown> = {};
    const worked: Record<string, unknown> = {};
    for (const filter of FILTERS) {
      const answer = await t.call('GET', `/hub/v1/queue/counts?subscription_id=${SUBSCRIPTION}&${filter}`, { cookie: viewer });
      expect(answer.status, answer.text).toBe(200);
      const { total, undecided, leased, available, holders } = answer.body;
      answered[filter] = { total, undecided, leased, available, holders };
      worked[filter] = await expected(filter);
    }
    expect(answered).toEqual(worked);
    return answered as Record<string, { total: number; undecided: number; leased: number }>;
  }

  const take = async (cookie: string, size: number, filters?: object) => {
    const answer = await t.call('POST', '/hub/v1/queue/take', { cookie, body: { subscription_id: SUBSCRIPTION, size, filters } });
    expect(answer.status, answer.text).toBe(200);
    return answer.body.batch as { id: string; items: { family: 'data' | 'live'; item_id: string }[] };
  };
  const decide = (itemId: string) =>
    recordDecision(t.hub.store.db, { itemId, subscriptionId: SUBSCRIPTION, kind: 'adopt', memberId: [...members.keys()][0]!, state: 'held', now });
  const setState = (id: string, state: 'refused' | 'dropped' | 'queued') =>
    t.hub.store.db.updateTable('decisions').set({ state }).where('id', '=', id).execute();

  it('stay exact across arrivals, takes, expiry, release, decisions, their undoing and a take-back', async () => {
    // Decided before it arrives: it arrives decided.
    const early = await decide('c_b3');
    await seedInbox(t.hub.store.db, SUBSCRIPTION, items('c_a', 64));
    await seedInbox(t.hub.store.db, SUBSCRIPTION, items('c_b', 40));
    let counts = await compare();
    expect(counts['']!).toMatchObject({ total: 104, undecided: 103, leased: 0 });

    const first = await take(reviewer1, 12);
    await take(reviewer2, 7, { quality_max: 0.6 });
    counts = await compare();
    expect(counts['']!.leased).toBe(19);

    // A lease runs out with no write at all, then a take sweeps it and leases afresh.
    now += 61_000;
    counts = await compare();
    expect(counts['']!.leased).toBe(0);
    const second = await take(reviewer2, 15, { task: 't1,t2' });
    const third = await take(admin, 5);
    await compare();

    await t.call('POST', '/hub/v1/queue/release', { cookie: reviewer2, body: { batch_id: second.id, items: second.items.slice(0, 4) } });
    await compare();

    // Decisions on leased, free and expired-lease items; then undone (a hold dropped, a refusal).
    const decisions = [];
    for (const item of [...second.items.slice(4, 9), ...third.items.slice(0, 2), first.items[0]!, { item_id: 'c_a40' }])
      decisions.push(await decide(item.item_id));
    counts = await compare();
    expect(counts['']!.undecided).toBe(103 - decisions.length);
    await setState(decisions[0]!.id, 'dropped');
    await setState(decisions[5]!.id, 'refused');
    await setState(early.id, 'refused');
    counts = await compare();
    expect(counts['']!.undecided).toBe(103 - decisions.length + 3);
    // A refused decision queued again (a retry) counts again.
    await setState(decisions[5]!.id, 'queued');
    await compare();

    expect((await t.call('DELETE', `/hub/v1/leases/${third.id}`, { cookie: admin })).status).toBe(200);
    await compare();
    // More items, into the buckets already counted.
    await seedInbox(t.hub.store.db, SUBSCRIPTION, items('c_c', 33));
    counts = await compare();
    expect(counts['']!.total).toBe(137);
    // Another writer with SQL: an item's payload rewritten (other quality, task and grade), an item deleted.
    const db = t.hub.store.db;
    await db
      .updateTable('inbox_items')
      .set({ payload: JSON.stringify({ quality_score: 0.42, task_id: 't3', quality_grade: 'B', vertical_id: 'v1' }) })
      .where('item_id', 'in', ['c_c1', 'c_b5'])
      .execute();
    await db.deleteFrom('inbox_items').where('item_id', 'in', ['c_c2', 'c_a40']).execute();
    counts = await compare();
    expect(counts['']!.total).toBe(135);
  });

  // Last: it breaks the database. The comparison above is what would catch a counter gone wrong.
  it('catches a counter no longer kept (its trigger dropped)', async () => {
    await sql.raw(engine === 'postgres' ? 'drop trigger inbox_counts_update on inbox_items' : 'drop trigger inbox_counts_update').execute(t.hub.store.db);
    await decide('c_a7');
    await expect(compare()).rejects.toThrow(/expected/i);
  });
});
