import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prunePulledItems } from '../../hub/store/pulled-items';
import { pullItems } from './decisions-kit';
import { ENGINES, startTestHub, type TestHub } from './hub-harness';

/*
 * The prices seen at pull are pruned when no decision can need them: a sent decision's after a
 * day (the decision answers a repeat), anything after the window; never a held or queued one's.
 */

const DAY = 86_400_000;

describe.each(ENGINES)('pruning pulled items on %s', (engine) => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startTestHub(engine, { simulator: true });
  });
  afterAll(() => t?.close());

  it('prunes a sent decision’s item after a day and any item after the window, never a held one’s; a repeat still resolves', async () => {
    const admin = await t.signIn(t.accounts.admin);
    const reviewer = await t.signIn(t.accounts.reviewer1);
    const [sent, held, left] = await pullItems(t, reviewer, 'sub_sim_retail', 3);
    expect((await t.call('POST', `/v1/data/items/${sent!.id}/adopt`, { cookie: reviewer })).status).toBe(200);
    expect((await t.call('PUT', '/hub/v1/budgets', { cookie: admin, body: { organization: { daily_micros: 0 } } })).status).toBe(200);
    expect((await t.call('POST', `/v1/data/items/${held!.id}/adopt`, { cookie: reviewer })).body.errorCode).toBe('BUDGET_HELD');
    const kept = async () =>
      (await t.hub.store.db.selectFrom('pulled_items').select('item_id').where('item_id', 'in', [sent!.id, held!.id, left!.id]).execute())
        .map((r) => r.item_id)
        .sort();

    expect(await prunePulledItems(t.hub.store.db, Date.now() + DAY / 2)).toBe(0);
    await prunePulledItems(t.hub.store.db, Date.now() + 2 * DAY);
    expect(await kept()).toEqual([held!.id, left!.id].sort());
    // A script limited to the subscription repeats the adopt: the sent decision still names it.
    const token = (
      await t.call('POST', '/hub/v1/tokens', {
        cookie: reviewer,
        body: { name: 'retry', scope: 'decide', subscriptions: ['sub_sim_retail'], expires_in_days: 1 },
      })
    ).body.token as string;
    const repeat = await t.call('POST', `/v1/data/items/${sent!.id}/adopt`, { token, origin: null });
    expect(repeat.status, repeat.text).toBe(200);

    await prunePulledItems(t.hub.store.db, Date.now() + 31 * DAY);
    expect(await kept()).toEqual([held!.id]);
  });
});
