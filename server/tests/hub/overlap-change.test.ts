import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestHub, type TestHub } from './hub-harness';
import { startVotingTeam, type VotingTeam } from './voting-team';
import { adoptReceipts, eventually, holdVendorKey, pullItems, startVendor, type Gate, type Vendor } from './decisions-kit';

/*
 * An admin changes a subscription's overlap N or rule (issue 26, found by an adversarial pass): the
 * items the team has not decided are judged under the new setting at once. Votes already in that
 * meet it make the team's decision, sent once (the simulator's own records, through a counting
 * gate); a split goes to the lead; raising N asks for more votes; decided items keep theirs. Before,
 * an item kept the N of its first vote, and a team shrunk below it could never decide it.
 */

describe.each(ENGINES)('changing the overlap on %s', (engine) => {
  let vendor: Vendor;
  let gate: Gate;
  let t: TestHub;
  let admin = '';
  let r1 = '';
  let r2 = '';
  let r3 = '';

  const decide = (cookie: string, itemId: string, kind: 'adopt' | 'dispute') => t.call('POST', `/v1/data/items/${itemId}/${kind}`, { cookie });
  const decisionsOf = (itemId: string) => t.hub.store.db.selectFrom('decisions').selectAll().where('item_id', '=', itemId).execute();
  const voteItem = (itemId: string) => t.hub.store.db.selectFrom('vote_items').selectAll().where('item_id', '=', itemId).executeTakeFirstOrThrow();
  const posted = (itemId: string) => [...gate.posts].filter(([path]) => path.startsWith(`/v1/data/items/${itemId}/`)).reduce((s, [, n]) => s + n, 0);
  const vendorStatus = (itemId: string) =>
    (vendor.service.db.prepare('SELECT status FROM items WHERE id = ?').get(itemId) as { status: string } | undefined)?.status;
  const setOverlap = async (subscription: string, overlap: number, rule: 'unanimous' | 'majority') => {
    const answer = await t.call('PUT', '/hub/v1/overlap', { cookie: admin, body: { settings: [{ subscription_id: subscription, overlap, rule }] } });
    expect(answer.status, answer.text).toBe(200);
  };
  /** Pending items nobody has voted on yet (a simulated pull lists every pending item again, voted or not). */
  const freshItems = async (subscription: string, count: number) => {
    const voted = new Set((await t.hub.store.db.selectFrom('votes').select('item_id').execute()).map((v) => v.item_id));
    const fresh = (await pullItems(t, r1, subscription, 200)).filter((item) => !voted.has(item.id)).slice(0, count);
    expect(fresh).toHaveLength(count);
    return fresh;
  };
  const auditOf = (itemId: string) =>
    t.hub.store.db.selectFrom('audit').select(['action', 'outcome', 'actor_id']).where('item_id', '=', itemId).orderBy('seq').execute();

  let team: VotingTeam | undefined;
  beforeAll(async () => {
    team = await startVotingTeam(engine);
    ({ vendor, gate, t, admin, r1, r2, r3 } = team);
  });
  afterEach(() => gate?.open());
  afterAll(() => team?.close());

  it('a team shrunk below N: lowering N decides the items whose votes now meet it (sent once), splits go to the lead, too few stay open, decided items are untouched', async () => {
    await setOverlap('sub_sim_retail', 3, 'unanimous');
    const [agreed, split, single, done] = await freshItems('sub_sim_retail', 4);
    for (const [cookie, item, kind] of [
      [r1, agreed, 'adopt'],
      [r2, agreed, 'adopt'],
      [r1, split, 'adopt'],
      [r2, split, 'dispute'],
      [r1, single, 'dispute'],
      [r1, done, 'adopt'],
      [r2, done, 'adopt'],
    ] as const) {
      expect((await decide(cookie, item!.id, kind)).status).toBe(202);
    }
    expect((await decide(r3, done!.id, 'adopt')).status).toBe(200);
    // The third reviewer leaves; the admin lowers N to the two reviewers left.
    const members = (await t.call('GET', '/hub/v1/members', { cookie: admin })).body.members as { id: string; email: string }[];
    const leaver = members.find((m) => m.email === 'reviewer3@demo.hub')!;
    expect((await t.call('DELETE', `/hub/v1/members/${leaver.id}`, { cookie: admin })).status).toBe(200);
    expect(posted(agreed!.id) + posted(split!.id) + posted(single!.id)).toBe(0);

    await setOverlap('sub_sim_retail', 2, 'unanimous');
    // Two adopts meet N = 2: the team adopts it, sent once (after the PUT's answer), charged once at its price.
    await eventually(async () => (await decisionsOf(agreed!.id))[0]?.state === 'sent');
    expect(await decisionsOf(agreed!.id)).toEqual([expect.objectContaining({ kind: 'adopt', state: 'sent', price_micros: agreed!.price })]);
    expect(posted(agreed!.id)).toBe(1);
    expect(vendorStatus(agreed!.id)).toBe('adopted');
    expect((await adoptReceipts(vendor.url, vendor.credentials.api_key)).get(agreed!.id)).toEqual([agreed!.price]);
    expect(await voteItem(agreed!.id)).toMatchObject({ needed: 2, state: 'decided', outcome: 'adopt' });
    // A split under the rule is the lead's; one vote of two needs another.
    expect(await voteItem(split!.id)).toMatchObject({ needed: 2, state: 'lead' });
    expect((await t.call('GET', '/hub/v1/disagreements', { cookie: admin })).body.disagreements.map((d: { item_id: string }) => d.item_id)).toContain(
      split!.id,
    );
    expect(await voteItem(single!.id)).toMatchObject({ needed: 2, state: 'open' });
    expect(posted(split!.id) + posted(single!.id)).toBe(0);
    // Decided before the change: its one decision stands, nothing more is sent.
    expect(await voteItem(done!.id)).toMatchObject({ needed: 3, state: 'decided' });
    expect(await decisionsOf(done!.id)).toHaveLength(1);
    expect(posted(done!.id)).toBe(1);

    // The open item follows the new N: the next vote decides it.
    const second = await decide(r2, single!.id, 'dispute');
    expect(second.status).toBe(200);
    expect(vendorStatus(single!.id)).toBe('disputed');

    const adminId = (await t.call('GET', '/hub/v1/me', { cookie: admin })).body.member.id;
    const rows = await eventually(async () => {
      const found = await auditOf(agreed!.id);
      return found.length === 5 && found;
    });
    expect(rows.map((r) => `${r.action} ${r.outcome}`)).toEqual([
      'vote.adopt voted',
      'vote.adopt voted',
      'vote.recount adopt',
      'v1.adopt accepted',
      'decision.send ok',
    ]);
    expect(rows[2]!.actor_id).toBe(adminId);
    expect((await auditOf(split!.id)).map((r) => `${r.action} ${r.outcome}`)).toEqual(['vote.adopt voted', 'vote.dispute voted', 'vote.recount lead']);
    expect((await auditOf(done!.id)).map((r) => r.action)).not.toContain('vote.recount');
    const set = await t.hub.store.db.selectFrom('audit').select('details').where('action', '=', 'overlap.set').orderBy('seq', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(set.details!)).toEqual({ overlap: 2, rule: 'unanimous', decided: 1, lead: 1, open: 1 });
  });

  it('a new rule decides what the old one sent to the lead; raising N asks for more votes, on open items and on the lead’s alike', async () => {
    // Three reviewers vote (the suite's third was removed above: another joins).
    const fourth = { email: 'reviewer4@demo.hub', password: 'fourth-reviewer-pass', role: 'reviewer' };
    expect((await t.call('POST', '/hub/v1/members', { cookie: admin, body: fourth })).status).toBe(201);
    const r4 = await t.signIn(fourth);
    await setOverlap('sub_sim_support', 3, 'unanimous');
    const [twoToOne, open, tie] = await freshItems('sub_sim_support', 3);
    for (const [cookie, item, kind] of [
      [r1, twoToOne, 'adopt'],
      [r2, twoToOne, 'adopt'],
      [r4, twoToOne, 'dispute'],
      [r1, open, 'adopt'],
      [r1, tie, 'adopt'],
      [r2, tie, 'dispute'],
    ] as const) {
      expect((await decide(cookie, item!.id, kind)).status).toBe(202);
    }
    expect(await voteItem(twoToOne!.id)).toMatchObject({ state: 'lead' });
    // Majority of three: two adopts of three decide what unanimity sent to the lead.
    await setOverlap('sub_sim_support', 3, 'majority');
    await eventually(async () => (await decisionsOf(twoToOne!.id))[0]?.state === 'sent');
    expect(await decisionsOf(twoToOne!.id)).toEqual([expect.objectContaining({ kind: 'adopt', state: 'sent' })]);
    expect(posted(twoToOne!.id)).toBe(1);
    expect(await voteItem(open!.id)).toMatchObject({ needed: 3, rule: 'majority', state: 'open' });

    // Down to two: the tie is the lead's.
    await setOverlap('sub_sim_support', 2, 'majority');
    expect(await voteItem(tie!.id)).toMatchObject({ needed: 2, state: 'lead' });
    // Back up to three: the tie and the open item need a third vote, which decides each.
    await setOverlap('sub_sim_support', 3, 'majority');
    expect(await voteItem(tie!.id)).toMatchObject({ needed: 3, state: 'open' });
    expect((await decide(r2, open!.id, 'adopt')).body.hub).toEqual({ state: 'voted', votes: 2, needed: 3, outcome: null });
    expect(posted(open!.id)).toBe(0);
    expect((await decide(r4, open!.id, 'adopt')).status).toBe(200);
    expect((await decide(r4, tie!.id, 'dispute')).status).toBe(200);
    expect(vendorStatus(tie!.id)).toBe('disputed');
    expect(posted(open!.id) + posted(tie!.id)).toBe(2);
    // The same setting again moves nothing.
    const before = await t.hub.store.db.selectFrom('audit').select('seq').where('action', '=', 'vote.recount').execute();
    await setOverlap('sub_sim_support', 3, 'majority');
    expect(await t.hub.store.db.selectFrom('audit').select('seq').where('action', '=', 'vote.recount').execute()).toHaveLength(before.length);
  });

  it('the decision the change makes passes the team’s budget as any other: held, not sent', async () => {
    await setOverlap('sub_sim_product', 3, 'unanimous');
    const [item] = await freshItems('sub_sim_product', 1);
    expect((await decide(r1, item!.id, 'adopt')).status).toBe(202);
    expect((await decide(r2, item!.id, 'adopt')).status).toBe(202);
    expect((await t.call('PUT', '/hub/v1/budgets', { cookie: admin, body: { organization: { daily_micros: 0 } } })).status).toBe(200);
    try {
      await setOverlap('sub_sim_product', 2, 'unanimous');
      const [held] = await decisionsOf(item!.id);
      const r2Id = (await t.call('GET', '/hub/v1/me', { cookie: r2 })).body.member.id;
      // The votes' decision, charged to the member who voted last.
      expect(held).toMatchObject({ kind: 'adopt', state: 'held', member_id: r2Id, price_micros: item!.price });
      const holds = (await t.call('GET', '/hub/v1/holds', { cookie: admin })).body.holds as { item_id: string; limit: string }[];
      expect(holds.find((h) => h.item_id === item!.id)).toMatchObject({ limit: 'organization.daily' });
      expect(posted(item!.id)).toBe(0);
    } finally {
      await t.call('PUT', '/hub/v1/budgets', { cookie: admin, body: { organization: { daily_micros: null } } });
    }
  });
});

/*
 * The change racing votes, on PostgreSQL (SQLite's write transactions take turns whole). Another
 * session holds the audit head's row, so a vote's transaction stops at its audit row with its
 * vote counted under the old N but not committed; the change then runs. It must wait for that
 * vote (the subscription's overlap lock, shared by every vote) and count it, or the item is left
 * open under the old N for good; and a vote that decides must not be decided again by the change.
 */
describe('changing the overlap while votes are in flight, on postgres', () => {
  let vendor: Vendor;
  let t: TestHub;
  let admin = '';
  let r1 = '';
  let r2 = '';
  let holder: pg.Client;
  let watcher: pg.Client;

  beforeAll(async () => {
    vendor = await startVendor();
    t = await startTestHub('postgres', { upstream: vendor.url });
    admin = await t.signIn(t.accounts.admin);
    await holdVendorKey(t, admin, vendor.credentials);
    r1 = await t.signIn(t.accounts.reviewer1);
    r2 = await t.signIn(t.accounts.reviewer2);
    holder = new pg.Client({ connectionString: t.databaseUrl });
    watcher = new pg.Client({ connectionString: t.databaseUrl });
    await holder.connect();
    await watcher.connect();
  });
  afterAll(async () => {
    await holder?.end();
    await watcher?.end();
    await t?.close();
    await vendor?.close();
  });

  /** Resolves once `n` of the hub's sessions wait for a lock (a row's or an advisory one). */
  const waiting = (n: number) =>
    eventually(async () => {
      const found = await watcher.query<{ n: string }>(
        `select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
      );
      return Number(found.rows[0]!.n) >= n;
    }, 20);
  const decide = (cookie: string, itemId: string) => t.call('POST', `/v1/data/items/${itemId}/adopt`, { cookie });
  const decisionsOf = (itemId: string) => t.hub.store.db.selectFrom('decisions').selectAll().where('item_id', '=', itemId).execute();

  const put = (overlap: number) =>
    t.call('PUT', '/hub/v1/overlap', { cookie: admin, body: { settings: [{ subscription_id: 'sub_sim_retail', overlap, rule: 'unanimous' }] } });

  /** The vote stopped at its audit row (the holder has the head), the change sent meanwhile; then the row is let go. */
  async function voteDuringChange(cookie: string, itemId: string, overlap: number) {
    await holder.query('begin');
    await holder.query('select * from audit_head where id = 1 for update');
    let vote: Promise<unknown> | undefined;
    let change: ReturnType<typeof put> | undefined;
    try {
      vote = decide(cookie, itemId);
      await waiting(1);
      change = put(overlap);
      // The change waits too: for the vote (the overlap lock), or, without it, for the audit row only.
      await waiting(2);
    } finally {
      await holder.query('commit');
    }
    expect((await change!).status).toBe(200);
    await vote;
  }

  async function decidedOnce(item: { id: string; price: number }) {
    expect(await decisionsOf(item.id), item.id).toEqual([expect.objectContaining({ kind: 'adopt' })]);
    await eventually(async () => (await decisionsOf(item.id))[0]!.state === 'sent');
    expect((await adoptReceipts(vendor.url, vendor.credentials.api_key)).get(item.id)).toEqual([item.price]);
  }

  it('a take holding an item’s inbox row while the change decides that item: one waits for the other, no deadlock', async () => {
    expect((await put(2)).status).toBe(200);
    const [item] = await pullItems(t, r1, 'sub_sim_retail', 1);
    expect((await decide(r1, item!.id)).status).toBe(202);
    // As a take does: the rows it leases first (SKIP LOCKED), its audit row after.
    await holder.query('begin');
    let change: ReturnType<typeof put> | undefined;
    try {
      await holder.query(`select * from inbox_items where family = 'data' and item_id = $1 for update`, [item!.id]);
      change = put(1);
      await waiting(1);
      // Had the change taken the audit head before this row (its first vote.recount row), this would deadlock.
      await holder.query('select * from audit_head where id = 1 for update');
    } finally {
      await holder.query('commit');
    }
    expect((await change!).status).toBe(200);
    await decidedOnce(item!);
  });

  it('a first vote counted under the old N while N is lowered is counted again under the new one: decided, not left open', async () => {
    expect((await put(2)).status).toBe(200);
    const [item] = await pullItems(t, r1, 'sub_sim_retail', 1);
    await voteDuringChange(r1, item!.id, 1);
    await decidedOnce(item!);
  });

  it('a vote that decides while N is lowered is not decided again by the change', async () => {
    expect((await put(3)).status).toBe(200);
    const voted = new Set((await t.hub.store.db.selectFrom('votes').select('item_id').execute()).map((v) => v.item_id));
    const item = (await pullItems(t, r1, 'sub_sim_retail', 10)).find((i) => !voted.has(i.id))!;
    expect((await decide(r1, item.id)).status).toBe(202);
    expect((await decide(r2, item.id)).status).toBe(202);
    await voteDuringChange(admin, item.id, 1);
    await decidedOnce(item);
  });
});
