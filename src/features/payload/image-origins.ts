import { useCallback, useSyncExternalStore } from 'react';
import { connectionStore } from '../../data';

/**
 * Origins whose images a connection loads without asking. An image is a request: from another
 * origin it tells that origin who opened which item when (a tracking pixel), so it waits for the
 * user. The choice is kept per connection in localStorage under its id, apart from the connection
 * record (which may hold the key): origins are not secrets, and a tab-only connection keeps its id
 * when it is saved again.
 */
const PREFIX = 'dds.imageOrigins.';
const EMPTY: ReadonlySet<string> = new Set();

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: a choice lasts for this page only
  }
}

const cache = new Map<string, ReadonlySet<string>>();
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

function read(connectionId: string): ReadonlySet<string> {
  let origins = cache.get(connectionId);
  if (origins) return origins;
  try {
    const parsed: unknown = JSON.parse(storage()?.getItem(PREFIX + connectionId) ?? '[]');
    origins = new Set(Array.isArray(parsed) ? parsed.filter((o): o is string => typeof o === 'string') : []);
  } catch {
    origins = EMPTY;
  }
  cache.set(connectionId, origins);
  return origins;
}

/** Always loads images from `origin` for this connection, in this tab and every other. */
function allowOrigin(connectionId: string, origin: string): void {
  const next = new Set(read(connectionId)).add(origin);
  cache.set(connectionId, next);
  try {
    storage()?.setItem(PREFIX + connectionId, JSON.stringify([...next]));
  } catch {
    // Storage full or disabled: allowed for this page only.
  }
  notify();
}

/** Forgets a connection's allowed origins, here and in every tab: the connection is removed. */
export function forgetImageOrigins(connectionId: string): void {
  cache.delete(connectionId);
  try {
    storage()?.removeItem(PREFIX + connectionId);
  } catch {
    // Storage disabled: nothing was kept there.
  }
  notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab allowed an origin: read it again.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith(PREFIX)) {
      cache.clear();
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  const unsubscribeConnections = connectionStore.subscribe(listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
    unsubscribeConnections();
  };
}

/**
 * The active connection's allowed origins, and a way to add one. Every delivered payload is
 * shown under the active connection (the pages that show them need one), so the viewer reads
 * it here rather than have every page pass its id down through the item components.
 */
export function useImageOrigins(): { connectionId: string | null; allowed: ReadonlySet<string>; allow: (origin: string) => void } {
  const connectionId = useSyncExternalStore(subscribe, () => connectionStore.getSnapshot().active?.id ?? null);
  const allowed = useSyncExternalStore(subscribe, () => (connectionId ? read(connectionId) : EMPTY));
  const allow = useCallback(
    (origin: string) => {
      if (connectionId) allowOrigin(connectionId, origin);
    },
    [connectionId],
  );
  return { connectionId, allowed, allow };
}
