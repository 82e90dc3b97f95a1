import type { ApiError } from '../../api/errors';
import type { BudgetGate } from './budget-gating';
import type { NewDecision, OutboxEntry } from './model';
import type { DecisionStore } from './store';
import type { TabRegistry } from './tabs';

/** What the outbox engine (engine.ts) is built with, and what it shows. */
export interface OutboxDeps {
  store: DecisionStore;
  send: (entry: OutboxEntry) => Promise<unknown>;
  /** A 401: the key must be replaced; the engine pauses the scope. */
  onKeyRefused: (scope: string, error: ApiError) => void;
  isOnline: () => boolean;
  graceMs: () => number;
  tabs: TabRegistry;
  /** Whether this tab can send a scope's decisions now (a connected key): a tab that cannot leaves a closed tab's decisions to one that can. */
  canSend?: (scope: string) => boolean;
  /** Whether a scope's charged decisions taken over after their page went are sent without asking again (a team hub's scope). */
  resumesCharged?: (scope: string) => boolean;
  now?: () => number;
  random?: () => number;
  concurrency?: number;
  maxAttempts?: number;
  retryBaseMs?: number;
  /** Runs `fn` once before the next paint (background changes are told to listeners once per frame). */
  nextFrame?: (fn: () => void) => void;
  /**
   * Runs `fn` after the next paint: what a recorded decision needs besides memory (its write, the
   * items' flag, the pump) waits there, off the keypress's frame. Without it, that work runs at once.
   * The decision cannot be sent before its write committed either way (write-behind.ts holds it).
   */
  afterPaint?: (fn: () => void) => void;
  /** Budgets: without a gate, charged decisions are sent as free ones are. */
  budget?: BudgetGate;
  /** Where a page being left puts the decisions it could not write in time (unwritten-journal.ts). */
  journal?: UnwrittenJournal;
}

/**
 * A synchronous place for the decisions a page had not written when it was left. A reload or a
 * closed tab a few milliseconds after a keypress can end the page before its IndexedDB write
 * commits (a transaction is not kept past its page), so the page, on `pagehide`, also puts those
 * decisions here (localStorage: written before the page goes), and the next load of their scope
 * writes the ones the store lacks, as decisions of a closed tab.
 */
export interface UnwrittenJournal {
  save(entries: readonly OutboxEntry[]): void;
  /** The scope's decisions left by pages that are gone. */
  read(scope: string): readonly OutboxEntry[];
  /** Forgets them once the store holds them (`null`: all of the scope, its local data deleted). */
  drop(scope: string, ids: ReadonlySet<string> | null): void;
}

export interface OutboxSnapshot {
  /** Per scope: this tab's decisions, and every confirmed or discarded one (the record). */
  entries: Readonly<Record<string, readonly OutboxEntry[]>>;
  /**
   * Scopes whose stored decisions this tab has read (at least once). Until then memory knows
   * nothing of what a page left unsent, so nothing may be said to be saved.
   */
  loaded: Readonly<Record<string, true>>;
  /** Per scope: unfinished decisions other open tabs own: shown here, never sent or undone here. */
  others: Readonly<Record<string, readonly OutboxEntry[]>>;
  /** Scopes that cannot send at all (key refused, disconnected), with why. */
  paused: Readonly<Record<string, string>>;
  /** Per scope, subscriptions the key may not use (403), with the service's words. */
  pausedSubscriptions: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** A decision could not be written to this device: nothing unwritten is sent. */
  writeError: string | null;
}

/** What `enqueueMany` did: the decisions recorded, and those skipped with the decision that stands on their item. */
export interface EnqueueManyResult {
  recorded: OutboxEntry[];
  skipped: { decision: NewDecision; standing: OutboxEntry }[];
}
