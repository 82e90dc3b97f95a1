import { Hono } from 'hono';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { consoleFiles } from '../http/console-files';
import type { ServiceContext } from '../http/context';
import { isLoopbackHost, isLoopbackPeer } from '../http/hosts';
import { ServiceError } from '../lib/service-error';

/** Headers a proxy adds to say whom it forwards for (RFC 7239, and the de-facto X-Forwarded-* and X-Real-IP). */
const forwarded = (headers: Headers): boolean => {
  let found = false;
  headers.forEach((_value, name) => {
    if (name === 'forwarded' || name === 'x-real-ip' || name.startsWith('x-forwarded-')) found = true;
  });
  return found;
};

/**
 * Serves the built console beside the API (`console-files.ts`), and offers the demo connection
 * when the data directory was seeded with demo data.
 */
export function consoleRouter(ctx: ServiceContext) {
  const router = new Hono();

  router.get('/_local/demo-connection', (c) => {
    // The demo key is handed to this machine only: a loopback Host (what a browser on it sends)
    // from a loopback peer (a client elsewhere could send any Host).
    const peer = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.remoteAddress;
    if (!isLoopbackHost(c.req.header('Host')) || !isLoopbackPeer(peer)) {
      throw new ServiceError('MISDIRECTED_REQUEST', 'the demo connection is offered on loopback only (http://127.0.0.1:<port>)');
    }
    // A reverse proxy on this machine is a loopback peer, and one that forwards with its default
    // Host (nginx: the upstream's 127.0.0.1:port) looks like a local browser: a proxy says so in
    // its forwarding headers, and the demo key is never handed through one.
    if (forwarded(c.req.raw.headers)) {
      throw new ServiceError('MISDIRECTED_REQUEST', 'the demo connection is not offered through a proxy: open the service itself on http://127.0.0.1:<port>');
    }
    const file = ctx.demoCredentialsFile;
    if (!file || !existsSync(file)) throw new ServiceError('NOT_FOUND', 'no demo connection on this service');
    c.header('Cache-Control', 'no-store');
    return c.json(JSON.parse(readFileSync(file, 'utf8')) as unknown, 200);
  });

  // The console's files after the routes above: /v1 and /_local are never the console's.
  if (ctx.staticDir) router.route('/', consoleFiles(ctx.staticDir, ['/v1']));
  return router;
}
