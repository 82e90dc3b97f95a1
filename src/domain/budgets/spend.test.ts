import { describe, expect, it } from 'vitest';
import { OVER_RANGE } from '../../lib/money';
import { hasLimits, NO_BUDGETS, withLimit, type Budgets } from './model';
import { parseMoneyText } from './money-text';
import { daySpan, monthSpan } from './periods';
import { decideCharges, spentAgainst, type SpendDecision, type SpendInput, type SpendReceipt } from './spend';

// Local noon on 23 Nov 2026: the day and month are the user's calendar ones.
const NOW = new Date(2026, 10, 23, 12, 0, 0).getTime();
const TAB = 'tab-a';
const daily = (micros: number, level: 'organization' | 'subscription' = 'organization', sub?: string): Budgets =>
  withLimit(NO_BUDGETS, level, sub, 'daily', micros);

let n = 0;
function adopt(over: Partial<SpendDecision> = {}): SpendDecision {
  n++;
  return {
    id: `d${n}`,
    kind: 'simulated',
    decision: 'adopt',
    itemId: `i${n}`,
    subscriptionId: 'sim',
    state: 'queued',
    priceMicros: 17_000,
    createdAt: n,
    ...over,
  };
}
const cleared = (over: Partial<SpendDecision> = {}) => adopt({ budget: { at: NOW - 1_000, tab: TAB }, ...over });
const receipt = (over: Partial<SpendReceipt> = {}): SpendReceipt => ({
  kind: 'adopt',
  item_id: `r${++n}`,
  subscription_id: 'sim',
  amount_usd: 0.017,
  created_at: new Date(NOW - 60_000).toISOString(),
  ...over,
});
const input = (over: Partial<SpendInput> = {}): SpendInput => ({ receipts: [], decisions: [], now: NOW, tab: TAB, ...over });
const outcomes = (budgets: Budgets, given: SpendInput, candidates: SpendDecision[]) => decideCharges(budgets, given, candidates).map((v) => v.outcome);

describe('budget arithmetic', () => {
  it('holds the third 1.7¢ adopt under a $0.05 daily limit: 2 × 17,000 = 34,000 fit, 51,000 would pass 50,000', () => {
    const three = [adopt(), adopt(), adopt(), adopt()];
    expect(outcomes(daily(50_000), input(), three)).toEqual(['cleared', 'cleared', 'held', 'held']);
    const held = decideCharges(daily(50_000), input(), three)[2];
    expect(held).toEqual({
      id: three[2]!.id,
      outcome: 'held',
      heldBy: { level: 'organization', period: 'daily', limitMicros: 50_000, spentMicros: 34_000, at: NOW },
    });
  });

  it('allows spend equal to the limit exactly, and not one micro-USD past it', () => {
    expect(outcomes(daily(51_000), input(), [adopt(), adopt(), adopt()])).toEqual(['cleared', 'cleared', 'cleared']);
    expect(outcomes(daily(50_999), input(), [adopt(), adopt(), adopt()])).toEqual(['cleared', 'cleared', 'held']);
    expect(outcomes(daily(0), input(), [adopt({ priceMicros: 0 }), adopt({ priceMicros: 1 })])).toEqual(['cleared', 'held']);
  });

  it('adds fractional-cent prices exactly (0.1 + 0.2 style floats would not)', () => {
    // 100,000 + 200,000 = 300,000 micro-USD exactly; in floats 0.1 + 0.2 > 0.3.
    const limit = daily(300_000);
    expect(outcomes(limit, input(), [adopt({ priceMicros: 100_000 }), adopt({ priceMicros: 200_000 })])).toEqual(['cleared', 'cleared']);
    const receipts = [receipt({ amount_usd: 0.1 }), receipt({ amount_usd: 0.2 })];
    expect(spentAgainst({ level: 'organization', period: 'daily' }, input({ receipts }))).toBe(300_000);
    expect(outcomes(limit, input({ receipts }), [adopt({ priceMicros: 1 })])).toEqual(['held']);
    expect(parseMoneyText('0.0123')).toEqual({ micros: 12_300 });
  });

  it('counts confirmed receipts and cleared decisions, each item once', () => {
    const sentWithReceipt = cleared({ state: 'sent', itemId: 'x1' });
    const sentNoReceiptYet = cleared({ state: 'sent', itemId: 'x2' });
    const onItsWay = cleared({ state: 'queued', itemId: 'x3' });
    const given = input({
      receipts: [receipt({ item_id: 'x1' }), receipt({ item_id: 'other-device' }), receipt({ kind: 'pull', amount_usd: 5 })],
      decisions: [
        sentWithReceipt,
        sentNoReceiptYet,
        onItsWay,
        // Not spend: never cleared, held, discarded, failed, expired, in conflict, live, a dispute.
        adopt({ state: 'queued' }),
        adopt({ state: 'held-budget' }),
        cleared({ state: 'discarded' }),
        cleared({ state: 'failed' }),
        cleared({ state: 'expired' }),
        cleared({ state: 'conflict' }),
        cleared({ kind: 'live' }),
        cleared({ decision: 'dispute' }),
      ],
    });
    // Receipts x1 and other-device, decisions x2 and x3: 4 × 17,000.
    expect(spentAgainst({ level: 'organization', period: 'daily' }, given)).toBe(68_000);
    expect(spentAgainst({ level: 'organization', period: 'monthly' }, given)).toBe(68_000);
    // The visit counts only what this tab cleared (x1, x2, x3), receipts aside.
    expect(spentAgainst({ level: 'organization', period: 'visit' }, given)).toBe(51_000);
    expect(spentAgainst({ level: 'organization', period: 'visit' }, { ...given, tab: 'tab-b' })).toBe(0);
  });

  it('counts a period by the local calendar: yesterday’s and last month’s charges do not count today', () => {
    const { start } = daySpan(NOW);
    const month = monthSpan(NOW);
    const given = input({
      receipts: [receipt({ created_at: new Date(start - 1).toISOString() }), receipt({ created_at: new Date(start).toISOString() })],
      decisions: [cleared({ budget: { at: month.start - 1, tab: TAB } }), cleared({ budget: { at: month.start, tab: TAB } })],
    });
    expect(spentAgainst({ level: 'organization', period: 'daily' }, given)).toBe(17_000);
    // In the month: the receipts of today and just before midnight, and the decision cleared on the 1st.
    expect(spentAgainst({ level: 'organization', period: 'monthly' }, given)).toBe(51_000);
    expect(new Date(start).getHours()).toBe(0);
    expect(new Date(month.start).getDate()).toBe(1);
  });

  it('applies a subscription’s limits to its own decisions only, and the organization’s to all', () => {
    const budgets = withLimit(daily(100_000), 'subscription', 'sim', 'daily', 20_000);
    expect(hasLimits(withLimit(NO_BUDGETS, 'subscription', 'sim', 'monthly', 1), 'other')).toBe(false);
    expect(hasLimits(budgets, 'other')).toBe(true);
    const decided = outcomes(budgets, input(), [adopt(), adopt(), adopt({ subscriptionId: 'other' }), adopt({ subscriptionId: 'other' })]);
    // sim: 17,000 fits 20,000, the next does not; other: two more fit the organization's 100,000 (17k + 34k).
    expect(decided).toEqual(['cleared', 'held', 'cleared', 'cleared']);
    const held = decideCharges(budgets, input(), [adopt(), adopt()])[1];
    expect(held).toMatchObject({ outcome: 'held', heldBy: { level: 'subscription', period: 'daily', limitMicros: 20_000 } });
  });

  it('enforces the monthly and per-visit limits, a cheaper later decision may still fit', () => {
    const monthly = withLimit(NO_BUDGETS, 'organization', undefined, 'monthly', 40_000);
    const given = input({ receipts: [receipt({ created_at: new Date(monthSpan(NOW).start + 1).toISOString() })] });
    expect(outcomes(monthly, given, [adopt(), adopt(), adopt({ priceMicros: 6_000 })])).toEqual(['cleared', 'held', 'cleared']);
    const visit = withLimit(NO_BUDGETS, 'organization', undefined, 'visit', 17_000);
    expect(outcomes(visit, input({ decisions: [cleared({ budget: { at: NOW, tab: 'tab-b' } })] }), [adopt(), adopt()])).toEqual(['cleared', 'held']);
  });

  it('reads money typed as text exactly, and says why it refuses', () => {
    expect(parseMoneyText('0.05')).toEqual({ micros: 50_000 });
    expect(parseMoneyText(' $1,250.5 ')).toEqual({ micros: 1_250_500_000 });
    expect(parseMoneyText('.017')).toEqual({ micros: 17_000 });
    expect(parseMoneyText('0.1234567')).toHaveProperty('error');
    expect(parseMoneyText('-1')).toHaveProperty('error');
    expect(parseMoneyText('abc')).toHaveProperty('error');
    expect(parseMoneyText('')).toHaveProperty('error');
    expect(parseMoneyText('99999999999999')).toHaveProperty('error');
  });
  it('weighs a receipt it cannot read (an amount past the exact range, a time that is no time) against the limit, never throws', () => {
    // A hostile or broken service: $1e12 is past the exact micro-USD range; the page and the gate must still answer, held.
    const huge = input({ receipts: [receipt({ amount_usd: 1e12 })] });
    expect(spentAgainst({ level: 'organization', period: 'daily' }, huge)).toBe(OVER_RANGE);
    expect(outcomes(daily(1_000_000_000), huge, [adopt()])).toEqual(['held']);
    // A receipt with no readable time is counted now (the safe side), not dropped from every period.
    const timeless = input({ receipts: [receipt({ created_at: 'yesterday-ish' })] });
    expect(spentAgainst({ level: 'organization', period: 'daily' }, timeless)).toBe(17_000);
    expect(outcomes(daily(20_000), timeless, [adopt()])).toEqual(['held']);
  });
});
