import { useCallback, useSyncExternalStore } from 'react';
import { connectionStore } from '../../data';
import { IMAGE_ORIGINS_PREFIX as PREFIX, imageOriginsStorage as storage } from '../../data/image-origins';

// The viewer's side of the allowed image origins: read, added to, watched across tabs. What is
// kept, and how a removed connection forgets it, is the connection store's (src/data/image-origins.ts).

const EMPTY: ReadonlySet<string> = new Set();

function read(connectionId: string): ReadonlySet<string> {
  let origins = connectionStore.imageOrigins.cache.get(connectionId);
  if (origins) return origins;
  try {
    const parsed: unknown = JSON.parse(storage()?.getItem(PREFIX + connectionId) ?? '[]');
    origins = new Set(Array.isArray(parsed) ? parsed.filter((o): o is string => typeof o === 'string') : []);
  } catch {
    origins = EMPTY;
  }
  connectionStore.imageOrigins.cache.set(connectionId, origins);
  return origins;
}

/** Always loads images from `origin` for this connection, in this tab and every other. */
function allowOrigin(connectionId: string, origin: string): void {
  const next = new Set(read(connectionId)).add(origin);
  connectionStore.imageOrigins.cache.set(connectionId, next);
  try {
    storage()?.setItem(PREFIX + connectionId, JSON.stringify([...next]));
  } catch {
    // Storage full or disabled: allowed for this page only.
  }
  connectionStore.imageOrigins.notify();
}

function subscribe(listener: () => void): () => void {
  connectionStore.imageOrigins.listeners.add(listener);
  // Another tab allowed an origin: read it again.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith(PREFIX)) {
      connectionStore.imageOrigins.cache.clear();
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  const unsubscribeConnections = connectionStore.subscribe(listener);
  return () => {
    connectionStore.imageOrigins.listeners.delete(listener);
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
