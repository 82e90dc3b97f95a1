import { OVER_RANGE, sumMicros, usdToMicros } from '../../lib/money';
import { isSpending, type EntryState } from '../outbox/transitions';
import { limitsFor, type Budgets, type Level, type LimitRef, type Period } from './model';
import { spanOf, type Span } from './periods';

/**
 * Budget arithmetic, pure and exact (integer micro-USD, never a float sum). What is spent in a
 * period is:
 *  - the confirmed charges: usage receipts of kind `adopt` created in the period, plus
 *  - the charged decisions the budget gate cleared (or the user released) in the period that are
 *    on their way or confirmed (not held, discarded, failed, in conflict or expired) and whose
 *    item has no receipt among those read: a confirmed decision is counted once, by its receipt.
 * The visit (this tab's page load) counts the decisions this tab cleared, receipts aside: a
 * receipt does not say which tab caused it.
 */

/** A decision as the arithmetic reads it (an outbox entry fits). */
export interface SpendDecision {
  id: string;
  kind: 'live' | 'simulated';
  decision: 'adopt' | 'dispute';
  itemId: string;
  subscriptionId: string;
  /** Cleared decisions in a spending state are spend: on their way, waiting for a confirmation after a reload, or confirmed. */
  state: EntryState;
  priceMicros: number | null;
  createdAt: number;
  budget?: { at: number; tab: string };
}

/** A usage receipt as the arithmetic reads it (the contract's receipt fits). */
export interface SpendReceipt {
  kind: string;
  item_id?: string | null;
  subscription_id: string;
  amount_usd: number;
  created_at: string;
}

export interface SpendInput {
  receipts: readonly SpendReceipt[];
  /** Every stored decision of the scope, every tab's. */
  decisions: readonly SpendDecision[];
  now: number;
  /** This tab (its page load): the visit's decisions are those it cleared. */
  tab: string;
}

interface Charge {
  subscriptionId: string;
  at: number;
  micros: number;
  /** From a receipt; otherwise a decision (`confirmed`: its receipt is among those read). */
  receipt: boolean;
  confirmed: boolean;
  tab?: string;
}

const itemKey = (subscriptionId: string, itemId: string) => `${subscriptionId}\n${itemId}`;

// A receipt the service got wrong errs on the safe side, never throws (the page and the gate must answer):
// an amount past the exact range is over every limit, a time that is no time is now.
function receiptMicros(r: SpendReceipt): number {
  try {
    return usdToMicros(r.amount_usd);
  } catch {
    return OVER_RANGE;
  }
}
function receiptTime(r: SpendReceipt, now: number): number {
  const at = Date.parse(r.created_at);
  return Number.isNaN(at) ? now : at;
}

function chargesOf(input: SpendInput): Charge[] {
  const charges: Charge[] = [];
  const withReceipt = new Set<string>();
  for (const r of input.receipts) {
    if (r.kind !== 'adopt') continue;
    if (r.item_id) withReceipt.add(itemKey(r.subscription_id, r.item_id));
    charges.push({ subscriptionId: r.subscription_id, at: receiptTime(r, input.now), micros: receiptMicros(r), receipt: true, confirmed: true });
  }
  for (const d of input.decisions) {
    if (!d.budget || d.kind !== 'simulated' || d.decision !== 'adopt' || !isSpending(d.state)) continue;
    charges.push({
      subscriptionId: d.subscriptionId,
      at: d.budget.at,
      micros: d.priceMicros ?? 0,
      receipt: false,
      confirmed: withReceipt.has(itemKey(d.subscriptionId, d.itemId)),
      tab: d.budget.tab,
    });
  }
  return charges;
}

type Scope = Pick<LimitRef, 'level' | 'subscriptionId' | 'period'>;

function counts(charge: Charge, ref: Scope, span: Span | null, tab: string): boolean {
  if (ref.level === 'subscription' && charge.subscriptionId !== ref.subscriptionId) return false;
  // The visit: what this tab cleared, receipts aside.
  if (!span) return !charge.receipt && charge.tab === tab;
  if (!charge.receipt && charge.confirmed) return false;
  return charge.at >= span.start && charge.at < span.end;
}

/** What is spent against one limit now (micro-USD; OVER_RANGE past the exact range). */
export function spentAgainst(ref: Scope, input: SpendInput): number {
  const span = spanOf(ref.period, input.now);
  return sumMicros(
    chargesOf(input)
      .filter((c) => counts(c, ref, span, input.tab))
      .map((c) => c.micros),
  );
}

/** Why a decision is held: the first limit it would pass, and what was spent against it. */
export interface HeldBy {
  level: Level;
  period: Period;
  limitMicros: number;
  spentMicros: number;
  /** When it was held (the gate's trusted time): which day or month `spentMicros` was spent in. */
  at: number;
}
export type Verdict = { id: string; outcome: 'cleared' } | { id: string; outcome: 'held'; heldBy: HeldBy };

const refKey = (ref: Scope) => `${ref.level}\n${ref.subscriptionId ?? ''}\n${ref.period}`;

/**
 * Decides charged decisions in the order given (oldest first): each is cleared when, for every
 * limit that applies to it, what is spent plus its price stays at or under the limit (equal is
 * allowed); otherwise it is held, naming the first limit it would pass. A cleared one counts
 * against the limits of the ones after it; a held one does not.
 */
export function decideCharges(budgets: Budgets, input: SpendInput, candidates: readonly SpendDecision[]): Verdict[] {
  const charges = chargesOf(input);
  const spent = new Map<string, number>();
  const spentFor = (ref: Scope): number => {
    const key = refKey(ref);
    let total = spent.get(key);
    if (total === undefined) {
      const span = spanOf(ref.period, input.now);
      total = sumMicros(charges.filter((c) => counts(c, ref, span, input.tab)).map((c) => c.micros));
      spent.set(key, total);
    }
    return total;
  };
  const verdicts: Verdict[] = [];
  for (const candidate of candidates) {
    const price = candidate.priceMicros ?? 0;
    const refs = limitsFor(budgets, candidate.subscriptionId);
    const passed = refs.find((ref) => sumMicros([spentFor(ref), price]) > ref.limitMicros);
    if (passed) {
      const spentMicros = Math.min(spentFor(passed), Number.MAX_SAFE_INTEGER);
      verdicts.push({
        id: candidate.id,
        outcome: 'held',
        heldBy: { level: passed.level, period: passed.period, limitMicros: passed.limitMicros, spentMicros, at: input.now },
      });
      continue;
    }
    verdicts.push({ id: candidate.id, outcome: 'cleared' });
    // From now on it is spend: against every limit already summed that it falls under, and (as a
    // charge) against any summed later.
    const charge: Charge = { subscriptionId: candidate.subscriptionId, at: input.now, micros: price, receipt: false, confirmed: false, tab: input.tab };
    charges.push(charge);
    for (const [key, total] of spent) {
      const [level, subscriptionId, period] = key.split('\n') as [Level, string, Period];
      if (counts(charge, { level, subscriptionId: subscriptionId || undefined, period }, spanOf(period, input.now), input.tab))
        spent.set(key, sumMicros([total, price]));
    }
  }
  return verdicts;
}
