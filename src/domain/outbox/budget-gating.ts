import { isCharged, type OutboxEntry } from './model';
import type { ScopeEntries } from './scope-entries';
import { move } from './transitions';

/**
 * Budgets (budget-gate.ts): a charged decision leaves only once the gate said it fits every limit.
 * The gate decides a batch under a lock shared by the tabs, over every tab's stored decisions,
 * and writes its word in the same transaction, so two tabs cannot together pass a limit.
 */
export interface BudgetGate {
  /** Whether a charged decision of this subscription must wait for the gate (answered from memory: no read). */
  applies(scope: string, subscriptionId: string): boolean;
  /**
   * Decides `candidates` (oldest first) and writes each outcome: cleared (`budget` set, state
   * unchanged or back to 'queued') or 'held-budget' with `heldBy`. Returns the decided entries;
   * one whose stored row no longer matches the candidate is left out.
   */
  decide(scope: string, candidates: readonly OutboxEntry[], tab: string): Promise<OutboxEntry[]>;
  /** Calls `listener` with each scope whose budgets changed (here or in another tab): held decisions are weighed again. */
  onChange(listener: (scope: string) => void): void;
}

/** After a gate that failed (storage, lock), the next try waits this long rather than spin. */
const GATE_RETRY_MS = 1_000;

export interface BudgetGatingDeps {
  gate: BudgetGate;
  /** This tab's id: the clearances it gets are this visit's spend. */
  tab: string;
  now: () => number;
  /** The entry has a change not yet written (the gate compares a candidate with its stored row). */
  unwritten: (id: string) => boolean;
  inFlight: (id: string) => boolean;
  /** The entry as memory holds it now. */
  current: (scope: string, id: string) => OutboxEntry | undefined;
  /** Puts an entry in memory; `written`: the gate wrote it already. */
  put: (scope: string, entry: OutboxEntry, written: boolean) => void;
  /** The gate decided some of a scope's decisions (tell the tabs and the listeners). */
  decided: (scope: string) => void;
  /** Re-examines due work (a batch ended, a budget changed, a wait after a failure ended). */
  pump: () => void;
}

/**
 * A charged decision found after a reload, confirmed: what the budget gate cleared in an earlier
 * visit (or day) is weighed again against the limits of now; one the user released stays released,
 * and one already tried stays cleared (the service may hold it: it is sent again, never held back).
 */
export function regated(entry: OutboxEntry): OutboxEntry {
  if (!entry.budget || entry.budget.released || entry.attempts > 0) return entry;
  const { budget: _earlier, ...rest } = entry;
  return rest;
}

/** A held decision the user released past its limit: queued, counted as spend from `now`, never held again. */
export function releasedPastLimit(entry: OutboxEntry, now: number, tab: string): OutboxEntry {
  const { heldBy: _dropped, heldClock: _doubt, ...rest } = entry;
  return move(rest, 'release', 'queued', { nextAttemptAt: now, budget: { at: now, tab, released: true } });
}

/**
 * Budget gating: which charged decisions wait for the gate, asking it one batch at a time per
 * scope, and applying its verdicts to what memory holds (unless it changed meanwhile).
 */
export class BudgetGating {
  /** Scopes with a gate running: one batch at a time per scope (its end pumps again for what came due meanwhile). */
  private readonly gating = new Set<string>();
  /** Scopes whose budgets changed: their held decisions go through the gate again. */
  private readonly recheck = new Set<string>();
  /** Cleared decisions not yet sent that the gate is weighing again (a limit changed): not picked meanwhile. */
  private readonly regating = new Set<string>();
  /** Scopes whose last gate failed, with when to try again. */
  private readonly backoff = new Map<string, number>();

  constructor(private readonly deps: BudgetGatingDeps) {
    deps.gate.onChange((scope) => {
      this.recheck.add(scope);
      deps.pump();
    });
  }

  /** Charged decisions of a scope that may not leave before the gate cleared them. */
  gatedIn(scope: string): (entry: OutboxEntry) => boolean {
    const gate = this.deps.gate;
    return (e) => this.regating.has(e.id) || (!e.budget && isCharged(e) && gate.applies(scope, e.subscriptionId));
  }

  /** Whether a scope has decisions for the gate: charged ones not yet past it, or held ones after a budget changed. */
  due(scope: string, own: ScopeEntries): boolean {
    return own.ungated.size > 0 || this.recheck.has(scope);
  }

  /**
   * Puts a batch of a scope's charged decisions through the gate: every one due and written (the
   * gate compares it with its stored row), and, after a budget changed, every held one and every
   * cleared one never sent yet (a lowered limit holds it; one the user released stays released).
   * One batch at a time per scope; what becomes due meanwhile goes in the next.
   */
  run(scope: string, own: ScopeEntries): void {
    const { gate, unwritten, inFlight } = this.deps;
    if (this.gating.has(scope) || (this.backoff.get(scope) ?? 0) > this.deps.now()) return;
    const candidates: OutboxEntry[] = [];
    for (const id of own.ungated) {
      const e = own.get(id)!;
      if (!unwritten(id) && !inFlight(id) && gate.applies(scope, e.subscriptionId)) candidates.push(e);
    }
    if (this.recheck.delete(scope)) {
      for (const e of own.values()) {
        const waiting = e.state === 'queued' && e.budget !== undefined && !e.budget.released && e.attempts === 0 && !inFlight(e.id);
        if (e.state !== 'held-budget' && !waiting) continue;
        if (unwritten(e.id)) this.recheck.add(scope);
        else {
          candidates.push(e);
          if (waiting) this.regating.add(e.id);
        }
      }
    }
    if (candidates.length === 0) return;
    candidates.sort((a, b) => a.createdAt - b.createdAt);
    this.gating.add(scope);
    gate
      .decide(scope, candidates, this.deps.tab)
      .then((decided) => this.apply(scope, candidates, decided))
      .catch(() => {
        // Nothing charged leaves while the gate cannot answer; it is asked again shortly.
        this.backoff.set(scope, this.deps.now() + GATE_RETRY_MS);
        // The timer ends the wait itself: one that fires a millisecond early must not find it still on and give up.
        setTimeout(() => {
          this.backoff.delete(scope);
          this.deps.pump();
        }, GATE_RETRY_MS);
      })
      .finally(() => {
        for (const e of candidates) this.regating.delete(e.id);
        this.gating.delete(scope);
        this.deps.pump();
      });
  }

  private apply(scope: string, candidates: readonly OutboxEntry[], decided: readonly OutboxEntry[]): void {
    const { current, put } = this.deps;
    const byId = new Map(candidates.map((e) => [e.id, e]));
    const done = new Set<string>();
    for (const next of decided) {
      done.add(next.id);
      const now = current(scope, next.id);
      const candidate = byId.get(next.id);
      if (!now || !candidate) continue;
      // Unchanged meanwhile: the gate wrote exactly this. Changed (discarded, paused): that change stands.
      if (now === candidate) put(scope, next, true);
    }
    // Left out: its stored row differed from memory; written again, it is weighed with the next batch.
    for (const candidate of candidates) {
      if (!done.has(candidate.id) && current(scope, candidate.id) === candidate) put(scope, candidate, false);
    }
    this.backoff.delete(scope);
    if (decided.length) this.deps.decided(scope);
  }
}
