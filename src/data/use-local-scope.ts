import { useEffect, useState } from 'react';
import type { Connection } from './connection';
import { knownScope, localScope } from './local-scope';

/**
 * The connection's local-store scope in a component: at once when its organization is known,
 * else after one verify (`localScope`), with that verify's error. Null while unknown.
 */
export function useLocalScope(connection: Connection | null): { scope: string | null; error: unknown } {
  const known = connection ? knownScope(connection) : null;
  const [resolved, setResolved] = useState<{ scope: string | null; error: unknown }>({ scope: null, error: null });
  useEffect(() => {
    if (!connection || known) return;
    let cancelled = false;
    localScope(connection).then(
      (scope) => !cancelled && setResolved({ scope, error: null }),
      (error: unknown) => !cancelled && setResolved({ scope: null, error }),
    );
    return () => {
      cancelled = true;
    };
  }, [connection, known]);
  return known ? { scope: known, error: null } : resolved;
}
