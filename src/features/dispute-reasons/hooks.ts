import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useLocalScope, type Connection } from '../../data';
import { DEFAULT_REASONS, type ReasonCode } from './model';
import { changeReasons, reasonsQuery } from './store';

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
  const queryClient = useQueryClient();
  const { data } = useQuery(reasonsQuery(scope));
  const change = useCallback(
    (edit: (current: readonly ReasonCode[]) => readonly ReasonCode[]) =>
      scope ? changeReasons(queryClient, scope, edit) : Promise.reject(new Error('The organization of this connection is not known yet.')),
    [queryClient, scope],
  );
  return { reasons: data ?? DEFAULT_REASONS, loaded: scope !== null && data !== undefined, change };
}
