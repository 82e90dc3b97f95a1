import type { DeliveryItem } from '../../api/contract';
import { localScope, type Connection } from '../../data';

/**
 * Writes a delivery's items to the local store before the page shows them, under the delivery's
 * subscription (or, for a delivery older than the listed ones, under `delivery:<id>`).
 */
export async function keepDeliveryItems(connection: Connection, deliveryId: string, subscriptionId: string | undefined, items: readonly DeliveryItem[]) {
  // Loaded here, not with the first page.
  const { localDb, saveDelivered, summaryOfSimulated } = await import('../../domain/store');
  const scope = await localScope(connection);
  await saveDelivered(
    localDb(),
    scope,
    subscriptionId ?? `delivery:${deliveryId}`,
    'delivery',
    items.map((item) => ({ summary: summaryOfSimulated(item), record: item })),
  );
}
