import type { QueryClient } from '@tanstack/react-query';
import type { Connection } from '../data';

/**
 * What every route's loader and component may use, given once by the app. The root route adds
 * `connection` (the active one, or null) on every load; the `_connected` layout narrows it to a
 * connection with a key, or sends the user to connect and back.
 */
export interface RouterContext {
  queryClient: QueryClient;
  connections: { readonly active: Connection | null };
}
