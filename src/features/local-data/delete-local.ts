import type { QueryClient } from '@tanstack/react-query';
import { keyedQueryKey, type Connection } from '../../data';
import { deleteScope, deleteSubscriptionItems, localDb } from '../../domain/store';

/**
 * Deletes what this device keeps for a connection's organization (or one subscription of it):
 * delivered items and their content, the pull log, and (for the whole organization) the
 * decisions not yet sent, which are discarded. Cached reads go too, and so does the content held in
 * memory (`forget.content`, the review's, handed down by the route; `forget.decisions`, the outbox's).
 */
export async function deleteLocalData(
  queryClient: QueryClient,
  forget: { content: (scope: string) => void; decisions: (connectionId: string) => void },
  connection: Connection,
  scope: string,
  subscriptionId?: string,
): Promise<void> {
  const db = localDb();
  if (subscriptionId) await deleteSubscriptionItems(db, scope, subscriptionId);
  else {
    // The rows go with the scope; the engine forgets them in memory too (nothing unsent is sent).
    await deleteScope(db, scope);
    forget.decisions(connection.id);
  }
  forget.content(scope);
  await queryClient.cancelQueries({ queryKey: keyedQueryKey(connection) });
  queryClient.removeQueries({ queryKey: keyedQueryKey(connection) });
}
