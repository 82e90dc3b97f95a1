import { queryOptions } from '@tanstack/react-query';
import type { DeliveryItem } from '../../api/contract';
import { clientFor, keyScope, localScope, type Connection } from '../connections';

/** Deliveries (spec 4.13) and a delivery's items (4.14). */
export const deliveriesQuery = (connection: Connection, limit: number) =>
  queryOptions({
    queryKey: [...keyScope(connection), 'deliveries', limit],
    queryFn: ({ signal }) => clientFor(connection).listDeliveries(limit, signal),
    staleTime: 15_000,
  });

export const deliveryItemsQuery = (connection: Connection, deliveryId: string) =>
  queryOptions({
    queryKey: [...keyScope(connection), 'delivery-items', deliveryId],
    queryFn: ({ signal }) => clientFor(connection).deliveryItems(deliveryId, signal),
    staleTime: 15_000,
  });

/**
 * Writes a delivery's items to the local store before the page shows them, under the delivery's
 * subscription (or, for a delivery older than the listed ones, under `delivery:<id>`).
 */
export async function keepDeliveryItems(connection: Connection, deliveryId: string, subscriptionId: string | undefined, items: readonly DeliveryItem[]) {
  // Loaded here, not with the first page.
  const { localDb, saveDelivered, summaryOfSimulated } = await import('../local-store');
  const scope = await localScope(connection);
  await saveDelivered(localDb(), scope, subscriptionId ?? `delivery:${deliveryId}`, 'delivery', items.map((item) => ({ summary: summaryOfSimulated(item), record: item })));
}
