import { limitsFor, type Budgets, type LimitRef } from './model';
import { periodKey } from './periods';
import { spentAgainst, type SpendInput } from './spend';

/** Notices are given at these shares of a limit, once each per period. */
const THRESHOLDS = [50, 80, 100] as const;

export interface Crossed {
  /** Names this threshold of this limit in this period (a day, a month, a visit). */
  key: string;
  ref: LimitRef;
  percent: (typeof THRESHOLDS)[number];
  spentMicros: number;
}

/** Whether `spent` reached `percent`% of `limit`, exactly (in bigints: no float, no overflow). */
const reached = (spent: number, limit: number, percent: number) => BigInt(spent) * 100n >= BigInt(limit) * BigInt(percent);

/**
 * For every limit (the organization's, and each of `subscriptionIds`'), the highest threshold its
 * spend has reached now. A zero limit counts as reached at every threshold once anything is spent.
 */
export function crossedThresholds(budgets: Budgets, input: SpendInput, subscriptionIds: readonly string[], scope: string): Crossed[] {
  const refs = [...limitsFor(budgets, ''), ...subscriptionIds.flatMap((id) => limitsFor({ organization: {}, subscriptions: budgets.subscriptions }, id))];
  const crossed: Crossed[] = [];
  for (const ref of refs) {
    const spent = spentAgainst(ref, input);
    if (!Number.isSafeInteger(spent) || spent === 0) continue;
    const percent = [...THRESHOLDS].reverse().find((t) => reached(spent, ref.limitMicros, t));
    if (!percent) continue;
    const key = [scope, ref.level, ref.subscriptionId ?? '', periodKey(ref.period, input.now, input.tab), percent].join('|');
    crossed.push({ key, ref, percent, spentMicros: spent });
  }
  return crossed;
}
