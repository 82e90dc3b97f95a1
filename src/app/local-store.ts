import type { QueryClient } from '@tanstack/react-query';
import { invalidateOnLocalChange } from '../data/local-invalidation';
import { createChangeFeed, installLocalChanges, type ChangeFeed } from '../domain/store/change-feed';

/** The BroadcastChannel every tab of the origin tells its local-store changes on (one for all tables). */
const CHANNEL = 'dds-local';

/**
 * Composes the local store's change feed, once, at start: the store's writes are told on it (to
 * this tab and the others), and it invalidates the queries that read what changed. The database
 * itself is opened on first use (Dexie is not on the first page) and writes to this feed.
 */
export function composeLocalChanges(queryClient: QueryClient): ChangeFeed {
  const changes = createChangeFeed(CHANNEL);
  installLocalChanges(changes);
  invalidateOnLocalChange(changes, queryClient);
  return changes;
}
