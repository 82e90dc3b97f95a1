import { formatMicros, sumMicros } from '../../lib/money';
import { formatRate, projectSpend, type Spend } from './aggregate';
import { formatCount as count } from './format';

export interface SpendView {
  spentMicros: number;
  adopted: number;
  adoptedUnpriced: number;
  /** The projected spend of the undecided items and how it was computed, or why there is none. */
  projection: { micros: number; how: string } | { micros: null; why: string };
}

/** One subscription's spend in words: so far, and projected at its own acceptance rate (how, or why not). */
export function spendView(spend: Spend): SpendView {
  const projection = projectSpend(spend);
  const base = { spentMicros: spend.spentMicros, adopted: spend.adoptedSimulated, adoptedUnpriced: spend.adoptedUnpriced };
  if (projection)
    return {
      ...base,
      projection: {
        micros: projection.projectedMicros,
        how: `Undecided ${count(projection.undecided)} × ${formatRate(projection.adopted, projection.disputed)} accepted (${count(projection.adopted)} adopted of ${count(projection.adopted + projection.disputed)} decided) × average price ${formatMicros(projection.averageMicros)}; computed exactly as the undecided items’ prices (${formatMicros(spend.undecidedMicros)}) × adopted ÷ decided, rounded to the micro-dollar.`,
      },
    };
  const why =
    spend.undecidedPriced === 0
      ? 'Nothing to project: no undecided simulated item with a price.'
      : 'No acceptance rate yet: adopt or dispute some simulated items, then the undecided ones are projected at that rate.';
  return { ...base, projection: { micros: null, why } };
}

/**
 * The organization's spend: the sum of its subscriptions', each projected at its own acceptance
 * rate (a subscription without a rate yet adds nothing, and the text says how many are left out).
 */
export function organizationSpendView(parts: readonly Spend[]): SpendView | null {
  const simulated = parts.filter((p) => p.items > 0);
  if (simulated.length === 0) return null;
  const projections = simulated.map(projectSpend);
  const projected = projections.filter((p) => p !== null);
  const base = {
    spentMicros: sumMicros(simulated.map((p) => p.spentMicros)),
    adopted: simulated.reduce((n, p) => n + p.adoptedSimulated, 0),
    adoptedUnpriced: simulated.reduce((n, p) => n + p.adoptedUnpriced, 0),
  };
  if (projected.length === 0)
    return { ...base, projection: { micros: null, why: 'No simulated subscription has both an acceptance rate and undecided priced items yet.' } };
  const left = simulated.length - projected.length;
  return {
    ...base,
    projection: {
      micros: sumMicros(projected.map((p) => p.projectedMicros)),
      how: `The sum of each simulated subscription’s projection: its undecided items × its own acceptance rate × their average price (see the table by subscription).${
        left ? ` ${count(left)} ${left === 1 ? 'subscription has' : 'subscriptions have'} no projection yet and ${left === 1 ? 'adds' : 'add'} nothing.` : ''
      }`,
    },
  };
}
