import { detectHub } from '../api/hub-detect';
import { consoleOrigin, hubConnection, type connectionStore, type HubMode } from '../data';

/**
 * Decides the console's mode once, before the router is made (docs/hub.md, "The console"): the
 * origin answers `GET /hub/v1/me` as a hub → hub mode, the connection derived from the member and
 * the team's subscriptions (or none until sign-in); anything else → personal mode (null), the
 * connection store as the browser kept it.
 */
export async function composeHubMode(store: typeof connectionStore): Promise<HubMode | null> {
  const origin = consoleOrigin();
  const detected = await detectHub(origin);
  if (detected.mode === 'personal') return null;
  const { member } = detected;
  if (!member) {
    store.enterHub(null);
    return { origin, member: null };
  }
  // The team's subscriptions make the connection; a hub that cannot list them now leaves the
  // member signed in with none (the review says so) rather than no console at all.
  // The hub's client loads only in hub mode (not on a personal console's first page).
  const subscriptions = await import('../api/hub').then(({ hubApi }) => hubApi(origin).subscriptions()).catch(() => []);
  store.enterHub(hubConnection(origin, member, subscriptions));
  return { origin, member };
}
