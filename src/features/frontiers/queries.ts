import { queryOptions } from '@tanstack/react-query';
import type { FrontierStatusFilter } from '../../api/contract';
import { clientFor, publicQueryKey, type Connection } from '../../data';

/** Frontier reads (spec 4.1, 4.2, 4.4): one queryOptions factory per endpoint, shared by loaders and components. */
export const frontiersQuery = (connection: Connection | null, status: FrontierStatusFilter) =>
  queryOptions({
    queryKey: [...publicQueryKey(connection), 'frontiers', status],
    queryFn: ({ signal }) => clientFor(connection).listFrontiers(status, signal),
    staleTime: 60_000,
  });

export const tasksQuery = (connection: Connection | null, frontierId: string) =>
  queryOptions({
    queryKey: [...publicQueryKey(connection), 'frontiers', frontierId, 'tasks'],
    queryFn: ({ signal }) => clientFor(connection).listTasks(frontierId, signal),
    staleTime: 60_000,
  });

/** Preview needs the connection's JWT; cached per connection, never across JWTs. */
export const previewQuery = (connection: Connection, frontierId: string, taskId: string, limit: number) =>
  // Keyed by connection id, not by its secrets: saving a connection clears its keyed queries.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  queryOptions({
    queryKey: ['dds', 'key', connection.id, 'preview', frontierId, taskId, limit],
    queryFn: ({ signal }) => clientFor(connection).previewTask(frontierId, taskId, limit, signal),
    staleTime: 30_000,
  });
