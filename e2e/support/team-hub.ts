import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { slotPort, workerSlot } from './worker';

/*
 * A team hub for the team pages' E2E: `npm run hub -- --demo` as its own process (its simulator
 * in-process, demo accounts in DIR/demo-accounts.json), and in front of it one origin that serves
 * the built console and passes /hub and /v1 to the hub, as a hub serving the console does: the
 * page, its fetches and the session cookie share one origin. (The hub serving dist/ itself is hub
 * mode's own work; this front stands in until then.) Ports: E2E_PORT + 20/30 + the worker's slot.
 */

export interface DemoAccount {
  email: string;
  password: string;
  role: 'admin' | 'reviewer' | 'viewer';
}

export interface TeamHub {
  /** The console's and the hub's one origin, as the browser sees it. */
  url: string;
  /** The hub itself (its own port), for requests made as a script would. */
  hubUrl: string;
  dataDir: string;
  accounts: Record<'admin' | 'reviewer1' | 'reviewer2' | 'viewer', DemoAccount>;
  stop: () => Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
};

/** The built console (dist/), with index.html for every route, and the hub's paths passed through unchanged. */
function front(port: number, hubPort: number): Server {
  const dist = normalize('dist');
  return createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    if (path.startsWith('/hub/') || path.startsWith('/v1/')) {
      const upstream = request(
        { host: '127.0.0.1', port: hubPort, method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${hubPort}` } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.writeHead(502).end());
      req.pipe(upstream);
      return;
    }
    let file = normalize(join(dist, path));
    if (!file.startsWith(dist) || !existsSync(file) || statSync(file).isDirectory()) file = join(dist, 'index.html');
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  }).listen(port, '127.0.0.1');
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/hub/v1/me`)).status === 401;
  } catch {
    return false;
  }
}

export async function startTeamHub(): Promise<TeamHub> {
  const slot = workerSlot();
  const port = slotPort(slot) + 20;
  const hubPort = slotPort(slot) + 30;
  const url = `http://127.0.0.1:${port}`;
  const hubUrl = `http://127.0.0.1:${hubPort}`;
  const dataDir = join('.e2e-data', `team-w${slot}`);
  rmSync(dataDir, { recursive: true, force: true });
  const child: ChildProcess = spawn(
    process.execPath,
    // --insecure-cookies: the browser reaches the front over plain http on 127.0.0.1.
    ['--import', 'tsx', 'server/cli/hub.ts', '--port', String(hubPort), '--data', dataDir, '--demo', '--origin', url, '--insecure-cookies', '--quiet'],
    { stdio: ['ignore', 'ignore', 'ignore'] },
  );
  let exited = false;
  child.once('exit', () => (exited = true));
  while (!(await answers(hubUrl))) {
    if (exited) throw new Error('the team hub exited before it answered');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const server = front(port, hubPort);
  await once(server, 'listening');
  const list = JSON.parse(readFileSync(join(dataDir, 'demo-accounts.json'), 'utf8')) as DemoAccount[];
  const byName = (prefix: string) => list.find((a) => a.email.startsWith(prefix))!;
  return {
    url,
    hubUrl,
    dataDir,
    accounts: { admin: byName('admin@'), reviewer1: byName('reviewer1@'), reviewer2: byName('reviewer2@'), viewer: byName('viewer@') },
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    },
  };
}
