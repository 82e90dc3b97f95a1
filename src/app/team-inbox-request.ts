/*
 * How anything in the app asks the team inbox's sync (src/app/team-inbox-sync.ts, loaded lazily)
 * to read the hub now: a window event, so asking costs the first page nothing.
 */

export const TEAM_INBOX_SYNC_EVENT = 'dds:team-inbox-sync';

export interface TeamInboxSyncRequest {
  subscriptionId?: string | undefined;
  /** Only the team's decisions changed (src/app/team-decisions-sync.ts): the items are not read. */
  what?: 'decisions';
}

/** Asks the running sync to read the team's inbox now (all subscriptions, or one; the items and the decisions, or the decisions only). */
export function requestTeamInboxSync(subscriptionId?: string, what?: 'decisions'): void {
  const detail: TeamInboxSyncRequest = what ? { subscriptionId, what } : { subscriptionId };
  window.dispatchEvent(new CustomEvent(TEAM_INBOX_SYNC_EVENT, { detail }));
}
