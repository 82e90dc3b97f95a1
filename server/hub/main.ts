import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { hostPolicy } from '../http/hosts';
import { createNodeServer, DEFAULT_TIMEOUTS, type ServerTimeouts } from '../http/node-server';
import { safeLog } from '../lib/log-text';
import { createHubApp } from './app';
import { openHubStore, type HubStore } from './db/open';
import { DEMO_ACCOUNTS_FILE, seedDemoAccounts } from './demo';
import { createPasswords } from './passwords';
import { DEFAULT_THROTTLE, type ThrottlePolicy } from './store/throttle';

export interface HubOptions {
  port: number;
  host: string;
  dataDir: string;
  /** `postgres://…`; the embedded SQLite file in dataDir when absent. */
  databaseUrl?: string;
  /** Public origins the hub is reached at besides its own address (behind a proxy, a dev server). */
  origins?: readonly string[];
  allowedHosts?: readonly string[];
  /** Drop Secure from the session cookie (a LAN over plain http). */
  insecureCookies?: boolean;
  /** Create the demo accounts when the hub has no member. */
  demo?: boolean;
  throttle?: ThrottlePolicy;
  log?: (line: string) => void;
  timeouts?: ServerTimeouts;
}

export interface RunningHub {
  url: string;
  port: number;
  store: HubStore;
  dataDir: string;
  demoAccountsFile: string | null;
  close: () => Promise<void>;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|::1|0\.0\.0\.0|::)$/;

/** The hub's own origins: its address, and on a loopback or wildcard bind every loopback name, plus --origin. */
function ownOrigins(host: string, port: number, extra: readonly string[]): string[] {
  const name = host.includes(':') ? `[${host}]` : host;
  const loopback = LOOPBACK.test(host) ? ['localhost', '127.0.0.1', '[::1]'].map((h) => `http://${h}:${port}`) : [];
  return [...new Set([`http://${name}:${port}`, ...loopback, ...extra])];
}

/** Takes the port, opens (and migrates) the store, seeds the demo accounts if asked, and serves the hub. */
export async function startHub(options: HubOptions): Promise<RunningHub> {
  const log = options.log && safeLog(options.log);
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  let ready!: (app: ReturnType<typeof createHubApp>) => void;
  const appReady = new Promise<ReturnType<typeof createHubApp>>((done) => (ready = done));
  const server = createNodeServer(async (request, env) => (await appReady).fetch(request, env), {
    hostname: options.host,
    timeouts: options.timeouts ?? DEFAULT_TIMEOUTS,
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host, () => done());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const policy = hostPolicy(options.host, options.allowedHosts ?? []);
  policy.port = port;

  let store: HubStore | undefined;
  let demoAccountsFile: string | null = null;
  try {
    store = await openHubStore({ dataDir, databaseUrl: options.databaseUrl, log });
    const passwords = createPasswords();
    if (options.demo) {
      demoAccountsFile = await seedDemoAccounts(store.db, passwords, dataDir);
      if (!demoAccountsFile && existsSync(join(dataDir, DEMO_ACCOUNTS_FILE))) demoAccountsFile = join(dataDir, DEMO_ACCOUNTS_FILE);
    }
    ready(
      createHubApp({
        db: store.db,
        engine: store.engine,
        passwords,
        origins: ownOrigins(options.host, port, options.origins ?? []),
        secureCookies: !options.insecureCookies,
        throttle: options.throttle ?? DEFAULT_THROTTLE,
        log,
        hostPolicy: policy,
      }),
    );
  } catch (error) {
    server.close();
    await store?.close();
    throw error;
  }
  const opened = store;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    port,
    store: opened,
    dataDir,
    demoAccountsFile,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => void opened.close().then(done, done));
      }),
  };
}
