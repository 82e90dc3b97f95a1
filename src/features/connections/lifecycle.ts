import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useMemo } from 'react';
import { connectionStore, keyedQueryKey } from '../../data';
import type { Connection } from '../../data';

/**
 * The one owner of a connection's lifecycle. Every change (activate, save a new key or an edit,
 * disconnect, remove) goes through here, so each one cancels the reads in flight, drops the
 * cached reads made with the old key, and has the router load the current page again.
 */
export function connectionLifecycle(queryClient: QueryClient, reload: () => void) {
  const forget = (connection: Connection) => {
    const queryKey = keyedQueryKey(connection);
    void queryClient.cancelQueries({ queryKey });
    queryClient.removeQueries({ queryKey });
  };
  return {
    activate(id: string) {
      if (connectionStore.active?.id === id) return;
      void queryClient.cancelQueries();
      connectionStore.activate(id);
      reload();
    },
    /** Adds or replaces a connection (a new key, a new JWT, other subscriptions) and makes it active. */
    save(connection: Connection) {
      forget(connection);
      connectionStore.save(connection);
      reload();
    },
    /** Forgets the key and the JWT; the connection's name, URL and subscriptions stay. */
    disconnect(connection: Connection) {
      forget(connection);
      connectionStore.disconnect(connection.id);
      reload();
    },
    /** Removes the connection (its store forgets what is kept under its id apart from it: the image origins it allowed). */
    remove(connection: Connection) {
      forget(connection);
      connectionStore.remove(connection.id);
      reload();
    },
  };
}

export type ConnectionLifecycle = ReturnType<typeof connectionLifecycle>;

export function useConnectionLifecycle(): ConnectionLifecycle {
  const queryClient = useQueryClient();
  const router = useRouter();
  return useMemo(() => connectionLifecycle(queryClient, () => void router.invalidate()), [queryClient, router]);
}
