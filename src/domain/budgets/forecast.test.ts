import { describe, expect, it } from 'vitest';
import { forecastCharges } from './forecast';
import { NO_BUDGETS, withLimit } from './model';
import type { SpendInput } from './spend';

const NOW = new Date(2026, 10, 23, 12, 0, 0).getTime();
const input = (over: Partial<SpendInput> = {}): SpendInput => ({ receipts: [], decisions: [], now: NOW, tab: 'tab-a', ...over });
const fiveCents = withLimit(NO_BUDGETS, 'organization', undefined, 'daily', 50_000);

describe('forecastCharges', () => {
  it('clears everything, with the exact total, when no limit applies', () => {
    const f = forecastCharges(withLimit(NO_BUDGETS, 'subscription', 'other', 'daily', 1), input(), 'sim', [17_000, 17_000, null]);
    expect(f).toEqual({ subscriptionId: 'sim', limited: false, cleared: 3, clearedMicros: 34_000, held: 0, heldMicros: 0, heldBy: null });
  });

  it('splits a batch where the gate would: two 1.7¢ adopts fit in $0.05, the other eight are held', () => {
    const f = forecastCharges(fiveCents, input(), 'sim', Array<number>(10).fill(17_000));
    expect(f).toMatchObject({ limited: true, cleared: 2, clearedMicros: 34_000, held: 8, heldMicros: 136_000 });
    expect(f.heldBy).toEqual({ level: 'organization', period: 'daily', limitMicros: 50_000, spentMicros: 34_000, at: NOW });
  });

  it('counts what is already spent today: a receipt of 4¢ leaves room for one 1¢ adopt, exactly at the limit', () => {
    const spent = input({
      receipts: [{ kind: 'adopt', item_id: 'r1', subscription_id: 'sim', amount_usd: 0.04, created_at: new Date(NOW - 60_000).toISOString() }],
    });
    const f = forecastCharges(fiveCents, spent, 'sim', [10_000, 10_000]);
    expect(f).toMatchObject({ cleared: 1, clearedMicros: 10_000, held: 1, heldMicros: 10_000 });
  });

  it('lets a cheaper later adopt through when a dearer one is held, as the gate does', () => {
    const f = forecastCharges(fiveCents, input(), 'sim', [40_000, 20_000, 10_000]);
    expect(f).toMatchObject({ cleared: 2, clearedMicros: 50_000, held: 1, heldMicros: 20_000 });
  });
});
