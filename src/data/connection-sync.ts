import { CONNECTIONS_KEY, loadConnections } from './connection-storage';
import type { ConnectionStore } from './connection-store';

/**
 * Follows what other tabs do to remembered connections (they share localStorage): a key
 * disconnected, a connection removed, added or edited there is so here too, so no tab goes on
 * sending with a key the user told this device to forget. This tab's own (not remembered)
 * connections stay. Started with the outbox (src/app/outbox.ts): a tab without it sends nothing.
 */
export function followOtherTabs(store: Pick<ConnectionStore, 'adopt'>, target: Window = window): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key !== CONNECTIONS_KEY && event.key !== null) return;
    if (event.storageArea !== null && event.storageArea !== target.localStorage) return;
    store.adopt(loadConnections().connections);
  };
  target.addEventListener('storage', onStorage);
  return () => target.removeEventListener('storage', onStorage);
}
