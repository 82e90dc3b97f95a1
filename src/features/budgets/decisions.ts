import { useSyncExternalStore } from 'react';
import type { OutboxEntry } from '../../domain/outbox/model';

/**
 * The outbox's decisions as budgets' pages read them. The outbox depends on budgets (its gate
 * applies their limits), so budgets cannot import it back: the outbox provides this view of
 * itself when it loads (outbox/instance.ts), and the pages show it from then on.
 */
export interface BudgetDecisions {
  subscribe(listener: () => void): () => void;
  /** This tab's decisions on a connection's organization with every confirmed or discarded one (the same array until it changes). */
  entries(connectionId: string): readonly OutboxEntry[];
  /** Other open tabs' unfinished decisions on it. */
  others(connectionId: string): readonly OutboxEntry[];
  /** The organization on a base URL the connection's decisions and budgets live under. */
  scopeOf(connectionId: string): string;
  /** Sends this tab's held decisions (after the user confirmed their total); how many were released. */
  release(connectionId: string, entryIds: readonly string[]): number;
  /** Discards this tab's held decisions: never sent, kept and listed as discarded, their items undecided again. */
  discard(connectionId: string, entryIds: readonly string[]): void;
  /** This tab (page load): the visit's spend is what it cleared. */
  tab: string;
}

let provided: BudgetDecisions | null = null;
const waiting = new Set<() => void>();

export function provideDecisions(decisions: BudgetDecisions): void {
  provided = decisions;
  for (const listener of waiting) listener();
}

const EMPTY: readonly OutboxEntry[] = [];
const subscribe = (listener: () => void) => {
  waiting.add(listener);
  const inner = provided?.subscribe(listener);
  return () => {
    waiting.delete(listener);
    inner?.();
  };
};

export interface ConnectionDecisions {
  entries: readonly OutboxEntry[];
  others: readonly OutboxEntry[];
  scope: string | null;
  tab: string | null;
  release: (entryIds: readonly string[]) => number;
  discard: (entryIds: readonly string[]) => void;
}

/** A connection's decisions, live; empty until the outbox is loaded. */
export function useBudgetDecisions(connectionId: string): ConnectionDecisions {
  // Re-subscribed once the outbox is provided (`provided` is part of the snapshot).
  const source = useSyncExternalStore(subscribe, () => provided);
  const entries = useSyncExternalStore(source ? source.subscribe : subscribe, () => source?.entries(connectionId) ?? EMPTY);
  const others = useSyncExternalStore(source ? source.subscribe : subscribe, () => source?.others(connectionId) ?? EMPTY);
  const scope = useSyncExternalStore(source ? source.subscribe : subscribe, () => source?.scopeOf(connectionId) ?? null);
  return {
    entries,
    others,
    scope,
    tab: source?.tab ?? null,
    release: (ids) => source?.release(connectionId, ids) ?? 0,
    discard: (ids) => source?.discard(connectionId, ids),
  };
}
