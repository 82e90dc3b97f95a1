import { queryOptions } from '@tanstack/react-query';
import type { Connection } from './connection';
import { clientFor, keyedQueryKey } from './session';

/** Usage (spec 4.7): the organization's latest receipts. No cursor exists, so only the latest `limit`. */
export const usageQuery = (connection: Connection, limit: number) =>
  queryOptions({
    queryKey: [...keyedQueryKey(connection), 'usage', limit],
    queryFn: ({ signal }) => clientFor(connection).usage(limit, signal),
    staleTime: 15_000,
  });
