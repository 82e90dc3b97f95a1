import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, type TestHub } from './hub-harness';
import { startVotingTeam, type VotingTeam } from './voting-team';
import { adoptReceipts, eventually, pullItems, type Gate, type Vendor } from './decisions-kit';

/*
 * Overlap on the hub (issue 26): each member's adopt or dispute is their vote; with overlap N the
 * team decides when N votes are in and the rule says so, a split goes to the lead, and the vendor
 * (the simulator's own records, through a counting gate) receives one decision per item.
 */

describe.each(ENGINES)('hub overlap on %s', (engine) => {
  let vendor: Vendor;
  let gate: Gate;
  let t: TestHub;
  let admin = '';
  let r1 = '';
  let r2 = '';
  let r3 = '';

  const decide = (cookie: string, itemId: string, kind: 'adopt' | 'dispute') => t.call('POST', `/v1/data/items/${itemId}/${kind}`, { cookie });
  const decisionsOf = (itemId: string) => t.hub.store.db.selectFrom('decisions').selectAll().where('item_id', '=', itemId).execute();
  const posted = (itemId: string) => [...gate.posts].filter(([path]) => path.startsWith(`/v1/data/items/${itemId}/`)).reduce((s, [, n]) => s + n, 0);
  const vendorStatus = (itemId: string) =>
    (vendor.service.db.prepare('SELECT status FROM items WHERE id = ?').get(itemId) as { status: string } | undefined)?.status;
  const setOverlap = (subscription: string, overlap: number, rule: 'unanimous' | 'majority') =>
    t.call('PUT', '/hub/v1/overlap', { cookie: admin, body: { settings: [{ subscription_id: subscription, overlap, rule }] } });

  let team: VotingTeam | undefined;
  beforeAll(async () => {
    team = await startVotingTeam(engine);
    ({ vendor, gate, t, admin, r1, r2, r3 } = team);
  });
  afterEach(() => gate?.open());
  afterAll(() => team?.close());

  it('overlap 2, unanimous: the first vote is kept (202 voted, 1 of 2), never sent; the second that agrees is the team’s decision, sent once', async () => {
    expect((await setOverlap('sub_sim_retail', 2, 'unanimous')).status).toBe(200);
    expect((await t.call('GET', '/hub/v1/overlap', { cookie: r1 })).body.settings).toContainEqual({
      subscription_id: 'sub_sim_retail',
      overlap: 2,
      rule: 'unanimous',
    });
    const [item] = await pullItems(t, r1, 'sub_sim_retail', 1);
    const first = await decide(r1, item!.id, 'adopt');
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ ok: true, item_id: item!.id, status: 'adopted', hub: { state: 'voted', votes: 1, needed: 2, outcome: null } });
    // The same reviewer again: still one vote.
    expect((await decide(r1, item!.id, 'adopt')).body.hub).toEqual({ state: 'voted', votes: 1, needed: 2, outcome: null });
    expect(await decisionsOf(item!.id)).toEqual([]);
    expect(posted(item!.id)).toBe(0);
    const second = await decide(r2, item!.id, 'adopt');
    expect(second.status).toBe(200);
    expect(second.body.hub).toEqual({ state: 'sent', decision_id: expect.any(String) });
    expect(posted(item!.id)).toBe(1);
    expect(vendorStatus(item!.id)).toBe('adopted');
    expect((await adoptReceipts(vendor.url, vendor.credentials.api_key)).get(item!.id)).toEqual([item!.price]);
    // A third reviewer after the team decided is told the recorded outcome; nothing more is sent.
    // (The send's record is written after the answer, deliver.ts answerFirst: waited for, not raced, or the recorded outcome is 202 queued.)
    await eventually(async () => (await decisionsOf(item!.id))[0]?.state === 'sent');
    expect((await decide(r3, item!.id, 'adopt')).status).toBe(200);
    expect((await decide(r3, item!.id, 'dispute')).body.errorCode).toBe('ALREADY_DECIDED');
    expect(posted(item!.id)).toBe(1);
  });

  it('a vote may change before the team decides; a split goes to the lead, who settles it: one decision reaches the vendor', async () => {
    await setOverlap('sub_sim_support', 2, 'unanimous');
    const [changed, split] = await pullItems(t, r1, 'sub_sim_support', 2);
    expect((await decide(r1, changed!.id, 'adopt')).status).toBe(202);
    expect((await decide(r1, changed!.id, 'dispute')).body.hub).toEqual({ state: 'voted', votes: 1, needed: 2, outcome: null });
    expect((await decide(r2, changed!.id, 'dispute')).status).toBe(200);
    expect(vendorStatus(changed!.id)).toBe('disputed');

    expect((await decide(r1, split!.id, 'adopt')).status).toBe(202);
    const second = await decide(r2, split!.id, 'dispute');
    expect(second.status).toBe(202);
    expect(second.body.hub).toEqual({ state: 'voted', votes: 2, needed: 2, outcome: 'lead' });
    expect(posted(split!.id)).toBe(0);
    // The item is the lead's now: no vote changes it.
    expect((await decide(r1, split!.id, 'dispute')).body.errorCode).toBe('WITH_THE_LEAD');
    expect((await decide(r3, split!.id, 'adopt')).body.errorCode).toBe('WITH_THE_LEAD');
    // Only an admin reads and settles the lead's queue.
    expect((await t.call('GET', '/hub/v1/disagreements', { cookie: r1 })).status).toBe(403);
    const queue = await t.call('GET', '/hub/v1/disagreements', { cookie: admin });
    const listed = queue.body.disagreements.find((d: { item_id: string }) => d.item_id === split!.id);
    expect(listed).toMatchObject({ family: 'data', subscription_id: 'sub_sim_support', needed: 2, rule: 'unanimous', price_micros: split!.price });
    expect(listed.votes.map((v: { member: { email: string }; vote: string; reason: string | null }) => [v.member.email, v.vote, v.reason])).toEqual([
      [t.accounts.reviewer1.email, 'adopt', null],
      [t.accounts.reviewer2.email, 'dispute', null],
    ]);
    expect((await t.call('POST', '/hub/v1/disagreements/settle', { cookie: r1, body: { family: 'data', item_id: split!.id, decision: 'adopt' } })).status).toBe(
      403,
    );
    const settled = await t.call('POST', '/hub/v1/disagreements/settle', { cookie: admin, body: { family: 'data', item_id: split!.id, decision: 'adopt' } });
    expect(settled.status).toBe(200);
    expect(settled.body).toMatchObject({ ok: true, item_id: split!.id, status: 'adopted', hub: { state: 'sent' } });
    expect(posted(split!.id)).toBe(1);
    expect((await adoptReceipts(vendor.url, vendor.credentials.api_key)).get(split!.id)).toEqual([split!.price]);
    const again = await t.call('POST', '/hub/v1/disagreements/settle', { cookie: admin, body: { family: 'data', item_id: split!.id, decision: 'dispute' } });
    expect(again.body.errorCode).toBe('NOT_WITH_THE_LEAD');
    expect((await t.call('GET', '/hub/v1/disagreements', { cookie: admin })).body.disagreements.map((d: { item_id: string }) => d.item_id)).not.toContain(
      split!.id,
    );
    // The send's own row is written after the answer (deliver.ts, answerFirst): waited for, not raced.
    const audit = await eventually(async () => {
      const rows = await t.hub.store.db.selectFrom('audit').select(['action', 'outcome']).where('item_id', '=', split!.id).orderBy('seq').execute();
      return rows.length === 4 && rows.map((a) => `${a.action} ${a.outcome}`);
    });
    expect(audit).toEqual(['vote.adopt voted', 'vote.dispute lead', 'v1.adopt accepted', 'decision.send ok']);
  });

  it('refuses an overlap beyond the members who can vote (an item would stay open for good), and takes one up to them', async () => {
    // Four can vote here: the admin and three reviewers (the viewer cannot).
    const beyond = await setOverlap('sub_sim_product', 5, 'unanimous');
    expect(beyond.status).toBe(400);
    expect(beyond.body.errorCode).toBe('INVALID_BODY');
    expect(beyond.body.errorMessage).toContain('the team has 4');
    expect((await setOverlap('sub_sim_product', 4, 'unanimous')).status).toBe(200);
    expect((await setOverlap('sub_sim_product', 1, 'unanimous')).status).toBe(200);
  });

  it('overlap 3, majority: two of three decide, and the one outvoted is told the team’s decision', async () => {
    await setOverlap('sub_sim_product', 3, 'majority');
    const [item] = await pullItems(t, r1, 'sub_sim_product', 1);
    expect((await decide(r1, item!.id, 'adopt')).status).toBe(202);
    expect((await decide(r3, item!.id, 'adopt')).status).toBe(202);
    const last = await decide(r2, item!.id, 'dispute');
    expect(last.status).toBe(202);
    expect(last.body).toEqual({ ok: true, item_id: item!.id, status: 'disputed', hub: { state: 'voted', votes: 3, needed: 3, outcome: 'adopt' } });
    await eventually(async () => (await decisionsOf(item!.id))[0]?.state === 'sent');
    expect(vendorStatus(item!.id)).toBe('adopted');
    expect(posted(item!.id)).toBe(1);
  });

  it('concurrent votes from three reviewers on the same items make exactly one decision per item, sent once', async () => {
    await setOverlap('sub_sim_retail', 2, 'unanimous');
    const items = await pullItems(t, r1, 'sub_sim_retail', 6);
    await Promise.all(items.flatMap((item) => [r1, r2, r3].map((cookie) => decide(cookie, item.id, 'adopt'))));
    const receipts = await adoptReceipts(vendor.url, vendor.credentials.api_key);
    for (const item of items) {
      expect((await decisionsOf(item.id)).length, item.id).toBe(1);
      await eventually(async () => (await decisionsOf(item.id))[0]?.state === 'sent');
      expect(posted(item.id), item.id).toBe(1);
      expect(receipts.get(item.id), item.id).toEqual([item.price]);
    }
  });

  it('budgets hold the team’s decision, not the votes', async () => {
    await setOverlap('sub_sim_support', 2, 'unanimous');
    const [item] = await pullItems(t, r1, 'sub_sim_support', 1);
    expect((await t.call('PUT', '/hub/v1/budgets', { cookie: admin, body: { organization: { daily_micros: 0 } } })).status).toBe(200);
    try {
      expect((await decide(r1, item!.id, 'adopt')).status).toBe(202);
      const held = await decide(r2, item!.id, 'adopt');
      expect(held.status).toBe(409);
      expect(held.body.errorCode).toBe('BUDGET_HELD');
      expect((await decisionsOf(item!.id))[0]).toMatchObject({ state: 'held', kind: 'adopt' });
      expect(posted(item!.id)).toBe(0);
    } finally {
      await t.call('PUT', '/hub/v1/budgets', { cookie: admin, body: { organization: { daily_micros: null } } });
    }
  });

  it('agreement per subscription and per reviewer; reviewers’ figures: everyone’s for an admin, their own for a reviewer', async () => {
    const agreement = await t.call('GET', '/hub/v1/agreement', { cookie: r1 });
    expect(agreement.status).toBe(200);
    const support = agreement.body.subscriptions.find((s: { subscription_id: string }) => s.subscription_id === 'sub_sim_support');
    // sub_sim_support: one agreeing item (dispute, dispute), one split, one agreeing (adopt, adopt) → 2 of 3 pairs agree.
    expect(support).toMatchObject({ items: 3, raters: 2, method: 'cohen', percent: 2 / 3 });
    expect(agreement.body.reviewers.map((r: { member: { email: string } }) => r.member.email)).toContain(t.accounts.reviewer2.email);
    const mine = await t.call('GET', '/hub/v1/reviewers/figures', { cookie: r1 });
    expect(new Set(mine.body.rows.map((r: { member: { email: string } }) => r.member.email))).toEqual(new Set([t.accounts.reviewer1.email]));
    const all = mine.body.rows.find((r: { day: string }) => r.day === 'all');
    // Five votes of their own before the concurrent test, where a vote arriving after the team decided is no vote.
    expect(all.items).toBeGreaterThanOrEqual(5);
    expect(all.acceptance).toBeGreaterThan(0);
    expect(all.agreement_with_team).toBeGreaterThan(0);
    expect(all.agreement_with_team).toBeLessThanOrEqual(1);
    const everyone = await t.call('GET', '/hub/v1/reviewers/figures', { cookie: admin });
    expect(new Set(everyone.body.rows.map((r: { member: { email: string } }) => r.member.email))).toEqual(
      new Set([t.accounts.reviewer1.email, t.accounts.reviewer2.email, 'reviewer3@demo.hub']),
    );
    expect((await t.call('GET', `/hub/v1/reviewers/figures?member=${all.member.id}`, { cookie: r2 })).status).toBe(403);
  });
  it('through the team queue: a vote ends the voter’s lease, their next take never hands them the item, a teammate’s does, and an item with the lead goes to nobody', async () => {
    const subscriptions = ['sub_sim_retail', 'sub_sim_support', 'sub_sim_product'].map((id) => ({ id, kind: 'simulated' }));
    expect((await t.call('PUT', '/hub/v1/subscriptions', { cookie: admin, body: { subscriptions } })).status).toBe(200);
    expect((await setOverlap('sub_sim_product', 2, 'unanimous')).status).toBe(200);
    await pullItems(t, r1, 'sub_sim_product', 4);
    const take = async (cookie: string, size: number) => {
      const answer = await t.call('POST', '/hub/v1/queue/take', { cookie, body: { subscription_id: 'sub_sim_product', size } });
      expect(answer.status, answer.text).toBe(200);
      return answer.body.batch as { id: string; items: { item_id: string }[] };
    };
    const ids = (batch: { items: { item_id: string }[] }) => batch.items.map((i) => i.item_id);

    const first = await take(r1, 1);
    const [x] = ids(first);
    expect((await decide(r1, x!, 'adopt')).status).toBe(202);
    const lease = await t.hub.store.db.selectFrom('leases').selectAll().where('item_id', '=', x!).executeTakeFirstOrThrow();
    expect([lease.member_id, lease.state]).toEqual([(await t.call('GET', '/hub/v1/me', { cookie: r1 })).body.member.id, 'released']);
    // Let go by the voter, not lost to them.
    const renewed = await t.call('POST', '/hub/v1/queue/renew', { cookie: r1, body: { batch_id: first.id } });
    expect(renewed.status, renewed.text).toBe(200);
    expect(renewed.body.lost).toEqual([]);
    expect(ids(await take(r1, 10))).not.toContain(x);
    expect(ids(await take(r2, 10))).toContain(x);
    // The second vote splits: the item is the lead's, and no take hands it out.
    expect((await decide(r2, x!, 'dispute')).status).toBe(202);
    expect(ids(await take(r3, 10))).not.toContain(x);
    expect(posted(x!)).toBe(0);
  });
});
