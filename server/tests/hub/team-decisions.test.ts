import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHubStore } from '../../hub/db/open';
import { appendAudit } from '../../hub/store/audit';
import { insertDecision } from '../../hub/store/decisions';
import { ENGINES, startTestHub, type CallOptions, type TestHub } from './hub-harness';
import { eventually, pullItems, type PulledItem } from './decisions-kit';

/*
 * The team's decisions as a feed per subscription (GET /hub/v1/inbox/decisions): a snapshot first,
 * then every change after the audit seq cursor, each item as it stands now: decided (who, when,
 * the hub's state), undecided again (a dropped hold), votes under overlap. A change that commits
 * while a read runs is answered by the next read.
 */

interface FeedAnswer {
  decisions: {
    family: string;
    item_id: string;
    decision: { kind: string; state: string; by: { id: string; email: string }; at: string } | null;
    votes: { votes: number; needed: number; state: string } | null;
  }[];
  next: number;
  snapshot_from: string | null;
  has_more: boolean;
}

describe.each(ENGINES)('the team decisions feed on %s', (engine) => {
  let t: TestHub;
  let admin = '';
  let r1 = '';
  let r2 = '';
  let items: PulledItem[] = [];
  const SIM = 'sub_sim_retail';

  const feed = async (query: string, as: CallOptions): Promise<FeedAnswer> => {
    const answer = await t.call('GET', `/hub/v1/inbox/decisions?subscription_id=${SIM}${query}`, as);
    expect(answer.status, answer.text).toBe(200);
    return answer.body as FeedAnswer;
  };
  /** Everything from a snapshot, in pages of `limit`: the items seen (each page's) and the cursor to go on from. */
  const snapshot = async (as: CallOptions, limit: number) => {
    const pages: FeedAnswer[] = [await feed(`&limit=${limit}`, as)];
    while (pages.at(-1)!.has_more) pages.push(await feed(`&limit=${limit}&after=${pages.at(-1)!.next}&snapshot_from=${pages.at(-1)!.snapshot_from}`, as));
    return { pages, rows: pages.flatMap((p) => p.decisions), next: pages.at(-1)!.next };
  };
  const decide = (cookie: string, itemId: string, kind: 'adopt' | 'dispute') => t.call('POST', `/v1/data/items/${itemId}/${kind}`, { cookie });
  /** The hub answers before it records the vendor's answer (decision.send): that row is a change too, so tests wait for it. */
  const recorded = () =>
    eventually(async () => (await t.hub.store.db.selectFrom('decisions').select('state').where('state', '=', 'sending').execute()).length === 0);
  const byId = (rows: FeedAnswer['decisions']) => new Map(rows.map((r) => [r.item_id, r]));

  beforeAll(async () => {
    t = await startTestHub(engine, { simulator: true });
    admin = await t.signIn(t.accounts.admin);
    r1 = await t.signIn(t.accounts.reviewer1);
    r2 = await t.signIn(t.accounts.reviewer2);
    items = await pullItems(t, r1, SIM, 8);
  });
  afterAll(() => t?.close());

  it('a snapshot lists what stands (who, when, the hub’s state), in pages, each item once; then only what changed after its cursor', async () => {
    const [a, b, c] = items as [PulledItem, PulledItem, PulledItem];
    expect((await decide(r1, a.id, 'adopt')).status).toBe(200);
    expect((await decide(r2, b.id, 'dispute')).status).toBe(200);
    await recorded();
    const first = await snapshot({ cookie: r2 }, 1);
    // One item a page, then a last page that says so.
    expect(first.pages.length).toBeGreaterThanOrEqual(2);
    expect(first.rows.map((r) => r.item_id).sort()).toEqual([a.id, b.id].sort());
    const seen = byId(first.rows);
    expect(seen.get(a.id)).toEqual({
      family: 'data',
      item_id: a.id,
      decision: {
        kind: 'adopt',
        state: expect.stringMatching(/^(sending|sent)$/),
        by: { id: expect.any(String), email: t.accounts.reviewer1.email },
        at: expect.any(String),
      },
      votes: null,
    });
    expect(seen.get(b.id)!.decision).toMatchObject({
      kind: 'dispute',
      state: expect.stringMatching(/^(sending|sent)$/),
      by: { email: t.accounts.reviewer2.email },
    });
    // The cursor is the audit head the snapshot began at (the sender may have appended since).
    expect(first.next).toBeGreaterThan(0);
    expect(first.next).toBeLessThanOrEqual(Number((await t.hub.store.db.selectFrom('audit_head').select('seq').executeTakeFirstOrThrow()).seq));

    // Nothing changed: nothing to tell.
    const quiet = await feed(`&after=${first.next}`, { cookie: r1 });
    expect(quiet).toEqual({ decisions: [], next: first.next, snapshot_from: null, has_more: false });
    expect((await decide(r1, c.id, 'adopt')).status).toBe(200);
    const changed = await feed(`&after=${first.next}`, { cookie: r2 });
    expect(changed.decisions.map((r) => r.item_id)).toEqual([c.id]);
    expect(changed.decisions[0]!.decision).toMatchObject({
      kind: 'adopt',
      state: expect.stringMatching(/^(sending|sent)$/),
      by: { email: t.accounts.reviewer1.email },
    });
    expect(changed.next).toBeGreaterThan(first.next);
    // A repeat of the team's decision changes nothing that stands (its audit row says the same again at most).
    expect((await decide(r2, c.id, 'adopt')).status).toBe(200);
    const repeat = await feed(`&after=${changed.next}`, { cookie: r2 });
    expect(repeat.decisions.every((r) => r.item_id === c.id && r.decision?.kind === 'adopt')).toBe(true);
  });

  it('a held adopt reads held; dropped, it is undecided again; pages by `limit` follow every change, none skipped', async () => {
    const [, , , d, e] = items as [PulledItem, PulledItem, PulledItem, PulledItem, PulledItem];
    const start = (await feed('&limit=500', { cookie: r1 })).next;
    expect((await t.call('PUT', '/hub/v1/budgets', { cookie: admin, body: { organization: { daily_micros: 0 } } })).status).toBe(200);
    const held = await decide(r1, d.id, 'adopt');
    expect(held.status).toBe(409);
    expect((await decide(r2, e.id, 'dispute')).status).toBe(200);
    await recorded();
    const afterHeld = await feed(`&after=${start}`, { cookie: r2 });
    expect(byId(afterHeld.decisions).get(d.id)!.decision).toMatchObject({ kind: 'adopt', state: 'held' });
    // Sent, or still on its way (the hub answers before it records the vendor's answer).
    expect(byId(afterHeld.decisions).get(e.id)!.decision).toMatchObject({ kind: 'dispute', state: expect.stringMatching(/^(sending|sent)$/) });
    expect((await t.call('DELETE', `/hub/v1/holds/${held.body.hold_id}`, { cookie: r1 })).status).toBe(200);
    await t.call('PUT', '/hub/v1/budgets', { cookie: admin, body: {} });
    const dropped = await feed(`&after=${afterHeld.next}`, { cookie: r2 });
    expect(dropped.decisions).toEqual([{ family: 'data', item_id: d.id, decision: null, votes: null }]);
    // One change a page: every item that changed after `start` is told, in order, the last as it stands now.
    const told: FeedAnswer['decisions'] = [];
    let after = start;
    for (;;) {
      const page = await feed(`&after=${after}&limit=1`, { cookie: r1 });
      told.push(...page.decisions);
      after = page.next;
      if (!page.has_more) break;
    }
    expect(new Set(told.map((r) => r.item_id))).toEqual(new Set([d.id, e.id]));
    expect(told.filter((r) => r.item_id === d.id).at(-1)!.decision).toBeNull();
    expect(after).toBe(dropped.next);
  });

  it('a change that commits while a read runs is in the next read: the cursor never passes it', async () => {
    const [, , , , , f] = items as PulledItem[];
    const start = (await feed('&limit=500', { cookie: r1 })).next;
    // Another process on the same store (a second hub, the CLI) holds a decision's transaction open across the read.
    const other = await openHubStore({ dataDir: t.dataDir, databaseUrl: t.databaseUrl });
    try {
      const member = await other.db.selectFrom('members').select('id').where('email', '=', t.accounts.reviewer2.email).executeTakeFirstOrThrow();
      let commit!: () => void;
      let begun!: () => void;
      const open = new Promise<void>((done) => (begun = done));
      const transaction = other.db.transaction().execute(async (trx) => {
        const now = Date.now();
        const row = await insertDecision(
          trx,
          {
            family: 'data',
            item_id: f!.id,
            kind: 'dispute',
            subscription_id: SIM,
            reason: null,
            body: null,
            price_micros: f!.price,
            charged: 0,
            member_id: member.id,
            via: 'session',
          },
          'sending',
          { now, countedAt: null },
        );
        await appendAudit(trx, {
          actorId: member.id,
          via: 'session',
          action: 'v1.dispute',
          target: `/data/items/${f!.id}/dispute`,
          subscriptionId: SIM,
          itemId: f!.id,
          outcome: 'accepted',
          details: { decision_id: row.id },
        });
        begun();
        await new Promise<void>((done) => (commit = done));
      });
      await open;
      const during = await feed(`&after=${start}`, { cookie: r1 });
      expect(during.decisions.map((r) => r.item_id)).not.toContain(f!.id);
      commit();
      await transaction;
      const next = await feed(`&after=${during.next}`, { cookie: r1 });
      expect(next.decisions.map((r) => ({ item: r.item_id, kind: r.decision?.kind }))).toEqual([{ item: f!.id, kind: 'dispute' }]);
    } finally {
      await other.close();
    }
  });

  it('under overlap: votes in and needed, undecided until the rule decides', async () => {
    const [, , , , , , g] = items as PulledItem[];
    expect(
      (await t.call('PUT', '/hub/v1/overlap', { cookie: admin, body: { settings: [{ subscription_id: SIM, overlap: 2, rule: 'unanimous' }] } })).status,
    ).toBe(200);
    const start = (await feed('&limit=500', { cookie: r1 })).next;
    expect((await decide(r1, g!.id, 'adopt')).status).toBe(202);
    const one = await feed(`&after=${start}`, { cookie: r2 });
    expect(one.decisions).toEqual([{ family: 'data', item_id: g!.id, decision: null, votes: { votes: 1, needed: 2, state: 'open' } }]);
    const second = await decide(r2, g!.id, 'adopt');
    expect(second.status, second.text).toBe(200);
    const two = await feed(`&after=${one.next}`, { cookie: r1 });
    expect(two.decisions).toEqual([
      {
        family: 'data',
        item_id: g!.id,
        decision: {
          kind: 'adopt',
          state: expect.stringMatching(/^(sending|sent)$/),
          by: { id: expect.any(String), email: t.accounts.reviewer2.email },
          at: expect.any(String),
        },
        votes: { votes: 2, needed: 2, state: 'decided' },
      },
    ]);
    await t.call('PUT', '/hub/v1/overlap', { cookie: admin, body: { settings: [{ subscription_id: SIM, overlap: 1, rule: 'unanimous' }] } });
  });

  it('reads within a token’s subscriptions; refuses bad input and strangers', async () => {
    const limited = (
      await t.call('POST', '/hub/v1/tokens', { cookie: r1, body: { name: 'feed-read', scope: 'read', subscriptions: ['sub_live_other'], expires_in_days: 1 } })
    ).body.token as string;
    const refused = await t.call('GET', `/hub/v1/inbox/decisions?subscription_id=${SIM}`, { token: limited });
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe('FORBIDDEN');
    expect((await t.call('GET', `/hub/v1/inbox/decisions?subscription_id=${SIM}`, {})).status).toBe(401);
    for (const query of [
      '',
      `subscription_id=${SIM}&after=-1`,
      `subscription_id=${SIM}&limit=501`,
      `subscription_id=${SIM}&snapshot_from=x`,
      `subscription_id=${SIM}&what=1`,
    ]) {
      const answer = await t.call('GET', `/hub/v1/inbox/decisions?${query}`, { cookie: r1 });
      expect(answer.status, query).toBe(400);
      expect(answer.body.errorCode).toMatch(/^INVALID_/);
    }
  });
});
