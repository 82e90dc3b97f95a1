import { describe, expect, it } from 'vitest';
import type { DeliveryItem, Receipt } from '../../api/contract';
import { OVER_RANGE } from '../../lib/money';
import { reconcile } from './model';

const item = (id: string, status: string, price = 0.0125, decided = '2026-10-02T10:00:00Z'): DeliveryItem => ({
  id,
  vertical_id: 'v',
  topic_id: 't',
  payload: {},
  quality_score: 1,
  quality_method: 'consensus',
  validator_count: 3,
  consensus_ratio: 1,
  unit_price_usd: price,
  created_at: '2026-10-01T00:00:00Z',
  status,
  decided_at: status === 'pending' ? null : decided,
});
const receipt = (itemId: string | null, amount: number, kind = 'adopt', at = '2026-10-02T10:00:00Z'): Receipt => ({
  receipt_id: `r-${itemId}-${amount}-${Math.random()}`,
  subscription_id: 's',
  kind,
  item_id: itemId,
  submission_id: null,
  quantity: 1,
  amount_usd: amount,
  created_at: at,
});
const known = (...items: DeliveryItem[]) => items.map((i) => ({ item: i, subscriptionId: 's' }));

describe('reconcile', () => {
  it('finds nothing when every adoption is charged its price exactly once', () => {
    const result = reconcile({
      receipts: [receipt('a', 0.0125), receipt('b', 0.0037), receipt(null, 0, 'pull')],
      receiptsComplete: true,
      items: known(item('a', 'adopted'), item('b', 'adopted', 0.0037), item('c', 'disputed'), item('d', 'pending')),
      confirmed: [],
    });
    expect(result.mismatches).toEqual([]);
    expect(result.rows).toEqual([{ subscriptionId: 's', day: '2026-10-02', expectedMicros: 16_200, actualMicros: 16_200, adoptions: 2, receipts: 3 }]);
  });

  it('lists each kind of mismatch item by item', () => {
    const result = reconcile({
      receipts: [
        receipt('disputed', 0.0125),
        receipt('twice', 0.0125),
        receipt('twice', 0.0125),
        receipt('cheap', 0.01),
        receipt('ghost', 0.5),
        receipt(null, 0.2, 'pull'),
      ],
      receiptsComplete: true,
      items: known(item('disputed', 'disputed'), item('twice', 'adopted'), item('cheap', 'adopted'), item('free', 'adopted')),
      confirmed: [],
    });
    const byItem = Object.fromEntries(result.mismatches.map((m) => [m.itemId ?? 'none', m.kind]));
    expect(byItem).toEqual({
      disputed: 'charged-not-adopted',
      twice: 'charged-twice',
      cheap: 'amount-differs',
      ghost: 'charged-not-adopted',
      none: 'charged-not-adopted',
      free: 'adopted-not-charged',
    });
    expect(result.mismatches.find((m) => m.itemId === 'cheap')).toMatchObject({ expectedMicros: 12_500, actualMicros: 10_000 });
  });

  it('counts the console’s own confirmed adopts as expected charges', () => {
    const result = reconcile({
      receipts: [],
      receiptsComplete: true,
      items: [],
      confirmed: [{ itemId: 'x', subscriptionId: 's', priceMicros: 3_700, at: '2026-10-03T00:00:00Z' }],
    });
    expect(result.mismatches).toMatchObject([{ kind: 'adopted-not-charged', itemId: 'x', expectedMicros: 3_700 }]);
  });

  it('does not judge adoptions older than a truncated receipt window', () => {
    const result = reconcile({
      receipts: [receipt('new', 0.0125, 'adopt', '2026-10-05T00:00:00Z')],
      receiptsComplete: false,
      items: known(item('new', 'adopted', 0.0125, '2026-10-05T00:00:00Z'), item('old', 'adopted', 0.0125, '2026-09-01T00:00:00Z')),
      confirmed: [],
    });
    expect(result.mismatches).toEqual([]);
    expect(result.unchecked).toBe(1);
    expect(result.windowStart).toBe('2026-10-05T00:00:00Z');
  });

  it('reconciles books past the exact integer range: the totals say "over", every mismatch is listed', () => {
    const result = reconcile({
      receipts: [receipt('a', 5_000_000_000), receipt('b', 5_000_000_000), receipt(null, 1, 'pull')],
      receiptsComplete: true,
      items: known(item('a', 'adopted', 5_000_000_000), item('b', 'adopted', 5_000_000_000)),
      confirmed: [],
    });
    expect(result.rows).toEqual([{ subscriptionId: 's', day: '2026-10-02', expectedMicros: OVER_RANGE, actualMicros: OVER_RANGE, adoptions: 2, receipts: 3 }]);
    expect(result.mismatches.map((m) => [m.kind, m.actualMicros])).toEqual([['charged-not-adopted', 1_000_000]]);
  });
});
