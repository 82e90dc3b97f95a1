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
import { addPlugins, cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<string | { url: string; revision: string | null }> };

// Paths that are never the console's, whatever their case (console-files.ts refuses them the same way):
// a navigation there (an image opened in a tab, an API URL typed in) is the server's to answer.
const NOT_THE_CONSOLE = [/^\/(v1|hub|media|_local)(\/|$)/i];
/** A proxy's answers when the server behind it cannot be reached. */
const GATEWAY_DOWN = new Set([502, 503, 504]);

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
      let answer: Response;
      try {
        answer = await fetch(request);
      } catch (error) {
        // Offline: the shell of this worker's build, which then shows what the browser's store holds.
        const shell = await matchPrecache('/index.html');
        if (shell) return shell;
        throw error;
      }
      // The server down behind a proxy (its 502, 503 or 504 page): the shell too, as offline.
      if (GATEWAY_DOWN.has(answer.status)) return (await matchPrecache('/index.html')) ?? answer;
      return answer;
    },
    { denylist: NOT_THE_CONSOLE },
  ),
);

// Only what the build made is kept: a page (an HTML fallback for a missing file) under a script's or a
// style's name would be served for it on every later load. Such an answer fails the install instead,
// and the worker in place goes on serving its own build.
addPlugins([
  {
    cacheWillUpdate: async ({ request, response }) =>
      response.headers.get('Content-Type')?.startsWith('text/html') && !/(\/|\.html)$/.test(new URL(request.url).pathname) ? null : response,
  },
]);
precacheAndRoute(self.__WB_MANIFEST);
