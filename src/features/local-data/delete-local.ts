import type { QueryClient } from '@tanstack/react-query';
import { keyedQueryKey, type Connection } from '../../data';
import { deleteScope, deleteSubscriptionItems, localDb } from '../../domain/store';
import { outbox } from '../outbox';

/**
 * Deletes what this device keeps for a connection's organization (or one subscription of it):
 * delivered items and their content, the pull log, and (for the whole organization) the
 * decisions not yet sent, which are discarded. Cached reads go too, and so does the content held in
 * memory (`forgetContent`, the review's, handed down by the route).
 */
export async function deleteLocalData(
  queryClient: QueryClient,
  forgetContent: (scope: string) => void,
  connection: Connection,
  scope: string,
  subscriptionId?: string,
): Promise<void> {
  const db = localDb();
  if (subscriptionId) await deleteSubscriptionItems(db, scope, subscriptionId);
  else {
    // The rows go with the scope; the engine forgets them in memory too (nothing unsent is sent).
    await deleteScope(db, scope);
    outbox.forget(connection.id);
  }
  forgetContent(scope);
  await queryClient.cancelQueries({ queryKey: keyedQueryKey(connection) });
  queryClient.removeQueries({ queryKey: keyedQueryKey(connection) });
}
