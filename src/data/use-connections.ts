import { useSyncExternalStore } from 'react';
import type { Connection } from './connection';
import { connectionStore } from './session';

/** The saved connections and the active one, read from the store outside React. */
export function useConnections() {
  return useSyncExternalStore(connectionStore.subscribe, connectionStore.getSnapshot);
}

/**
 * The active connection alone: a component reading only it does not render again when the rest of
 * the store changes (what a request observed, another connection's failure). The first answer of a
 * page records "connected" and re-rendered the whole shell between a pull's answer and its items
 * being stored and shown (bench:ui).
 */
export function useActiveConnection() {
  return useSyncExternalStore(connectionStore.subscribe, () => connectionStore.getSnapshot().active);
}

/** One saved connection by its id (null if none): the same object while it is unchanged. */
export function useConnection(id: string | undefined): Connection | null {
  return useSyncExternalStore(connectionStore.subscribe, () => connectionStore.getSnapshot().connections.find((c) => c.id === id) ?? null);
}
