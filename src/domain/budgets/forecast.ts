import { sumMicros } from '../../lib/money';
import { hasLimits, type Budgets } from './model';
import { decideCharges, type HeldBy, type SpendInput } from './spend';

/** What the budget gate would do with a batch of charged adopts sent now. */
export interface ChargeForecast {
  subscriptionId: string;
  /** Some limit applies to the subscription (otherwise everything is cleared). */
  limited: boolean;
  cleared: number;
  clearedMicros: number;
  held: number;
  heldMicros: number;
  /** The first limit the first held adopt would pass, as the gate records it. */
  heldBy: HeldBy | null;
}

/**
 * Weighs `prices` (one per adopt, in the order they would be sent; null: price unknown, counted
 * as 0 as the gate does) with the gate's own arithmetic against what is spent now. A forecast,
 * not a promise: the gate decides again when each leaves, and spend in another tab meanwhile
 * counts then.
 */
export function forecastCharges(budgets: Budgets, input: SpendInput, subscriptionId: string, prices: readonly (number | null)[]): ChargeForecast {
  if (!hasLimits(budgets, subscriptionId)) {
    const known = prices.map((p) => p ?? 0);
    return { subscriptionId, limited: false, cleared: prices.length, clearedMicros: sumMicros(known), held: 0, heldMicros: 0, heldBy: null };
  }
  const candidates = prices.map((priceMicros, i) => ({
    id: `forecast-${i}`,
    kind: 'simulated' as const,
    decision: 'adopt' as const,
    itemId: `forecast-${i}`,
    subscriptionId,
    state: 'grace' as const,
    priceMicros,
    createdAt: input.now,
  }));
  const verdicts = decideCharges(budgets, input, candidates);
  const cleared: number[] = [];
  const held: number[] = [];
  let heldBy: ChargeForecast['heldBy'] = null;
  verdicts.forEach((v, i) => {
    const price = prices[i] ?? 0;
    if (v.outcome === 'cleared') cleared.push(price);
    else {
      held.push(price);
      heldBy ??= v.heldBy;
    }
  });
  return { subscriptionId, limited: true, cleared: cleared.length, clearedMicros: sumMicros(cleared), held: held.length, heldMicros: sumMicros(held), heldBy };
}
