import { createClient, type DdsClient } from '../api/client';
import type { Connection } from './connection';
import { ConnectionStore } from './connection-store';

/** The console's one connection store. */
export const connectionStore = new ConnectionStore();

/** The console's own origin: the default base URL, and where a local service serves it. */
export const consoleOrigin = () => window.location.origin;

/** A client for a connection (its store keeps one per connection), or for the public endpoints of the console's origin. */
export function clientFor(connection: Connection | null): DdsClient {
  return connection ? connectionStore.clientFor(connection) : createClient({ baseUrl: consoleOrigin() });
}

/** Asks the service whose key this is (spec 4.5) before it is saved: sent once, nothing recorded. */
export const verifyNewKey = (baseUrl: string, apiKey: string) => createClient({ baseUrl }).verifyKey(apiKey);

/**
 * Query-key prefixes (not scopes: a scope is an organization's local data, docs/architecture.md "Words"):
 * public data by base URL, keyed data by connection (cleared on disconnect).
 */
export const publicQueryKey = (connection: Connection | null) => ['dds', 'public', connection?.baseUrl ?? consoleOrigin()] as const;
export const keyedQueryKey = (connection: Connection) => ['dds', 'key', connection.id] as const;
