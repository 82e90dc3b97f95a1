/**
 * The console's offline app shell (docs/architecture.md, "Offline"). It handles two kinds of
 * request and no other, so everything else (the vendor's /v1, the hub's /hub/v1 and its change
 * stream, /media, anything not a GET) goes to the network exactly as without a worker — never
 * cached, never answered from a cache — and Playwright's page.route still sees it:
 *  - a navigation to a console route: the network first (so a new build's index.html is used the
 *    moment it is deployed); when the network fails, this worker's own index.html, which names the
 *    very assets precached beside it;
 *  - a file of the build (index.html, /assets/*, the icon): from the precache, filled at install
 *    from the manifest vite-plugin-pwa injects (each file with its revision or hashed name).
 * The only responses ever stored are those static files, fetched by the worker itself: no API
 * answer, no cookie (a worker cannot even read Set-Cookie), nothing that depends on who is signed in.
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<string | { url: string; revision: string | null }> };

// Paths that are never the console's, whatever their case (console-files.ts refuses them the same way):
// a navigation there (an image opened in a tab, an API URL typed in) is the server's to answer.
const NOT_THE_CONSOLE = [/^\/(v1|hub|media|_local)(\/|$)/i];

// A new build takes over as soon as it is installed, with no prompt: pages already open keep the code
// they loaded (a reviewer's work is in IndexedDB and the outbox, nothing to lose), and their next load
// gets the new build. Waiting instead would keep a reviewer who only ever reloads one tab on the old
// worker for good, since a reload never lets a waiting worker in. Its activation deletes the old
// build's files from the precache (and cleanupOutdatedCaches, caches of older Workbox formats).
void self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();

// Registered before the precache's route: routes are tried in order, and a navigation to / must go to
// the network first, not to the precached index.html.
registerRoute(
  new NavigationRoute(
    async ({ request }) => {
      try {
        return await fetch(request);
      } catch (error) {
        // Offline (or the server is down): the shell of this worker's build, which then shows what the
        // browser's store holds.
        const shell = await matchPrecache('/index.html');
        if (shell) return shell;
        throw error;
      }
    },
    { denylist: NOT_THE_CONSOLE },
  ),
);

precacheAndRoute(self.__WB_MANIFEST);
