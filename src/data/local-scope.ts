import { clientFor, connectionStore } from './session';
import { scopeOf, type Connection } from './connection';

const verifying = new Map<string, Promise<string>>();

/**
 * Where this connection's local data lives: its organization on its base URL. A connection
 * saved without a verified organization (older versions, "save without verifying") is verified
 * once, and the answer recorded.
 */
export function localScope(connection: Connection): Promise<string> {
  const org = connection.verified?.org_id;
  if (org) return Promise.resolve(scopeOf(connection.baseUrl, org));
  let pending = verifying.get(connection.id);
  if (!pending) {
    pending = clientFor(connection)
      .verifyKey()
      .then((verified) => {
        connectionStore.recordVerified(connection.id, { org_id: verified.org_id, key_id: verified.key_id, key_name: verified.key_name });
        return scopeOf(connection.baseUrl, verified.org_id);
      })
      .finally(() => verifying.delete(connection.id));
    verifying.set(connection.id, pending);
  }
  return pending;
}

/** The scope when the organization is known already (no request). */
export const knownScope = (connection: Connection): string | null =>
  connection.verified?.org_id ? scopeOf(connection.baseUrl, connection.verified.org_id) : null;
