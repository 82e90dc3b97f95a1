import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { hubApi } from '../../api/hub';
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
  /** Through a team hub the codes are the team's, kept on the hub: only its admins change them. */
  team?: { editable: boolean };
}

/** The same key as the team pages' settings (features/team): one cache, so a save there is seen here. */
const teamSettingsKey = ['hub', 'settings'] as const;

/**
 * The reason codes the dispute dialog offers, the bulk bar sends and exports name. In personal
 * mode: the connection's organization's, kept in this browser (across tabs and reloads). Through a
 * team hub: the team's, from the hub's settings, so every member disputes with the same codes
 * (the defaults while the team has saved none).
 */
export function useDisputeReasons(connection: Connection | null): DisputeReasons {
  const hub = connection?.hub ? connection : null;
  // A connection saved without its organization is verified once, then known.
  const { scope } = useLocalScope(hub ? null : connection);
  const queryClient = useQueryClient();
  const local = useQuery({ ...reasonsQuery(scope), enabled: !hub && scope !== null });
  // The hub is this console's own origin, one per page: the key needs no base URL, and is the team pages' key.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  const team = useQuery({
    queryKey: teamSettingsKey,
    queryFn: ({ signal }) => hubApi(hub!.baseUrl).settings(signal),
    enabled: hub !== null,
    staleTime: 30_000,
  });
  const admin = hub?.hub?.member.role === 'admin';
  const change = useCallback(
    async (edit: (current: readonly ReasonCode[]) => readonly ReasonCode[]) => {
      if (hub) {
        if (!admin) throw new Error('The team’s reason codes are kept on the hub: only an admin of the team changes them (Team → Settings).');
        // Read fresh, so the edit applies to the team's codes as they are now.
        const current = await hubApi(hub.baseUrl).settings();
        const saved = await hubApi(hub.baseUrl).saveSettings({ reason_codes: [...edit(teamCodes(current.reason_codes))] });
        queryClient.setQueryData(teamSettingsKey, saved);
        return teamCodes(saved.reason_codes);
      }
      if (!scope) throw new Error('The organization of this connection is not known yet.');
      return changeReasons(queryClient, scope, edit);
    },
    [admin, hub, queryClient, scope],
  );
  if (hub) {
    const codes = team.data ? teamCodes(team.data.reason_codes) : DEFAULT_REASONS;
    return { reasons: codes, loaded: team.data !== undefined, change, team: { editable: admin } };
  }
  return { reasons: local.data ?? DEFAULT_REASONS, loaded: scope !== null && local.data !== undefined, change };
}

/** The team's list, or the defaults while the team has saved none. */
const teamCodes = (codes: readonly ReasonCode[]): readonly ReasonCode[] => (codes.length > 0 ? codes : DEFAULT_REASONS);
