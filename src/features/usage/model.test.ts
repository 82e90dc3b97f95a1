import { describe, expect, it } from 'vitest';
import { usageResponseSchema, type Receipt } from '../../api/contract';
import { dailySpend, exportRows, extraFields, filterReceipts, formatDecimal, totalsByDay, totalsBySubscription } from './model';

const receipt = (over: Partial<Receipt> & Record<string, unknown>): Receipt => ({
  receipt_id: 'r',
  subscription_id: 's1',
  kind: 'adopt',
  item_id: 'i',
  submission_id: null,
  quantity: 1,
  amount_usd: 0.0125,
  created_at: '2026-10-01T10:00:00Z',
  ...over,
});

describe('usage model', () => {
  it('keeps unknown receipt fields and offers them as columns', () => {
    const parsed = usageResponseSchema.parse({ data: [receipt({ invoice_line: 'L-7', region: 'eu' })], count: 1 }).data;
    expect(parsed[0]).toHaveProperty('invoice_line', 'L-7');
    expect(extraFields(parsed)).toEqual(['invoice_line', 'region']);
  });

  it('totals per subscription and per day exactly', () => {
    const receipts = [
      receipt({ amount_usd: 0.0125 }),
      receipt({ amount_usd: 0.0037, subscription_id: 's2' }),
      receipt({ amount_usd: 0.1, created_at: '2026-10-02T00:00:00Z' }),
    ];
    expect(totalsBySubscription(receipts).map((t) => [t.key, t.micros])).toEqual([
      ['s1', 112_500],
      ['s2', 3_700],
    ]);
    expect(totalsByDay(receipts).map((t) => [t.key, t.micros])).toEqual([
      ['2026-10-01', 16_200],
      ['2026-10-02', 100_000],
    ]);
    const spend = dailySpend(receipts);
    expect(spend.subscriptions).toEqual(['s1', 's2']);
    expect(spend.days[0]).toEqual({ day: '2026-10-01', bySubscription: { s1: 12_500, s2: 3_700 }, total: 16_200 });
  });

  it('filters by subscription, kind and date range', () => {
    const receipts = [receipt({ kind: 'pull' }), receipt({ subscription_id: 's2' }), receipt({ created_at: '2026-12-01T00:00:00Z' })];
    expect(filterReceipts(receipts, { kind: 'pull' })).toHaveLength(1);
    expect(filterReceipts(receipts, { sub: 's2' })).toHaveLength(1);
    expect(filterReceipts(receipts, { from: '2026-11-01' })).toHaveLength(1);
    expect(filterReceipts(receipts, { to: '2026-10-31' })).toHaveLength(2);
  });

  it('exports exact decimal amounts', () => {
    expect(exportRows([receipt({ amount_usd: 0.0037 })], ['amount_usd', 'kind'])).toEqual([{ amount_usd: '0.0037', kind: 'adopt' }]);
    expect(formatDecimal(1_000_000)).toBe('1');
    expect(formatDecimal(0)).toBe('0');
  });
});
