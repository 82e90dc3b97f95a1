import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEMO_CREDENTIALS_FILE, type LivePullForm } from '../src/api/contract';
import { createApp } from './app';
import type { GatewayOptions } from './gateway';
import type { ServiceContext } from './http/context';
import { hostPolicy } from './http/hosts';
import { listenFirst, type ServerTimeouts } from './http/node-server';
import { safeLog } from './lib/log-text';
import { isEmpty, seedDemo, seededDemo } from './seed/demo';
import { openDb, type Db } from './store/db';
import { dataDirSecret } from './store/secrets';

export interface ServiceOptions {
  port: number;
  host: string;
  dataDir: string;
  seed: 'demo' | 'none';
  livePullForm: LivePullForm;
  corsOrigins: readonly string[];
  /** Host names answered besides the bind address and, on loopback, the loopback names (--allowed-host). */
  allowedHosts?: readonly string[];
  /** Other API origins the served console may call (its CSP connect-src). */
  apiOrigins?: readonly string[];
  staticDir?: string;
  /** Gateway mode: /v1 goes to this real service instead of the local store (server/gateway.ts). */
  gateway?: Omit<GatewayOptions, 'log'>;
  log?: (line: string) => void;
  /** How long a request may take to arrive (tests shorten it). */
  timeouts?: ServerTimeouts;
}

export interface RunningService {
  url: string;
  port: number;
  db: Db;
  dataDir: string;
  demoCredentialsFile: string | null;
  close: () => Promise<void>;
}

/**
 * Takes the port first, then opens the data directory, seeds it if asked and empty, and serves the
 * API (and console). A port in use fails before anything is created or seeded; requests that
 * arrive while the store opens wait for it.
 */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  const { server, port, serve: ready } = await listenFirst(options);
  const policy = hostPolicy(options.host, options.allowedHosts ?? []);
  policy.port = port;

  const dataDir = resolve(options.dataDir);
  let db: Db | undefined;
  let demoCredentialsFile: string | undefined;
  try {
    db = openDb(dataDir);
    const credentialsFile = join(dataDir, DEMO_CREDENTIALS_FILE);
    if (options.seed === 'demo' && isEmpty(db)) await seedDemo(db, dataDir);
    // Only a demo this service seeded itself is offered (never a credentials file found lying in a data directory).
    demoCredentialsFile = options.seed === 'demo' && seededDemo(db) && existsSync(credentialsFile) ? credentialsFile : undefined;
    // Every line logged has its control characters escaped: a client cannot forge a log line.
    const log = options.log && safeLog(options.log);
    const ctx: ServiceContext = {
      db,
      cursorSecret: dataDirSecret(db, 'cursor_secret'),
      jwtSecret: dataDirSecret(db, 'jwt_secret'),
      livePullForm: options.livePullForm,
      corsOrigins: options.corsOrigins,
      staticDir: options.staticDir ? resolve(options.staticDir) : undefined,
      demoCredentialsFile,
      log,
      hostPolicy: policy,
    };
    ready(createApp(ctx, { apiOrigins: options.apiOrigins, gateway: options.gateway && { ...options.gateway, log } }));
  } catch (error) {
    server.close();
    db?.close();
    throw error;
  }
  const opened = db;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    port,
    db: opened,
    dataDir,
    demoCredentialsFile: demoCredentialsFile ?? null,
    close: () =>
      new Promise<void>((done) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => {
          opened.close();
          done();
        });
      }),
  };
}
