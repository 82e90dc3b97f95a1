import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Env } from 'hono';
import { compress } from 'hono/compress';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ServiceError } from '../lib/service-error';

/**
 * The built console (`--static DIR`), for the simulator and the hub alike: its files, then
 * index.html for any other GET that names no file, so client-side routes survive a reload. A path under one of the
 * API prefixes, whatever its case, is never the console's: /v1/nope is the JSON 404, not
 * index.html with 200 (a client would take that page for an API answer).
 */
/** A file a build writes at the root: the worker, its helpers, icons. */
const BUILD_FILE = /^\/[^/]+\.(js|mjs|css|map|svg|png|ico|woff2?|webmanifest)$/i;

export function consoleFiles<E extends Env>(staticDir: string, apiPrefixes: readonly string[]) {
  const router = new Hono<E>();
  const indexFile = join(staticDir, 'index.html');
  const root = relative(process.cwd(), staticDir) || '.';
  const api = new RegExp(`^/(${apiPrefixes.map((p) => p.replace(/^\//, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(/|$)`, 'i');

  // The console's files travel compressed (the API's pages are left as they are: they are CPU-bound).
  router.use('*', compress());
  router.use('*', async (c, next) => {
    // An API path never reaches the files either (a file named like one must not shadow it).
    if (api.test(c.req.path)) throw new ServiceError('NOT_FOUND', `no route for ${c.req.method} ${c.req.path}`);
    await next();
  });
  router.use(
    '/assets/*',
    serveStatic({
      root,
      onFound: (_path, c) => {
        c.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
    }),
  );
  router.use(
    '*',
    serveStatic({
      root,
      onFound: (path, c) => {
        // index.html (also at /) names the hashed assets of this build, and sw.js (the offline app
        // shell's worker) lists them for its precache: both always revalidated, so a new build is
        // found at the next load (browsers revalidate a worker's script anyway; a proxy may not).
        if (path.endsWith('.html') || /(^|[\\/])sw\.js$/.test(path)) c.header('Cache-Control', 'no-cache');
      },
    }),
  );
  router.get('*', (c) => {
    // A missing file of a build (/assets/app-1a2b.js of another build, /sw.js) is a 404, never
    // index.html with 200: the offline shell's precache would keep that page under a script's name and
    // answer every later load with it (a blank console until the next build). A route's own segments
    // may hold dots (a subscription ID): only the build's folder and root-level file names count.
    if (c.req.path.startsWith('/assets/') || BUILD_FILE.test(c.req.path)) throw new ServiceError('NOT_FOUND', `no file ${c.req.path}`);
    if (!existsSync(indexFile)) throw new ServiceError('NOT_FOUND', `no route for ${c.req.method} ${c.req.path}`);
    c.header('Cache-Control', 'no-cache');
    return c.html(readFileSync(indexFile, 'utf8'), 200);
  });
  return router;
}
