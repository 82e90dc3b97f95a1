import { detectHub } from '../api/hub-detect';
import { consoleOrigin, type connectionStore, type HubMode } from '../data';

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
  const { signedInConnection } = await import('./hub-connection');
  store.enterHub(await signedInConnection(origin, member));
  return { origin, member };
}
