import { queryOptions } from '@tanstack/react-query';
import { clientFor, keyScope, type Connection } from '../connections';
import { splitIds } from './search';

/** Review reads. Re-read pages and pending simulated items are safe to cache and refetch. */
export interface RereadParams {
  subscriptionId: string;
  cursor?: string;
  tasks?: string;
  campaigns?: string;
  limit: number;
}

export const rereadPageQuery = (connection: Connection, params: RereadParams) =>
  queryOptions({
    queryKey: [...keyScope(connection), 'reread', params.subscriptionId, params.limit, params.tasks ?? '', params.campaigns ?? '', params.cursor ?? ''],
    queryFn: ({ signal }) =>
      clientFor(connection).pullLive(
        {
          subscription_id: params.subscriptionId,
          limit: params.limit,
          from: 'beginning',
          cursor: params.cursor,
          task_ids: splitIds(params.tasks),
          campaign_ids: splitIds(params.campaigns),
        },
        signal,
      ),
    staleTime: 5 * 60_000,
  });

export const pendingItemsQuery = (connection: Connection, subscriptionId: string, limit: number) =>
  queryOptions({
    queryKey: [...keyScope(connection), 'pending', subscriptionId, limit],
    queryFn: ({ signal }) => clientFor(connection).pullSimulated(subscriptionId, limit, signal),
    staleTime: Infinity,
  });
