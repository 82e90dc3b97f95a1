import { queryOptions } from '@tanstack/react-query';
import type { DeliveryItem } from '../../api/contract';
import { ApiError } from '../../api/errors';
import { clientFor, keyedQueryKey, type Connection } from '../../data';

export type BooksDeliveryItems = { items: DeliveryItem[]; refused: null } | { items: []; refused: string };

/**
 * A delivery's items for the books. The deliveries list is organization-wide, but reading a
 * delivery's items needs a key that covers its subscription (and has data access): a refusal
 * (403) leaves that delivery out, named on the page, instead of failing the whole reconciliation.
 */
export const booksDeliveryItemsQuery = (connection: Connection, deliveryId: string) =>
  queryOptions({
    queryKey: [...keyedQueryKey(connection), 'delivery-items-for-books', deliveryId],
    queryFn: async ({ signal }): Promise<BooksDeliveryItems> => {
      try {
        return { items: (await clientFor(connection).deliveryItems(deliveryId, signal)).data, refused: null };
      } catch (error) {
        if (error instanceof ApiError && error.status === 403) return { items: [], refused: error.code ?? 'FORBIDDEN' };
        throw error;
      }
    },
    staleTime: 15_000,
  });
