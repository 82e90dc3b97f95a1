import { useSyncExternalStore } from 'react';
import { connectionStore } from '../connections';
import type { LiveSubmission, Receipt } from '../../api/contract';

/**
 * Items of incremental pulls are not delivered again: the console keeps them for the rest
 * of the visit (in memory only: delivered content is never written to storage).
 */
export interface IncrementalState {
  items: readonly LiveSubmission[];
  pulls: number;
  hasMore: boolean | null;
  lastReceipt: Receipt | null;
}

const EMPTY: IncrementalState = { items: [], pulls: 0, hasMore: null, lastReceipt: null };
const sessions = new Map<string, IncrementalState>();
const listeners = new Set<() => void>();

const keyOf = (connectionId: string, subscriptionId: string) => `${connectionId}\u0000${subscriptionId}`;

export function appendPull(connectionId: string, subscriptionId: string, page: { items: readonly LiveSubmission[]; hasMore: boolean; receipt: Receipt | null }) {
  const key = keyOf(connectionId, subscriptionId);
  const current = sessions.get(key) ?? EMPTY;
  const seen = new Set(current.items.map((i) => i.submission_id));
  sessions.set(key, {
    items: [...current.items, ...page.items.filter((i) => !seen.has(i.submission_id))],
    pulls: current.pulls + 1,
    hasMore: page.hasMore,
    lastReceipt: page.receipt,
  });
  for (const listener of listeners) listener();
}

/** Drops a connection's pulled items (on disconnect). */
export function clearSessions(connectionId: string) {
  for (const key of [...sessions.keys()]) if (key.startsWith(`${connectionId}\u0000`)) sessions.delete(key);
  for (const listener of listeners) listener();
}

export function useIncrementalSession(connectionId: string, subscriptionId: string): IncrementalState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => sessions.get(keyOf(connectionId, subscriptionId)) ?? EMPTY,
  );
}

// Disconnecting a connection drops its delivered items from memory too.
connectionStore.subscribe(() => {
  for (const connection of connectionStore.getSnapshot().connections) if (!connection.apiKey) clearSessions(connection.id);
});
