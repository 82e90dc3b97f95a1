import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { usdToMicros } from '../../../src/api/contract';
import { ENGINES, startTestHub, type TestHub } from './hub-harness';
import { holdVendorKey, pullItems, startGate, startVendor, type Gate, type Vendor } from './decisions-kit';

/*
 * An adopt of a simulated item the hub never delivered (issue 26, found by an adversarial pass):
 * the hub knows an item's subscription and price only from delivering it, so such an adopt used to
 * be held under any limit (`price_unknown`, no subscription, one hold per ID typed, none capped) or,
 * with no limit set, sent and charged uncounted. It is refused now, 404 ITEM_NOT_DELIVERED, before
 * anything is kept or sent; an item the hub did deliver is priced from its inbox even once the
 * pull's own record of it is pruned.
 */

describe.each(ENGINES)('adopting an item never delivered through the hub, on %s', (engine) => {
  let vendor: Vendor;
  let gate: Gate;
  let t: TestHub;
  let admin = '';
  let reviewer = '';

  const adopt = (itemId: string) => t.call('POST', `/v1/data/items/${itemId}/adopt`, { cookie: reviewer });
  const posted = (itemId: string) => [...gate.posts].filter(([path]) => path.startsWith(`/v1/data/items/${itemId}/`)).reduce((s, [, n]) => s + n, 0);
  const vendorStatus = (itemId: string) => (vendor.service.db.prepare('SELECT status FROM items WHERE id = ?').get(itemId) as { status: string }).status;
  const decisionsOf = (itemId: string) => t.hub.store.db.selectFrom('decisions').selectAll().where('item_id', '=', itemId).execute();
  const setOrganizationDaily = async (micros: number | null) =>
    expect((await t.call('PUT', '/hub/v1/budgets', { cookie: admin, body: { organization: { daily_micros: micros } } })).status).toBe(200);
  /** Pending items as the vendor lists them to its key alone: never through the hub. */
  const pendingAtTheVendor = async (subscription: string) => {
    const answer = await fetch(`${vendor.url}/v1/data/pull?subscription_id=${subscription}&limit=40`, {
      headers: { Authorization: `Bearer ${vendor.credentials.api_key}` },
    });
    return ((await answer.json()) as { data: { id: string; unit_price_usd: number }[] }).data.map((i) => ({ id: i.id, price: usdToMicros(i.unit_price_usd) }));
  };

  beforeAll(async () => {
    vendor = await startVendor();
    gate = await startGate(vendor.url);
    t = await startTestHub(engine, { upstream: gate.url });
    admin = await t.signIn(t.accounts.admin);
    await holdVendorKey(t, admin, vendor.credentials);
    reviewer = await t.signIn(t.accounts.reviewer1);
  });
  afterEach(() => setOrganizationDaily(null));
  afterAll(async () => {
    await t?.close();
    await gate?.close();
    await vendor?.close();
  });

  it('is refused 404 with the hub’s reason, with or without a limit, however many are tried: nothing kept, held or sent', async () => {
    const items = await pendingAtTheVendor('sub_sim_product');
    expect(items.length).toBeGreaterThanOrEqual(20);
    const [first, ...rest] = items;

    const refused = await adopt(first!.id);
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({
      success: false,
      errorCode: 'ITEM_NOT_DELIVERED',
      errorMessage: expect.stringContaining(`item ${first!.id} was never delivered through this hub: pull it first`),
    });
    const rows = await t.hub.store.db.selectFrom('audit').select(['action', 'outcome', 'actor_id']).where('item_id', '=', first!.id).execute();
    expect(rows.map((r) => `${r.action} ${r.outcome}`)).toEqual(['v1.adopt ITEM_NOT_DELIVERED']);

    // Under a limit, each used to be a hold of its own (price_unknown), for any ID typed.
    await setOrganizationDaily(1_000_000);
    for (const item of rest.slice(0, 19)) expect((await adopt(item.id)).body.errorCode, item.id).toBe('ITEM_NOT_DELIVERED');
    expect((await t.call('GET', '/hub/v1/holds?state=all', { cookie: admin })).body.holds).toEqual([]);
    for (const item of items.slice(0, 20)) {
      expect(await decisionsOf(item.id), item.id).toEqual([]);
      expect(posted(item.id), item.id).toBe(0);
      expect(vendorStatus(item.id), item.id).toBe('pending');
    }

    // Pulled through the hub, the same item is adopted at its price, counted against the limit.
    await pullItems(t, reviewer, 'sub_sim_product', 200);
    const adopted = await adopt(first!.id);
    expect(adopted.status, adopted.text).toBe(200);
    expect(await decisionsOf(first!.id)).toEqual([expect.objectContaining({ subscription_id: 'sub_sim_product', price_micros: first!.price, charged: 1 })]);
    expect(vendorStatus(first!.id)).toBe('adopted');
  });

  it('an item the hub delivered is priced from its inbox once the pull’s record of it is pruned: counted, not held as price unknown', async () => {
    const [item] = await pullItems(t, reviewer, 'sub_sim_retail', 1);
    // What the daily prune does to a row pulled over 30 days ago (store/pulled-items.ts).
    await t.hub.store.db.deleteFrom('pulled_items').where('item_id', '=', item!.id).execute();
    await setOrganizationDaily(1_000_000);
    const adopted = await adopt(item!.id);
    expect(adopted.status, adopted.text).toBe(200);
    expect(await decisionsOf(item!.id)).toEqual([expect.objectContaining({ subscription_id: 'sub_sim_retail', price_micros: item!.price })]);
    expect(vendorStatus(item!.id)).toBe('adopted');
    const spent = (await t.call('GET', '/hub/v1/budgets', { cookie: admin })).body.spent.subscriptions as { subscription_id: string; day_micros: number }[];
    expect(spent.find((s) => s.subscription_id === 'sub_sim_retail')?.day_micros).toBe(item!.price);
  });

  it('a dispute charges nothing: one of an item never delivered is still the vendor’s to answer', async () => {
    const [item] = await pendingAtTheVendor('sub_sim_support');
    const disputed = await t.call('POST', `/v1/data/items/${item!.id}/dispute`, { cookie: reviewer });
    expect(disputed.status, disputed.text).toBe(200);
    expect(vendorStatus(item!.id)).toBe('disputed');
  });
});
