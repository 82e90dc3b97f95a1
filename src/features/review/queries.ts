import { queryOptions } from '@tanstack/react-query';
import { clientFor, keyedQueryKey, type Connection } from '../../data';
import { splitIds } from './search';

// The local store loads with the first read that needs it, not with the first page.
const keeper = () => import('./keep-delivered');

/**
 * Review reads. Re-read pages and pending simulated items are safe to cache and refetch; each
 * answer is written to the local store before it is returned, so nothing shown exists only in
 * memory.
 */
export interface RereadParams {
  subscriptionId: string;
  cursor?: string;
  tasks?: string;
  campaigns?: string;
  limit: number;
}

export const rereadPageQuery = (connection: Connection, params: RereadParams) =>
  queryOptions({
    queryKey: [...keyedQueryKey(connection), 'reread', params.subscriptionId, params.limit, params.tasks ?? '', params.campaigns ?? '', params.cursor ?? ''],
    queryFn: async ({ signal }) => {
      const page = await clientFor(connection).pullLive(
        {
          subscription_id: params.subscriptionId,
          limit: params.limit,
          from: 'beginning',
          cursor: params.cursor,
          task_ids: splitIds(params.tasks),
          campaign_ids: splitIds(params.campaigns),
        },
        signal,
      );
      await (await keeper()).keepLivePage(connection, params.subscriptionId, page.items);
      return page;
    },
    staleTime: 5 * 60_000,
  });

export const pendingItemsQuery = (connection: Connection, subscriptionId: string, limit: number) =>
  queryOptions({
    queryKey: [...keyedQueryKey(connection), 'pending', subscriptionId, limit],
    queryFn: async ({ signal }) => {
      const page = await clientFor(connection).pullSimulated(subscriptionId, limit, signal);
      await (await keeper()).keepPendingPage(connection, subscriptionId, page.data);
      return page;
    },
    staleTime: Infinity,
  });
