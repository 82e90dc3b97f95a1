import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEMO_CREDENTIALS_FILE, type LivePullForm } from '../src/api/contract';
import { createApp } from './app';
import type { GatewayOptions } from './gateway';
import type { ServiceContext } from './http/context';
import { hostPolicy } from './http/hosts';
import { createNodeServer, DEFAULT_TIMEOUTS, type ServerTimeouts } from './http/node-server';
import { isEmpty, seedDemo } from './seed/demo';
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

/** Opens the data directory, seeds it if asked and empty, and serves the API (and console). */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  const dataDir = resolve(options.dataDir);
  const db = openDb(dataDir);
  const credentialsFile = join(dataDir, DEMO_CREDENTIALS_FILE);
  if (options.seed === 'demo' && isEmpty(db)) await seedDemo(db, dataDir);
  const ctx: ServiceContext = {
    db,
    cursorSecret: dataDirSecret(db, 'cursor_secret'),
    jwtSecret: dataDirSecret(db, 'jwt_secret'),
    livePullForm: options.livePullForm,
    corsOrigins: options.corsOrigins,
    staticDir: options.staticDir ? resolve(options.staticDir) : undefined,
    demoCredentialsFile: options.seed === 'demo' ? credentialsFile : undefined,
    log: options.log,
    hostPolicy: hostPolicy(options.host, options.allowedHosts ?? []),
  };
  const app = createApp(ctx, { apiOrigins: options.apiOrigins, gateway: options.gateway && { ...options.gateway, log: options.log } });
  const server = createNodeServer(app.fetch, { hostname: options.host, timeouts: options.timeouts ?? DEFAULT_TIMEOUTS });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host, () => done());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  ctx.hostPolicy!.port = port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    port,
    db,
    dataDir,
    demoCredentialsFile: existsSync(credentialsFile) ? credentialsFile : null,
    close: () =>
      new Promise<void>((done) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => {
          db.close();
          done();
        });
      }),
  };
}
