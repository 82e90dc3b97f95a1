import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGate, holdVendorKey, pullItems, startVendor, type Gate, type PulledItem, type Vendor } from './decisions-kit';
import { ENGINES, startTestHub, type TestHub } from './hub-harness';

/*
 * The vendor's receipts (4.7) read by the hub: its own adopts matched to their decisions, its own
 * pulls known as its own, and spend outside the hub (the same key used directly, as a script
 * would) counted toward the organization's limits, each receipt once; a vendor away leaves the
 * last figures and says so.
 */

describe.each(ENGINES)('hub vendor receipts on %s', (engine) => {
  let vendor: Vendor;
  let gate: Gate;
  let t: TestHub;
  let admin = '';
  let reviewer = '';
  let items: PulledItem[] = [];

  beforeAll(async () => {
    vendor = await startVendor();
    gate = await startGate(vendor.url);
    t = await startTestHub(engine, { upstream: gate.url });
    admin = await t.signIn(t.accounts.admin);
    reviewer = await t.signIn(t.accounts.reviewer1);
    await holdVendorKey(t, admin, vendor.credentials);
    items = await pullItems(t, reviewer, 'sub_sim_retail', 3);
  });
  afterAll(async () => {
    await t?.close();
    await gate?.close();
    await vendor?.close();
  });

  const budgets = async () => (await t.call('GET', '/hub/v1/budgets', { cookie: reviewer })).body;
  const sync = async () => {
    const answer = await t.call('POST', '/hub/v1/budgets/sync', { cookie: admin });
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };
  /** Adopted with the vendor key straight at the vendor: the hub neither sees nor gates it. */
  const adoptOutside = async (item: PulledItem) => {
    const answer = await fetch(`${vendor.url}/v1/data/items/${item.id}/adopt`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${vendor.credentials.api_key}` },
    });
    expect(answer.status).toBe(200);
  };

  it('counts spend outside the hub toward the organization once synced, once however often, and holds the next adopt that would pass the limit', async () => {
    const [mine, theirs, next] = items as [PulledItem, PulledItem, PulledItem];
    expect(mine.price).toBeGreaterThan(0);
    expect(theirs.price).toBeGreaterThan(0);
    const adopted = await t.call('POST', `/v1/data/items/${mine.id}/adopt`, { cookie: reviewer });
    expect(adopted.status, adopted.text).toBe(200);
    await adoptOutside(theirs);

    const before = await budgets();
    expect(before.spent.outside).toEqual({ day_micros: 0, month_micros: 0 });
    expect(before.spent.organization.day_micros).toBe(mine.price);
    expect(before.receipts).toEqual({ synced_at: null, attempted_at: null, outcome: null });

    const after = await sync();
    expect(after.receipts.outcome).toBe('ok');
    expect(after.receipts.synced_at).toEqual(expect.any(String));
    expect(after.spent.outside).toEqual({ day_micros: theirs.price, month_micros: theirs.price });
    expect(after.spent.organization.day_micros).toBe(mine.price + theirs.price);
    // Outside spend is nobody's: no member or subscription row carries it.
    expect(after.spent.members.map((m: { day_micros: number }) => m.day_micros)).toEqual([mine.price]);
    // The hub's own adopt is matched to its decision: the vendor's amount, counted once.
    const decision = await t.hub.store.db.selectFrom('decisions').select(['id', 'receipt_micros']).where('item_id', '=', mine.id).executeTakeFirstOrThrow();
    expect(decision.receipt_micros).toBe(mine.price);
    const stored = await t.hub.store.db.selectFrom('vendor_receipts').selectAll().where('item_id', 'in', [mine.id, theirs.id]).execute();
    expect(stored.map((r) => [r.item_id, r.source, r.decision_id]).sort()).toEqual(
      [
        [mine.id, 'hub', decision.id],
        [theirs.id, 'outside', null],
      ].sort(),
    );

    const again = await sync();
    expect(again.spent.outside.day_micros).toBe(theirs.price);
    expect(again.spent.organization.day_micros).toBe(mine.price + theirs.price);

    // Room for the hub's own spend and the next item, not for what was spent outside too.
    const limit = mine.price + theirs.price + next.price - 1;
    expect((await t.call('PUT', '/hub/v1/budgets', { cookie: admin, body: { organization: { daily_micros: limit } } })).status).toBe(200);
    const held = await t.call('POST', `/v1/data/items/${next.id}/adopt`, { cookie: reviewer });
    expect(held.status, held.text).toBe(409);
    expect(held.body).toMatchObject({ errorCode: 'BUDGET_HELD' });
    expect((await t.call('GET', '/hub/v1/holds', { cookie: admin })).body.holds).toEqual([
      expect.objectContaining({ item_id: next.id, limit: 'organization.daily' }),
    ]);
  });

  it('knows a pull it forwarded as its own, not as spend outside', async () => {
    const pulled = await t.call('GET', '/v1/live/pull?subscription_id=sub_live_streets&limit=2', { cookie: reviewer });
    expect(pulled.status, pulled.text).toBe(200);
    const receiptId = pulled.body.data.receipt.receipt_id as string;
    await sync();
    const row = await t.hub.store.db.selectFrom('vendor_receipts').selectAll().where('receipt_id', '=', receiptId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'pull', source: 'hub', subscription_id: 'sub_live_streets' });
  });

  it('leaves the last synced figures when the vendor is away, and says so', async () => {
    const last = await sync();
    gate.shut();
    try {
      const away = await sync();
      expect(away.receipts.outcome).toBe('UPSTREAM_UNREACHABLE');
      expect(away.receipts.synced_at).toBe(last.receipts.synced_at);
      expect(away.receipts.attempted_at).not.toBeNull();
      expect(away.spent.outside).toEqual(last.spent.outside);
    } finally {
      gate.open();
    }
    expect((await sync()).receipts.outcome).toBe('ok');
  });
});
