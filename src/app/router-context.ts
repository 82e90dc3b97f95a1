import type { QueryClient } from '@tanstack/react-query';
import type { Connection, HubMode } from '../data';
import type { OutboxHandle } from '../data/outbox';
import type { ChangeFeed } from '../domain/store/change-feed';

/**
 * What every route's loader and component may use, given once by the app. The root route adds
 * `connection` (the active one, or null) on every load; the `_connected` layout narrows it to a
 * connection with a key, or sends the user to connect and back.
 */
export interface RouterContext {
  queryClient: QueryClient;
  connections: { readonly active: Connection | null };
  /** The local store's change feed (src/app/local-store.ts): one message per change, every tab. */
  localChanges: ChangeFeed;
  /** The decision outbox, created on first use (src/app/outbox-handle.ts); also given as `OutboxContext`. */
  outbox: OutboxHandle;
  /** Hub mode (src/app/hub-mode.ts), or null in personal mode: the guards send to /sign-in instead of /connection. */
  hub: HubMode | null;
}
