import { describe, expect, it } from 'vitest';
import { formatMicros, OVER_RANGE } from '../../lib/money';
import { usageResponseSchema, type Receipt } from '../../api/contract';
import { dailySpend, daysBetween, exportRows, extraFields, filterReceipts, MAX_AXIS_DAYS, subscriptionColor, totalsByDay, totalsBySubscription } from './model';

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

  it('draws every calendar day between the first and the last receipt, empty days included', () => {
    const spend = dailySpend([receipt({ created_at: '2026-10-06T09:00:00Z' }), receipt({ created_at: '2026-11-22T09:00:00Z', subscription_id: 's2' })]);
    expect(spend.continuous).toBe(true);
    expect(spend.days).toHaveLength(48);
    expect(spend.days[0]!.day).toBe('2026-10-06');
    expect(spend.days[1]).toEqual({ day: '2026-10-07', bySubscription: {}, total: 0 });
    expect(spend.days.at(-1)!.day).toBe('2026-11-22');
    // Month and year ends, leap day.
    expect(daysBetween('2028-02-27', '2028-03-01')).toEqual(['2028-02-27', '2028-02-28', '2028-02-29', '2028-03-01']);
    expect(daysBetween('2026-12-31', '2027-01-01')).toEqual(['2026-12-31', '2027-01-01']);
  });

  it('spans the filter range when one is given, and lists only days with receipts past two years', () => {
    const within = dailySpend([receipt({ created_at: '2026-10-03T00:00:00Z' })], { from: '2026-10-01', to: '2026-10-05' });
    expect(within.days.map((d) => d.day)).toEqual(['2026-10-01', '2026-10-02', '2026-10-03', '2026-10-04', '2026-10-05']);
    const wide = dailySpend([receipt({ created_at: '2020-01-01T00:00:00Z' }), receipt({ created_at: '2026-01-01T00:00:00Z' })]);
    expect(wide.continuous).toBe(false);
    expect(wide.days.map((d) => d.day)).toEqual(['2020-01-01', '2026-01-01']);
    expect(daysBetween('2026-01-01', '2026-01-01', MAX_AXIS_DAYS)).toEqual(['2026-01-01']);
    expect(daysBetween('2026-01-02', '2026-01-01')).toBeNull();
  });

  const PINNED = ['hsl(15 70% 55%)', 'hsl(315 70% 55%)', 'hsl(195 70% 55%)', 'hsl(285 70% 42%)', 'hsl(180 70% 42%)'];

  it('gives each subscription a colour of its own ID, whatever the other subscriptions are', () => {
    const ids = Array.from({ length: 50 }, (_, i) => `sub_${i}`);
    // Pinned: a subscription keeps its colour from one release to the next.
    expect(['sub_sim_retail', 'sub_sim_support', 'sub_sim_product', 'sub_live_streets', 'sub_live_support'].map(subscriptionColor)).toEqual(PINNED);
    // The demo's five subscriptions get five different colours, and IDs spread over the palette.
    expect(new Set(PINNED).size).toBe(5);
    expect(new Set(ids.map(subscriptionColor)).size).toBeGreaterThan(30);
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
    expect(exportRows([receipt({ amount_usd: 1 }), receipt({ amount_usd: 0 })], ['amount_usd'])).toEqual([{ amount_usd: '1' }, { amount_usd: '0' }]);
  });

  it('gives totals past the exact integer range as "over", with every receipt still counted', () => {
    const receipts = [
      receipt({ amount_usd: 5_000_000_000 }),
      receipt({ amount_usd: 5_000_000_000, receipt_id: 'r2' }),
      receipt({ amount_usd: 0.0125, subscription_id: 's2' }),
    ];
    expect(totalsBySubscription(receipts).map((t) => [t.key, t.receipts, t.micros])).toEqual([
      ['s1', 2, OVER_RANGE],
      ['s2', 1, 12_500],
    ]);
    expect(totalsByDay(receipts).map((t) => formatMicros(t.micros))).toEqual(['over $9,007,199,254']);
    const spend = dailySpend(receipts);
    expect(spend.days.map((d) => [d.bySubscription.s1, d.bySubscription.s2, d.total])).toEqual([[OVER_RANGE, 12_500, OVER_RANGE]]);
  });
});
