import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { useLocalScope, type Connection } from '../../data';
import type { ReasonCode } from './model';
import { changeReasons, reasonsLoaded, reasonsSnapshot, refreshReasons, subscribeReasons } from './store';

export interface DisputeReasons {
  /** The organization's codes, in order (the defaults until read). */
  reasons: readonly ReasonCode[];
  /** The list was read from the store (before that, the defaults are shown). */
  loaded: boolean;
  /** Changes the stored list (rejects when the store cannot be written, or the scope is unknown yet). */
  change: (edit: (current: readonly ReasonCode[]) => readonly ReasonCode[]) => Promise<readonly ReasonCode[]>;
}

/** The connection's organization's reason codes, kept current across tabs and reloads. */
export function useDisputeReasons(connection: Connection | null): DisputeReasons {
  // A connection saved without its organization is verified once, then known.
  const { scope } = useLocalScope(connection);
  useEffect(() => {
    if (scope) void refreshReasons(scope);
  }, [scope]);
  const reasons = useSyncExternalStore(subscribeReasons, () => reasonsSnapshot(scope));
  const loaded = useSyncExternalStore(subscribeReasons, () => reasonsLoaded(scope));
  const change = useCallback(
    (edit: (current: readonly ReasonCode[]) => readonly ReasonCode[]) =>
      scope ? changeReasons(scope, edit) : Promise.reject(new Error('The organization of this connection is not known yet.')),
    [scope],
  );
  return { reasons, loaded, change };
}
