import { queryOptions } from '@tanstack/react-query';
import type { Connection } from './connection';
import { clientFor, keyedQueryKey } from './session';

/** Deliveries (spec 4.13) and a delivery's items (4.14). */
export const deliveriesQuery = (connection: Connection, limit: number) =>
  queryOptions({
    queryKey: [...keyedQueryKey(connection), 'deliveries', limit],
    queryFn: ({ signal }) => clientFor(connection).listDeliveries(limit, signal),
    staleTime: 15_000,
  });

export const deliveryItemsQuery = (connection: Connection, deliveryId: string) =>
  queryOptions({
    queryKey: [...keyedQueryKey(connection), 'delivery-items', deliveryId],
    queryFn: ({ signal }) => clientFor(connection).deliveryItems(deliveryId, signal),
    staleTime: 15_000,
  });
