/*
 * How anything in the app asks the team inbox's sync (src/app/team-inbox-sync.ts, loaded lazily)
 * to read the hub now: a window event, so asking costs the first page nothing.
 */

export const TEAM_INBOX_SYNC_EVENT = 'dds:team-inbox-sync';

/** Asks the running sync to read the team's inbox now (all subscriptions, or one). */
export function requestTeamInboxSync(subscriptionId?: string): void {
  window.dispatchEvent(new CustomEvent(TEAM_INBOX_SYNC_EVENT, { detail: { subscriptionId } }));
}
