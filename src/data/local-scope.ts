import { connectionStore } from './session';
import { scopeOf, type Connection } from './connection';

/**
 * Where this connection's local data lives: its organization on its base URL, verified once when
 * it is not known yet (the connection store keeps the verify running: `ConnectionStore.localScope`).
 */
export const localScope = (connection: Connection): Promise<string> => connectionStore.localScope(connection);

/** The scope when the organization is known already (no request). */
export const knownScope = (connection: Connection): string | null =>
  connection.verified?.org_id ? scopeOf(connection.baseUrl, connection.verified.org_id) : null;
