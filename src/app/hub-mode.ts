import { hubApi } from '../api/hub';
import { detectHub } from '../api/hub-detect';
import type { QueryClient } from '@tanstack/react-query';
import { consoleOrigin, hubLive, type connectionStore, type HubMode } from '../data';

/** The member kept for an offline start; null when its file cannot be loaded either (no offline shell yet). */
const sessionMemory = () => import('./hub-session-memory').catch(() => null);

/** At once, not after an import: a sign-out navigates away right after it. */
const forgetter = (memory: Awaited<ReturnType<typeof sessionMemory>>) => () => memory?.forgetHubMember();

/**
 * Decides the console's mode once, before the router is made (docs/hub.md, "The console"): the
 * origin answers `GET /hub/v1/me` as a hub → hub mode, the connection derived from the member and
 * the team's subscriptions (or none until sign-in); anything else → personal mode (null), the
 * connection store as the browser kept it. When nothing answers (offline: the offline app shell
 * opened the console), the member last signed in here, if any, is taken as signed in still: their
 * review opens on what the browser's store holds, and their decisions wait in the outbox; the hub
 * judges the session again at the first request once it answers (a 401 sends them to sign in).
 */
export async function composeHubMode(store: typeof connectionStore): Promise<HubMode | null> {
  const origin = consoleOrigin();
  const detected = await detectHub(origin);
  if (detected.mode === 'personal') return null;
  if (detected.mode === 'unreachable') {
    // None (or no file to tell): personal mode, as before.
    const remembered = (await sessionMemory())?.rememberedConnection(origin);
    if (!remembered?.hub) return null;
    store.enterHub(remembered);
    return { origin, member: remembered.hub.member, forget: forgetter(await sessionMemory()) };
  }
  const { member } = detected;
  if (!member) {
    // No session (signed out, expired): an offline start must not open the last member's review.
    (await sessionMemory())?.forgetHubMember();
    store.enterHub(null);
    return { origin, member: null };
  }
  // Remembers the member for an offline start (hub-session-memory.ts) as it makes the connection.
  const { signedInConnection } = await import('./hub-connection');
  store.enterHub(await signedInConnection(origin, member));
  return { origin, member, forget: forgetter(await sessionMemory()) };
}

/**
 * Starts the hub's change stream (src/app/live-stream.ts, loaded here so a personal console never
 * fetches it) and gives the outbox's holds watcher a way to follow it: its interval pauses while
 * the stream is live, and a hold's change reads the holds at once.
 */
export function composeHubLive(origin: string, queryClient: QueryClient, member: { store: typeof connectionStore; reload: () => void }) {
  const { store, reload } = member;
  const waiting = new Set<() => void>();
  // A change to the team's members (a role changed by an admin): the member is read again, and a
  // new role makes the connection again, so the review's keys and the outbox's refusals follow it
  // without a reload. (A removed member's next request is a 401: the session watch signs them out.)
  const memberChanged = () =>
    void hubApi(origin)
      .me()
      .then(async (me) => {
        const current = store.active?.hub?.member;
        if (!current || current.id !== me.id || current.role === me.role) return;
        const { signedInConnection } = await import('./hub-connection');
        store.enterHub(await signedInConnection(origin, me));
        reload();
      })
      .catch(() => undefined);
  // Started for the page's lifetime: the browser closes the stream when the page goes.
  void import('./live-stream').then(({ startHubLive }) =>
    startHubLive({
      origin,
      queryClient,
      // The inbox's and the decisions' syncs are woken in live-stream.ts (this module is on the first page).
      refreshers: { holds: () => waiting.forEach((read) => read()), team: memberChanged },
    }),
  );
  return () => ({
    isLive: () => hubLive(queryClient)?.state === 'live',
    onChange: (read: () => void) => {
      waiting.add(read);
      return () => void waiting.delete(read);
    },
  });
}
