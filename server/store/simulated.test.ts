import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ITEM_PRICE_MICROS, ORG, OTHER_ORG, openTempStore, type TempStore } from '../tests/temp-store';
import { listReceipts } from './receipts';
import { decideItem, deliveryItems, itemOwner, listDeliveries, pullSimulated } from './simulated';

let store: TempStore;
beforeEach(() => {
  store = openTempStore();
});
afterEach(() => store.close());

describe('simulated store', () => {
  it('pulls pending items oldest first, prices in micro-USD and payloads decoded, without changing them', () => {
    const items = pullSimulated(store.db, `sim_${ORG}`, 2);
    expect(items.map((i) => [i.id, i.payload, i.unit_price_micros, i.status])).toEqual([
      [`${ORG}_i1`, { n: 1 }, ITEM_PRICE_MICROS, 'pending'],
      [`${ORG}_i2`, { n: 2 }, ITEM_PRICE_MICROS, 'pending'],
    ]);
    expect(pullSimulated(store.db, `sim_${ORG}`, 2)).toEqual(items);
  });

  it('adopts once with one receipt; repeating changes nothing; reversing is a conflict with the recorded decision', () => {
    const id = `${ORG}_i1`;
    expect(decideItem(store.db, id, ORG, 'adopted')).toEqual({ changed: true });
    expect(decideItem(store.db, id, ORG, 'adopted')).toEqual({ changed: false });
    expect(decideItem(store.db, id, ORG, 'disputed')).toEqual({ conflict: 'adopted' });
    expect(listReceipts(store.db, ORG, 10)).toEqual([expect.objectContaining({ kind: 'adopt', item_id: id, quantity: 1, amount_micros: ITEM_PRICE_MICROS })]);
    expect(pullSimulated(store.db, `sim_${ORG}`, 10).map((i) => i.id)).toEqual([`${ORG}_i2`, `${ORG}_i3`]);
  });

  it('disputes without charging, and a later adopt is a conflict', () => {
    expect(decideItem(store.db, `${ORG}_i2`, ORG, 'disputed')).toEqual({ changed: true });
    expect(decideItem(store.db, `${ORG}_i2`, ORG, 'adopted')).toEqual({ conflict: 'disputed' });
    expect(listReceipts(store.db, ORG, 10)).toEqual([]);
  });

  it('is null for an item that does not exist', () => {
    expect(itemOwner(store.db, 'nope')).toBeNull();
    expect(decideItem(store.db, 'nope', ORG, 'adopted')).toBeNull();
  });

  it('counts deliveries by status and lists a delivery’s items only for its own organization', () => {
    decideItem(store.db, `${ORG}_i1`, ORG, 'adopted');
    expect(listDeliveries(store.db, ORG, 10)).toEqual([
      expect.objectContaining({ delivery_id: `d_${ORG}`, item_count: 3, status_counts: { pending: 2, adopted: 1, disputed: 0 } }),
    ]);
    expect(deliveryItems(store.db, ORG, `d_${ORG}`)?.map((i) => i.status)).toEqual(['adopted', 'pending', 'pending']);
    expect(deliveryItems(store.db, ORG, `d_${OTHER_ORG}`)).toBeNull();
    expect(deliveryItems(store.db, ORG, 'nope')).toBeNull();
  });
});
