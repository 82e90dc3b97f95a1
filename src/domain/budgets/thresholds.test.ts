import { describe, expect, it } from 'vitest';
import { NO_BUDGETS, withLimit } from './model';
import type { SpendDecision, SpendInput } from './spend';
import { crossedThresholds } from './thresholds';

const NOW = new Date(2026, 10, 23, 12).getTime();
const spent = (...prices: number[]): SpendInput => ({
  receipts: [],
  decisions: prices.map((priceMicros, i): SpendDecision => ({
    id: `d${i}`,
    kind: 'simulated',
    decision: 'adopt',
    itemId: `i${i}`,
    subscriptionId: 'sim',
    state: 'sent',
    priceMicros,
    createdAt: i,
    budget: { at: NOW - 1, tab: 't' },
  })),
  now: NOW,
  tab: 't',
});
const percents = (input: SpendInput, limit = 50_000) =>
  crossedThresholds(withLimit(NO_BUDGETS, 'organization', undefined, 'daily', limit), input, [], 'S').map((c) => c.percent);

describe('budget notices', () => {
  it('names the highest threshold reached, at exact boundaries', () => {
    expect(percents(spent())).toEqual([]);
    expect(percents(spent(24_999))).toEqual([]);
    expect(percents(spent(25_000))).toEqual([50]);
    expect(percents(spent(17_000, 17_000))).toEqual([50]);
    expect(percents(spent(40_000))).toEqual([80]);
    expect(percents(spent(49_999))).toEqual([80]);
    expect(percents(spent(50_000))).toEqual([100]);
    expect(percents(spent(1), 0)).toEqual([100]);
  });

  it('keys a notice by limit, period and threshold: the same one the next day is a new notice', () => {
    const budgets = withLimit(withLimit(NO_BUDGETS, 'organization', undefined, 'daily', 50_000), 'subscription', 'sim', 'monthly', 30_000);
    const today = crossedThresholds(budgets, spent(25_000), ['sim'], 'S');
    expect(today.map((c) => [c.ref.level, c.ref.period, c.percent])).toEqual([
      ['organization', 'daily', 50],
      ['subscription', 'monthly', 80],
    ]);
    const tomorrow = crossedThresholds(budgets, { ...spent(25_000), now: NOW + 86_400_000 }, ['sim'], 'S');
    // Cleared yesterday: not today's spend; still this month's.
    expect(tomorrow.map((c) => c.ref.period)).toEqual(['monthly']);
    expect(tomorrow[0]!.key).toBe(today[1]!.key);
    expect(new Set(today.map((c) => c.key)).size).toBe(2);
  });
});
