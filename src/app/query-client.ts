import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isAuthFailure } from '../api/errors';
import { connectionStore } from '../data';

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: { connectionId?: string };
  }
}

/** A refused key (401) stops its connection: recorded once here, for every query and mutation. */
function onAuthFailure(error: unknown, connectionId: unknown) {
  if (typeof connectionId === 'string' && isAuthFailure(error)) {
    connectionStore.markRefused(connectionId, { code: error.code ?? 'UNAUTHORIZED', message: error.message });
  }
}

export function createQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({
      // Keyed queries are ['dds', 'key', connectionId, ...].
      onError: (error, query) => onAuthFailure(error, query.queryKey[1] === 'key' ? query.queryKey[2] : undefined),
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => onAuthFailure(error, mutation.meta?.connectionId),
    }),
    defaultOptions: {
      // The client retries what is worth retrying; a second layer would multiply attempts.
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 },
      mutations: { retry: false },
    },
  });
}
