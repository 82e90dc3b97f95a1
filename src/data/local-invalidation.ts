import type { QueryClient } from '@tanstack/react-query';
import { readsChange, type ChangeFeed } from '../domain/store/change-feed';

/**
 * The one place where a change to the local store reaches React Query: every query whose key is
 * under `localKey(scope, table, ids)` and reads what the change names is invalidated (read again
 * if shown, when next shown otherwise). Returns the unsubscribe. The app wires it once
 * (src/app/local-store.ts); a component test wires its own query client.
 */
export function invalidateOnLocalChange(changes: ChangeFeed, queryClient: QueryClient): () => void {
  return changes.subscribe((change) => {
    void queryClient.invalidateQueries({ predicate: (query) => readsChange(query.queryKey, change) });
  });
}
