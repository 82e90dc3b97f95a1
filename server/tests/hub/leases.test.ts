import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type RunningHub } from '../../hub/main';
import { cookieOf, ENGINES, startTestHub, type TestHub } from './hub-harness';
import { recordDecision, seedInbox } from './inbox-fixture';
import { MEMBER_HOLD_CAP } from '../../hub/store/leases';

/*
 * The team queue: concurrent takes (and, on PostgreSQL, takes through two hub processes on one
 * database) get disjoint batches; the items view's filters narrow the queue and its counts; a
 * lease idle past the subscription's time returns to the queue; an admin takes a batch back; an
 * adopt of an item leased to someone else is 409 ITEM_LEASED.
 */

describe.each(ENGINES)('hub team queue on %s', (engine) => {
  let t: TestHub;
  let now = Date.now();
  let admin = '';
  let reviewer1 = '';
  let reviewer2 = '';
  let viewer = '';
  beforeAll(async () => {
    // The simulator as vendor: a decision reaches the lease check only on a hub that could send it.
    t = await startTestHub(engine, { clock: () => now, simulator: true });
    admin = await t.signIn(t.accounts.admin);
    reviewer1 = await t.signIn(t.accounts.reviewer1);
    reviewer2 = await t.signIn(t.accounts.reviewer2);
    viewer = await t.signIn(t.accounts.viewer);
    const subscriptions = ['sub_a', 'sub_f', 'sub_x', 'sub_e', 'sub_r', 'sub_cap', 'sub_race', 'sub_held'].map((id) => ({ id, kind: 'simulated' }));
    expect((await t.call('PUT', '/hub/v1/subscriptions', { cookie: admin, body: { subscriptions } })).status).toBe(200);
  });
  afterAll(() => t?.close());

  const take = (cookie: string, subscription_id: string, size?: number, filters?: object) =>
    t.call('POST', '/hub/v1/queue/take', { cookie, body: { subscription_id, size, filters } });
  const ids = (answer: { body: { batch: { items: { item_id: string }[] } } }) => answer.body.batch.items.map((i) => i.item_id);
  const counts = async (query: string) => (await t.call('GET', `/hub/v1/queue/counts?${query}`, { cookie: viewer })).body;
  const audit = async (action: string) => (await t.call('GET', `/hub/v1/audit?action=${action}&limit=500`, { cookie: admin })).body.rows as any[];

  it('gives concurrent takes disjoint batches until the queue is empty, and counts who holds what', async () => {
    const items = Array.from({ length: 60 }, (_, i) => ({ item_id: `a_${String(i).padStart(3, '0')}` }));
    await seedInbox(t.hub.store.db, 'sub_a', items);
    const cookies = [reviewer1, reviewer2, admin, reviewer1, reviewer2, admin];
    const answers = await Promise.all(cookies.map((c) => take(c, 'sub_a', 10)));
    for (const a of answers) expect(a.status, a.text).toBe(200);
    const all = answers.flatMap(ids);
    expect(all).toHaveLength(60);
    expect(new Set(all).size).toBe(60);
    expect(ids(await take(reviewer1, 'sub_a', 10))).toEqual([]);
    const c = await counts('subscription_id=sub_a');
    expect(c).toMatchObject({ total: 60, undecided: 60, leased: 60, available: 0, idle_seconds: 600 });
    expect(c.holders.map((h: { items: number }) => h.items)).toEqual([20, 20, 20]);
    expect((await audit('lease.take')).filter((r) => r.subscription_id === 'sub_a')).toHaveLength(6);
  });

  it('caps what one member holds of a subscription (MEMBER_HOLD_CAP): a take past it gets what is left under it, a full hand is 409 LEASE_CAP_REACHED', async () => {
    const db = t.hub.store.db;
    await seedInbox(
      db,
      'sub_cap',
      Array.from({ length: 300 }, (_, i) => ({ item_id: `cap_${String(i).padStart(3, '0')}` })),
    );
    const first = await take(reviewer1, 'sub_cap', 150);
    expect(ids(first)).toHaveLength(150);
    expect(first.body.batch.hold).toEqual({ held: 150, limit: MEMBER_HOLD_CAP });
    // Two takes of 200 no longer lease the subscription: the second gets what is left under the cap.
    const second = await take(reviewer1, 'sub_cap', 200);
    expect(ids(second)).toHaveLength(50);
    expect(second.body.batch.hold).toEqual({ held: 200, limit: 200 });
    const full = await take(reviewer1, 'sub_cap', 1);
    expect(full.status).toBe(409);
    expect(full.body).toMatchObject({
      success: false,
      errorCode: 'LEASE_CAP_REACHED',
      errorMessage: expect.stringMatching(/you hold 200 undecided items of subscription sub_cap, the most one member may hold at once \(200\)/),
    });
    // The cap is each member's: another reviewer takes the rest.
    expect(ids(await take(reviewer2, 'sub_cap', 200))).toHaveLength(100);
    // Releasing or deciding makes room again, as much as was let go.
    const released = ids(first).slice(0, 10);
    await t.call('POST', '/hub/v1/queue/release', {
      cookie: reviewer1,
      body: { batch_id: first.body.batch.id, items: released.map((item_id) => ({ family: 'data', item_id })) },
    });
    const me = (await t.call('GET', '/hub/v1/me', { cookie: reviewer1 })).body.member.id as string;
    for (const id of ids(second).slice(0, 5))
      await recordDecision(db, { itemId: id, subscriptionId: 'sub_cap', kind: 'dispute', memberId: me, state: 'sending', now });
    await seedInbox(
      db,
      'sub_cap',
      Array.from({ length: 20 }, (_, i) => ({ item_id: `cap_more_${i}` })),
    );
    const again = await take(reviewer1, 'sub_cap', 200);
    expect(ids(again)).toEqual([...released, ...Array.from({ length: 5 }, (_, i) => `cap_more_${i}`)]);
    expect(again.body.batch.hold).toEqual({ held: 200, limit: 200 });
    expect((await counts('subscription_id=sub_cap')).holders.find((h: { member: { id: string } }) => h.member.id === me).items).toBe(200);
    // The audit row of a take the cap cut short says so.
    const rows = (await audit('lease.take')).filter((r) => r.subscription_id === 'sub_cap' && r.actor_id === me);
    expect(rows.map((r) => r.details.capped ?? null)).toEqual([null, 200, 200]);
  });

  it('holds the cap under concurrent takes of one member: never more than MEMBER_HOLD_CAP at once', async () => {
    await seedInbox(
      t.hub.store.db,
      'sub_race',
      Array.from({ length: 600 }, (_, i) => ({ item_id: `race_${String(i).padStart(3, '0')}` })),
    );
    const answers = await Promise.all(Array.from({ length: 5 }, () => take(reviewer2, 'sub_race', 120)));
    const taken = answers.filter((a) => a.status === 200).flatMap(ids);
    expect(taken).toHaveLength(MEMBER_HOLD_CAP);
    expect(new Set(taken).size).toBe(MEMBER_HOLD_CAP);
    for (const a of answers.filter((a) => a.status !== 200)) expect(a.body.errorCode, a.text).toBe('LEASE_CAP_REACHED');
    expect((await counts('subscription_id=sub_race')).leased).toBe(MEMBER_HOLD_CAP);
  });

  it('honours the items view’s filters in the batch and in the counts', async () => {
    await seedInbox(t.hub.store.db, 'sub_f', [
      { item_id: 'f_low_t1', family: 'live', payload: { quality_score: 0.4, task_id: 't1', source: 'web' } },
      { item_id: 'f_high_t1', family: 'live', payload: { quality_score: 0.9, task_id: 't1', source: 'web' } },
      { item_id: 'f_low_t2', family: 'live', payload: { quality_score: 0.5, task_id: 't2', source: 'app' } },
      { item_id: 'f_none', family: 'live', payload: { task_id: 't1' } },
      { item_id: 'f_text', family: 'live', payload: { quality_score: '0.1', task_id: 't1' } },
      { item_id: 'f_cheap', payload: { quality_score: 0.3, vertical_id: 'v1' }, price_micros: 500_000 },
    ]);
    expect(await counts('subscription_id=sub_f&quality_max=0.6')).toMatchObject({ total: 3, undecided: 3, leased: 0, available: 3 });
    expect(await counts('subscription_id=sub_f&quality_max=0.6&task=t1,t3')).toMatchObject({ total: 1 });
    expect(await counts('subscription_id=sub_f&price_max=0.5&vertical=v1')).toMatchObject({ total: 1 });
    const batch = await take(reviewer1, 'sub_f', 10, { quality_max: 0.6, task: 't1,t2' });
    expect(ids(batch)).toEqual(['f_low_t1', 'f_low_t2']);
    expect(batch.body.batch.items[0]).toMatchObject({ family: 'live', payload: { quality_score: 0.4, task_id: 't1' } });
    expect(await counts('subscription_id=sub_f&quality_max=0.6')).toMatchObject({ total: 3, leased: 2, available: 1 });
    expect(ids(await take(reviewer2, 'sub_f', 10, { source: 'web' }))).toEqual(['f_high_t1']);
  });

  it('returns an idle lease to the queue after the subscription’s idle time, and the late renewal learns it was lost', async () => {
    await seedInbox(t.hub.store.db, 'sub_e', [{ item_id: 'e_1' }, { item_id: 'e_2' }]);
    expect((await t.call('PUT', '/hub/v1/queue/settings', { cookie: admin, body: { subscription_id: 'sub_e', idle_seconds: 30 } })).status).toBe(200);
    const first = await take(reviewer1, 'sub_e', 2);
    expect(first.body.batch).toMatchObject({ idle_seconds: 30, expires_at: new Date(now + 30_000).toISOString() });
    now += 20_000;
    // A renewal while working moves the expiry on.
    const renewed = await t.call('POST', '/hub/v1/queue/renew', { cookie: reviewer1, body: { batch_id: first.body.batch.id } });
    expect(renewed.body).toMatchObject({ expires_at: new Date(now + 30_000).toISOString(), lost: [] });
    now += 25_000;
    expect(ids(await take(reviewer2, 'sub_e', 2))).toEqual([]);
    now += 10_000;
    const second = await take(reviewer2, 'sub_e', 2);
    expect(ids(second)).toEqual(['e_1', 'e_2']);
    const late = await t.call('POST', '/hub/v1/queue/renew', { cookie: reviewer1, body: { batch_id: first.body.batch.id } });
    expect(late.status).toBe(200);
    expect(late.body).toMatchObject({ expires_at: null, held: [] });
    expect((await audit('lease.expire')).find((r) => r.target === first.body.batch.id)).toMatchObject({ actor_id: null });
  });

  it('lets an admin see who holds what and take a batch back; the holder releases the rest', async () => {
    await seedInbox(t.hub.store.db, 'sub_r', [{ item_id: 'r_1' }, { item_id: 'r_2' }, { item_id: 'r_3' }]);
    const mine = await take(reviewer1, 'sub_r', 2);
    const listed = await t.call('GET', '/hub/v1/leases?subscription_id=sub_r', { cookie: admin });
    expect(listed.body.leases).toEqual([
      expect.objectContaining({
        batch_id: mine.body.batch.id,
        items: 2,
        item_ids: ['r_1', 'r_2'],
        member: expect.objectContaining({ email: t.accounts.reviewer1.email }),
      }),
    ]);
    expect((await t.call('DELETE', `/hub/v1/leases/${mine.body.batch.id}`, { cookie: reviewer2 })).status).toBe(403);
    const back = await t.call('DELETE', `/hub/v1/leases/${mine.body.batch.id}`, { cookie: admin });
    expect(back.body).toEqual({ batch_id: mine.body.batch.id, revoked: 2 });
    expect((await t.call('GET', '/hub/v1/leases?subscription_id=sub_r', { cookie: admin })).body.leases).toEqual([]);
    expect((await audit('lease.revoke')).at(-1)).toMatchObject({ target: mine.body.batch.id });
    const theirs = await take(reviewer2, 'sub_r', 1);
    expect(ids(theirs)).toEqual(['r_1']);
    // Releasing is the holder's: another's batch is not found; their own goes back to the queue.
    expect((await t.call('POST', '/hub/v1/queue/release', { cookie: reviewer1, body: { batch_id: theirs.body.batch.id } })).status).toBe(404);
    expect((await t.call('POST', '/hub/v1/queue/release', { cookie: reviewer2, body: { batch_id: theirs.body.batch.id } })).body.released).toBe(1);
    expect(ids(await take(reviewer1, 'sub_r', 5))).toEqual(['r_1', 'r_2', 'r_3']);
  });

  it('refuses what is not the caller’s to do, and a decision on an item leased to another (409 ITEM_LEASED)', async () => {
    expect((await take(viewer, 'sub_x')).body.errorCode).toBe('FORBIDDEN');
    expect((await take(reviewer1, 'sub_unknown')).body.errorCode).toBe('NOT_FOUND');
    const cross = await t.call('POST', '/hub/v1/queue/take', { cookie: reviewer1, origin: 'https://evil.example', body: { subscription_id: 'sub_x' } });
    expect(cross.body.errorCode).toBe('CROSS_ORIGIN_REFUSED');
    await seedInbox(t.hub.store.db, 'sub_x', [{ item_id: 'x_1' }]);
    expect(ids(await take(reviewer1, 'sub_x', 1))).toEqual(['x_1']);
    // The lease check comes before the vendor is asked.
    const refused = await t.call('POST', '/v1/data/items/x_1/adopt', { cookie: reviewer2 });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      errorCode: 'ITEM_LEASED',
      errorMessage: expect.stringContaining(t.accounts.reviewer1.email),
      recorded: `leased to ${t.accounts.reviewer1.email} now`,
    });
  });

  it('tells a member which undecided items others hold (what a bulk decision would meet 409 on): not their own, not decided; a viewer is refused', async () => {
    await seedInbox(
      t.hub.store.db,
      'sub_held',
      ['held_1', 'held_2', 'held_3', 'held_4'].map((item_id) => ({ item_id })),
    );
    expect(ids(await take(reviewer1, 'sub_held', 2))).toEqual(['held_1', 'held_2']);
    expect(ids(await take(reviewer2, 'sub_held', 1))).toEqual(['held_3']);
    const held = (cookie: string) => t.call('GET', '/hub/v1/queue/held?subscription_id=sub_held', { cookie });
    const seenBy2 = await held(reviewer2);
    expect(seenBy2.status, seenBy2.text).toBe(200);
    expect(seenBy2.body.items).toEqual([
      { family: 'data', item_id: 'held_1', member: { email: t.accounts.reviewer1.email } },
      { family: 'data', item_id: 'held_2', member: { email: t.accounts.reviewer1.email } },
    ]);
    expect((await held(reviewer1)).body.items.map((i: { item_id: string }) => i.item_id)).toEqual(['held_3']);
    // A decided item is no longer anyone's to decide: not listed.
    const me = (await t.call('GET', '/hub/v1/me', { cookie: reviewer1 })).body.member.id as string;
    await recordDecision(t.hub.store.db, { itemId: 'held_1', subscriptionId: 'sub_held', kind: 'adopt', memberId: me, state: 'sending', now });
    expect((await held(reviewer2)).body.items.map((i: { item_id: string }) => i.item_id)).toEqual(['held_2']);
    expect((await held(viewer)).body.errorCode).toBe('FORBIDDEN');
    expect((await t.call('GET', '/hub/v1/queue/held?subscription_id=sub_unknown', { cookie: reviewer2 })).body.errorCode).toBe('NOT_FOUND');
  });

  it('keeps each item’s queue state with its decisions and leases (migration 0013’s triggers): a dropped or refused decision returns it', async () => {
    const db = t.hub.store.db;
    const subscriptions = ['sub_a', 'sub_f', 'sub_x', 'sub_e', 'sub_r', 'sub_cap', 'sub_race', 'sub_q'].map((id) => ({ id, kind: 'simulated' }));
    expect((await t.call('PUT', '/hub/v1/subscriptions', { cookie: admin, body: { subscriptions } })).status).toBe(200);
    const state = async (id: string) =>
      db
        .selectFrom('inbox_items')
        .select(['decided', 'leased_until'])
        .where('item_id', '=', id)
        .executeTakeFirstOrThrow()
        .then((r) => [Number(r.decided), Number(r.leased_until)]);
    const me = (await t.call('GET', '/hub/v1/me', { cookie: reviewer2 })).body.member.id as string;
    const decide = (id: string) => recordDecision(db, { itemId: id, subscriptionId: 'sub_q', kind: 'adopt', memberId: me, state: 'held', now });
    // Decided before it reached the inbox: it arrives decided.
    const early = await decide('q_0');
    await seedInbox(db, 'sub_q', [{ item_id: 'q_0' }, { item_id: 'q_1' }, { item_id: 'q_2' }]);
    expect(await state('q_0')).toEqual([1, 0]);
    const batch = await take(reviewer2, 'sub_q', 2);
    expect(ids(batch)).toEqual(['q_1', 'q_2']);
    expect((await state('q_1'))[1]).toBeGreaterThan(now);
    const dropped = await decide('q_1');
    expect((await state('q_1'))[0]).toBe(1);
    // A hold dropped, a decision the vendor refused: the item is undecided again.
    await db.updateTable('decisions').set({ state: 'dropped' }).where('id', '=', dropped.id).execute();
    await db.updateTable('decisions').set({ state: 'refused' }).where('id', '=', early.id).execute();
    expect(await state('q_0')).toEqual([0, 0]);
    expect((await state('q_1'))[0]).toBe(0);
    // Released: back in the queue, with q_0.
    expect((await t.call('POST', '/hub/v1/queue/release', { cookie: reviewer2, body: { batch_id: batch.body.batch.id } })).status).toBe(200);
    expect(await state('q_1')).toEqual([0, 0]);
    expect(ids(await take(reviewer1, 'sub_q', 5)).sort()).toEqual(['q_0', 'q_1', 'q_2']);
  });

  it('lists a batch’s undecided items only: a batch whose items are all decided is gone from /leases at once, back if a decision is refused', async () => {
    const db = t.hub.store.db;
    const subscriptions = ['sub_a', 'sub_f', 'sub_x', 'sub_e', 'sub_r', 'sub_cap', 'sub_race', 'sub_q', 'sub_d'].map((id) => ({ id, kind: 'simulated' }));
    expect((await t.call('PUT', '/hub/v1/subscriptions', { cookie: admin, body: { subscriptions } })).status).toBe(200);
    await seedInbox(db, 'sub_d', [{ item_id: 'd_1' }, { item_id: 'd_2' }, { item_id: 'd_3' }]);
    const batch = await take(reviewer1, 'sub_d', 2);
    expect(ids(batch)).toEqual(['d_1', 'd_2']);
    const me = (await t.call('GET', '/hub/v1/me', { cookie: reviewer1 })).body.member.id as string;
    const decide = (id: string) => recordDecision(db, { itemId: id, subscriptionId: 'sub_d', kind: 'dispute', memberId: me, state: 'sending', now });
    const listed = async () =>
      (await t.call('GET', '/hub/v1/leases?subscription_id=sub_d', { cookie: admin })).body.leases as { item_ids: string[]; items: number }[];

    await decide('d_1');
    expect(await listed()).toEqual([expect.objectContaining({ batch_id: batch.body.batch.id, items: 1, item_ids: ['d_2'] })]);
    const last = await decide('d_2');
    expect(await listed()).toEqual([]);
    expect(await counts('subscription_id=sub_d')).toMatchObject({ total: 3, undecided: 1, leased: 0, available: 1, holders: [] });
    // The vendor refused the last one: the item is undecided again, and still the holder's.
    await db.updateTable('decisions').set({ state: 'refused' }).where('id', '=', last.id).execute();
    expect(await listed()).toEqual([expect.objectContaining({ batch_id: batch.body.batch.id, items: 1, item_ids: ['d_2'] })]);
  });

  if (engine === 'postgres')
    it('gives disjoint batches through two hub processes on one PostgreSQL', async () => {
      const second: RunningHub = await startHub({
        port: 0,
        host: '127.0.0.1',
        dataDir: t.dataDir,
        databaseUrl: t.databaseUrl,
        clock: () => now,
        log: () => {},
      });
      try {
        const items = Array.from({ length: 200 }, (_, i) => ({ item_id: `p_${String(i).padStart(3, '0')}` }));
        await t.call('PUT', '/hub/v1/subscriptions', { cookie: admin, body: { subscriptions: [{ id: 'sub_p', kind: 'simulated' }] } });
        await seedInbox(t.hub.store.db, 'sub_p', items);
        const signIn = async (url: string, account: { email: string; password: string }) =>
          cookieOf(
            (
              await fetch(`${url}/hub/v1/session`, {
                method: 'POST',
                headers: { 'Content-Type': 'application/json', Origin: url },
                body: JSON.stringify({ email: account.email, password: account.password }),
              })
            ).headers,
          )!;
        const callers = [
          { url: t.url, cookie: reviewer1 },
          { url: second.url, cookie: await signIn(second.url, t.accounts.reviewer2) },
          { url: second.url, cookie: await signIn(second.url, t.accounts.admin) },
          { url: t.url, cookie: reviewer2 },
        ];
        const takeAt = async ({ url, cookie }: (typeof callers)[number]) => {
          const response = await fetch(`${url}/hub/v1/queue/take`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Origin: url, Cookie: cookie },
            body: JSON.stringify({ subscription_id: 'sub_p', size: 7 }),
          });
          expect(response.status).toBe(200);
          return ((await response.json()) as { batch: { items: { item_id: string }[] } }).batch.items.map((i) => i.item_id);
        };
        const taken: string[] = [];
        // Rounds of concurrent takes through both hubs until the queue is empty.
        for (;;) {
          const round = (await Promise.all([...callers, ...callers].map(takeAt))).flat();
          if (round.length === 0) break;
          taken.push(...round);
        }
        expect(taken).toHaveLength(200);
        expect(new Set(taken).size).toBe(200);
      } finally {
        await second.close();
      }
    });
});
