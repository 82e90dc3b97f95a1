import { isOverRange, OVER_RANGE, sumMicros } from '../../lib/money';
import { NO_REASON, OTHER, parseReason, type ReasonCode } from '../dispute-reasons';
import type { TriageRow, TriageState } from '../../domain/triage';

/**
 * Statistics of a subscription's triage rows, in one pass over them (100,000 rows are read once,
 * with no sort and no intermediate array), then merged across subscriptions for the organization.
 * Counts are integers and money is integer micro-USD: every number shown in words comes from them.
 */

/** What acceptance is broken down by: the stored item's field for each. */
export const DIMENSIONS = ['task', 'campaign', 'source', 'grade'] as const;
export type Dimension = (typeof DIMENSIONS)[number];
export const DIMENSION_LABELS: Record<Dimension, string> = { task: 'Task', campaign: 'Campaign', source: 'Source', grade: 'Quality grade' };

/** The histogram's split by decision: waiting, failed and discarded decisions are "other". */
export const DECISION_GROUPS = ['undecided', 'adopted', 'disputed', 'other'] as const;
export type DecisionGroup = (typeof DECISION_GROUPS)[number];
export const DECISION_GROUP_LABELS: Record<DecisionGroup, string> = {
  undecided: 'Undecided',
  adopted: 'Adopted',
  disputed: 'Disputed',
  other: 'Other (waiting to send, failed, discarded)',
};
const GROUP_OF: Record<TriageState, DecisionGroup> = {
  undecided: 'undecided',
  adopted: 'adopted',
  disputed: 'disputed',
  waiting: 'other',
  failed: 'other',
  discarded: 'other',
};

/** Quality scores are on a 0 to 1 scale (spec 2.5, 2.7): ten bins of 0.1, the last one closed. */
const HISTOGRAM_BINS = 10;
/** A value missing from an item (no task, no grade…) is counted under this key. */
export const NONE_KEY = '(none)';
const DAY_MS = 24 * 60 * 60 * 1000;
/** Past this many days between the first and the last delivery, empty days are not filled in. */
const MAX_FILLED_DAYS = 1_000;

export type GroupCounts = Record<DecisionGroup, number>;
type StateCounts = Record<TriageState, number>;

/** Adopted and disputed items among those with one value of a dimension (all: every item with it). */
export interface AcceptanceCount {
  key: string;
  items: number;
  adopted: number;
  disputed: number;
}

export interface Spend {
  /** Simulated items held. */
  items: number;
  /** Adopted simulated items' prices (exact, or OVER_RANGE). */
  spentMicros: number;
  adoptedSimulated: number;
  disputedSimulated: number;
  /** Adopted simulated items without a price (none are known to be free: they are left out of the spend). */
  adoptedUnpriced: number;
  /** Undecided simulated items, and the total of the prices of those priced. */
  undecided: number;
  undecidedPriced: number;
  undecidedMicros: number;
}

export interface SubscriptionStats {
  items: number;
  states: StateCounts;
  acceptance: Record<Dimension, Map<string, AcceptanceCount>>;
  /** Per bin (index 0: [0, 0.1)… index 9: [0.9, 1]), items per decision group. */
  histogram: GroupCounts[];
  /** Items without a score, and with a score outside 0 to 1, per decision group. */
  unscored: GroupCounts;
  outOfScale: GroupCounts;
  /** Items received per UTC day, keyed by the day's number since 1970-01-01. */
  receivedByDay: Map<number, number>;
  /**
   * Disputed items by the code their reason starts with (parseReason): a known code, OTHER, or
   * NO_REASON (none given, or decided where this console did not record it).
   */
  disputeReasons: Map<string, number>;
  spend: Spend;
}

const groupCounts = (): GroupCounts => ({ undecided: 0, adopted: 0, disputed: 0, other: 0 });
const stateCounts = (): StateCounts => ({ undecided: 0, adopted: 0, disputed: 0, waiting: 0, failed: 0, discarded: 0 });
const emptySpend = (): Spend => ({
  items: 0,
  spentMicros: 0,
  adoptedSimulated: 0,
  disputedSimulated: 0,
  adoptedUnpriced: 0,
  undecided: 0,
  undecidedPriced: 0,
  undecidedMicros: 0,
});

function emptyStats(): SubscriptionStats {
  return {
    items: 0,
    states: stateCounts(),
    acceptance: { task: new Map(), campaign: new Map(), source: new Map(), grade: new Map() },
    histogram: Array.from({ length: HISTOGRAM_BINS }, groupCounts),
    unscored: groupCounts(),
    outOfScale: groupCounts(),
    receivedByDay: new Map(),
    disputeReasons: new Map(),
    spend: emptySpend(),
  };
}

/** Adds two micro-USD amounts exactly (a total past the range becomes the over-range marker). */
const addMicros = (a: number, b: number): number => (Number.isSafeInteger(a + b) ? a + b : sumMicros([a, b]));

function countAcceptance(map: Map<string, AcceptanceCount>, value: string | null, group: DecisionGroup): void {
  const key = value ?? NONE_KEY;
  let count = map.get(key);
  if (!count) map.set(key, (count = { key, items: 0, adopted: 0, disputed: 0 }));
  count.items++;
  if (group === 'adopted') count.adopted++;
  else if (group === 'disputed') count.disputed++;
}

/** The bin of a quality score, or -1 when it lies outside the 0 to 1 scale. */
export function binOf(score: number): number {
  if (!(score >= 0 && score <= 1)) return -1;
  return score === 1 ? HISTOGRAM_BINS - 1 : Math.floor(score * HISTOGRAM_BINS);
}

/** One subscription's statistics (or any set of rows), in one pass; `codes`: the organization's reason codes. */
export function statsOf(rows: Iterable<TriageRow>, codes: readonly string[] = []): SubscriptionStats {
  const stats = emptyStats();
  const { acceptance, histogram, receivedByDay, spend, states } = stats;
  for (const row of rows) {
    const { item, state } = row;
    const group = GROUP_OF[state];
    stats.items++;
    states[state]++;
    countAcceptance(acceptance.task, item.taskId, group);
    countAcceptance(acceptance.campaign, item.campaignId, group);
    countAcceptance(acceptance.source, item.source, group);
    countAcceptance(acceptance.grade, item.qualityGrade, group);

    const score = item.qualityScore;
    if (score === null) stats.unscored[group]++;
    else {
      const bin = binOf(score);
      if (bin < 0) stats.outOfScale[group]++;
      else histogram[bin]![group]++;
    }

    const day = Math.floor(item.receivedAt / DAY_MS);
    receivedByDay.set(day, (receivedByDay.get(day) ?? 0) + 1);

    if (group === 'disputed') {
      const { code } = parseReason(row.entry?.reason, codes);
      stats.disputeReasons.set(code, (stats.disputeReasons.get(code) ?? 0) + 1);
    }

    if (item.kind === 'simulated') {
      spend.items++;
      const price = item.priceMicros;
      if (group === 'adopted') {
        spend.adoptedSimulated++;
        if (price === null) spend.adoptedUnpriced++;
        else spend.spentMicros = addMicros(spend.spentMicros, price);
      } else if (group === 'disputed') spend.disputedSimulated++;
      else if (group === 'undecided') {
        spend.undecided++;
        if (price !== null) {
          spend.undecidedPriced++;
          spend.undecidedMicros = addMicros(spend.undecidedMicros, price);
        }
      }
    }
  }
  return stats;
}

/** Several subscriptions' statistics as one (the organization's): counts add, money adds exactly. */
export function mergeStats(parts: readonly SubscriptionStats[]): SubscriptionStats {
  const total = emptyStats();
  for (const part of parts) {
    total.items += part.items;
    for (const state of Object.keys(part.states) as TriageState[]) total.states[state] += part.states[state];
    for (const dimension of DIMENSIONS) {
      const into = total.acceptance[dimension];
      for (const [key, count] of part.acceptance[dimension]) {
        const current = into.get(key);
        if (!current) into.set(key, { ...count });
        else {
          current.items += count.items;
          current.adopted += count.adopted;
          current.disputed += count.disputed;
        }
      }
    }
    part.histogram.forEach((bin, index) => addGroups(total.histogram[index]!, bin));
    addGroups(total.unscored, part.unscored);
    addGroups(total.outOfScale, part.outOfScale);
    for (const [day, count] of part.receivedByDay) total.receivedByDay.set(day, (total.receivedByDay.get(day) ?? 0) + count);
    for (const [code, count] of part.disputeReasons) total.disputeReasons.set(code, (total.disputeReasons.get(code) ?? 0) + count);
    const s = total.spend;
    const p = part.spend;
    s.items += p.items;
    s.spentMicros = sumMicros([s.spentMicros, p.spentMicros]);
    s.adoptedSimulated += p.adoptedSimulated;
    s.disputedSimulated += p.disputedSimulated;
    s.adoptedUnpriced += p.adoptedUnpriced;
    s.undecided += p.undecided;
    s.undecidedPriced += p.undecidedPriced;
    s.undecidedMicros = sumMicros([s.undecidedMicros, p.undecidedMicros]);
  }
  return total;
}

function addGroups(into: GroupCounts, from: GroupCounts): void {
  for (const group of DECISION_GROUPS) into[group] += from[group];
}

/** "62.5%": at most one decimal, never rounded to 100% or 0% unless it is. */
export function formatRate(adopted: number, disputed: number): string {
  const decided = adopted + disputed;
  if (decided === 0) return '—';
  if (adopted === decided) return '100%';
  if (adopted === 0) return '0%';
  const tenths = Math.round((adopted * 1000) / decided);
  const clamped = Math.min(999, Math.max(1, tenths));
  return `${Math.floor(clamped / 10)}${clamped % 10 ? `.${clamped % 10}` : ''}%`;
}

/** A dimension's rows for a table: the most items first, ties by key. */
export function acceptanceRows(map: Map<string, AcceptanceCount>): AcceptanceCount[] {
  return [...map.values()].sort((a, b) => b.items - a.items || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** "0.0–0.1" … "0.9–1.0": the bins' labels. */
export const binLabel = (index: number): string => `${(index / HISTOGRAM_BINS).toFixed(1)}–${((index + 1) / HISTOGRAM_BINS).toFixed(1)}`;

/** Items received per UTC day, `YYYY-MM-DD`, oldest first, empty days between included (up to a limit). */
export function receivedPerDay(byDay: Map<number, number>): { day: string; items: number }[] {
  if (byDay.size === 0) return [];
  let first = Infinity;
  let last = -Infinity;
  for (const day of byDay.keys()) {
    first = Math.min(first, day);
    last = Math.max(last, day);
  }
  const days = last - first + 1 <= MAX_FILLED_DAYS ? Array.from({ length: last - first + 1 }, (_, i) => first + i) : [...byDay.keys()].sort((a, b) => a - b);
  return days.map((day) => ({ day: new Date(day * DAY_MS).toISOString().slice(0, 10), items: byDay.get(day) ?? 0 }));
}

export interface Projection {
  /** The undecided simulated items' projected spend at the current acceptance rate, rounded to the micro-USD. */
  projectedMicros: number;
  undecided: number;
  adopted: number;
  disputed: number;
  /** The undecided items' average price (rounded to the micro-USD; for the explanation only). */
  averageMicros: number;
}

/**
 * The projected spend of the undecided simulated items if they are accepted at the rate seen so
 * far: their prices' total × adopted / (adopted + disputed), in exact integer arithmetic (bigint),
 * rounded half up to the micro-USD. That is "undecided × rate × average price" without a float.
 * Null before any simulated item is decided (no rate yet) or with no priced undecided item.
 */
export function projectSpend(spend: Spend): Projection | null {
  const decided = spend.adoptedSimulated + spend.disputedSimulated;
  if (decided === 0 || spend.undecidedPriced === 0 || isOverRange(spend.undecidedMicros)) return null;
  const projected = divideRounded(BigInt(spend.undecidedMicros) * BigInt(spend.adoptedSimulated), BigInt(decided));
  return {
    projectedMicros: projected > BigInt(Number.MAX_SAFE_INTEGER) ? OVER_RANGE : Number(projected),
    undecided: spend.undecidedPriced,
    adopted: spend.adoptedSimulated,
    disputed: spend.disputedSimulated,
    averageMicros: Number(divideRounded(BigInt(spend.undecidedMicros), BigInt(spend.undecidedPriced))),
  };
}

/** a / b rounded half up, for non-negative a and positive b. */
const divideRounded = (a: bigint, b: bigint): bigint => (a * 2n + b) / (b * 2n);

export interface ReasonRow {
  code: string;
  label: string;
  disputes: number;
}

/**
 * Disputes by reason for a table: every code of the organization in its order (none disputed
 * counts 0), then codes no longer in the list, then "other" and "no reason" when they occur.
 */
export function disputeReasonRows(counts: Map<string, number>, reasons: readonly ReasonCode[]): ReasonRow[] {
  const rows: ReasonRow[] = reasons.map((r) => ({ code: r.code, label: r.label, disputes: counts.get(r.code) ?? 0 }));
  const listed = new Set(reasons.map((r) => r.code));
  for (const [code, disputes] of counts) {
    if (!listed.has(code) && code !== OTHER && code !== NO_REASON) rows.push({ code, label: code, disputes });
  }
  if (counts.get(OTHER)) rows.push({ code: OTHER, label: 'Other (a reason naming no code)', disputes: counts.get(OTHER)! });
  if (counts.get(NO_REASON)) rows.push({ code: NO_REASON, label: 'No reason', disputes: counts.get(NO_REASON)! });
  return rows;
}

/** "12.5%" of the disputes: one decimal at most; "—" with none. */
export function formatShare(part: number, whole: number): string {
  if (whole === 0) return '—';
  const tenths = Math.round((part * 1000) / whole);
  return `${Math.floor(tenths / 10)}${tenths % 10 ? `.${tenths % 10}` : ''}%`;
}
