import { hubApi } from '../api/hub';
import type { SignedInMember } from '../api/contract/hub';
import type { Connection } from '../data';
import { hubConnection } from '../data/hub-connection';
import { rememberHubMember } from './hub-session-memory';

/**
 * The connection of a member signed in to the hub: the team's subscriptions make it. A hub that
 * cannot list them now leaves the member signed in with none (the review says so) rather than no
 * console at all. Remembered for a start with no network (hub-session-memory.ts). Loaded only in hub
 * mode, not on a personal console's first page.
 */
export async function signedInConnection(origin: string, member: SignedInMember): Promise<Connection> {
  const listed = await hubApi(origin)
    .subscriptions()
    .catch(() => null);
  rememberHubMember(member, listed);
  return hubConnection(origin, member, listed ?? []);
}
