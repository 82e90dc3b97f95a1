import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { hostPolicy } from '../http/hosts';
import { listenFirst, type ServerTimeouts } from '../http/node-server';
import { safeLog } from '../lib/log-text';
import { createHubApp } from './app';
import { startSender, type Sender } from './decisions/sender';
import { DEFAULT_RECEIPT_SYNC_MS, startReceiptSync, type ReceiptSync } from './receipts/sync';
import { DEFAULT_SCHEDULE_TICK_MS, startInboxSchedule, type InboxSchedule } from './inbox/schedule';
import { DEFAULT_PULLED_ITEMS_DAYS, prunePulledItems, startPruner, type Pruner } from './store/pulled-items';
import type { HubContext, RetryPolicy } from './http/context';
import { openHubStore, type HubStore, type QueryListener } from './db/open';
import { createBroker, type Broker } from './live/broker';
import { listenForAudit, type Listener } from './live/pg-listen';
import { DEMO_ACCOUNTS_FILE, seedDemoAccounts, startDemoSimulator } from './demo';
import { createOidc, type OidcSettings } from './oidc';
import { createPasswords } from './passwords';
import { DEFAULT_THROTTLE, type ThrottlePolicy } from './store/throttle';
import { checkVendorKeys } from './store/vendor-keys';
import { loadHubSecret, vendorCipher } from './vendor-cipher';

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
  /** The Data Delivery Service /v1 is forwarded to. */
  upstream?: string;
  /**
   * Run the simulator in this process as the upstream (its data in DIR/simulator, seeded as
   * `npm run service` does), its demo key held as the hub's vendor key for every subscription.
   */
  simulator?: boolean;
  /** The built console to serve (`--static DIR`), so members sign in on the hub's own origin. */
  staticDir?: string;
  /** The hub secret the vendor keys are sealed under; HUB_SECRET or DIR/hub-secret when absent. */
  hubSecret?: string;
  throttle?: ThrottlePolicy;
  log?: (line: string) => void;
  /** Every statement the store runs (tests count them per request). */
  onQuery?: QueryListener;
  timeouts?: ServerTimeouts;
  /** The clock budget periods are read from (tests move it); Date.now when absent. */
  clock?: () => number;
  /** How queued decisions are retried; the defaults of server/hub/decisions/deliver.ts when absent. */
  retry?: RetryPolicy;
  /** How often the vendor's usage receipts are read (ms; 0: only when asked). DEFAULT_RECEIPT_SYNC_MS when absent. */
  receiptSyncMs?: number;
  /** The change stream's poll of audit_head while anyone listens (ms); 200 on SQLite, 5,000 on PostgreSQL when absent. */
  eventsPollMs?: number;
  /** Heartbeats on an idle change stream (ms); 15,000 when absent. */
  eventsHeartbeatMs?: number;
  /** How often the hub looks for scheduled pulls that are due (ms; 0: never). DEFAULT_SCHEDULE_TICK_MS when absent. */
  scheduleTickMs?: number;
  /** How long a team pull's claim lasts (server/hub/inbox/team-pull.ts). */
  pullClaimMs?: number;
  /** The per-member hold cap of the team queue (server/hub/store/leases.ts): benchmarks that never decide raise it. */
  memberHoldCap?: number;
  /** Pulled items' prices are kept this many days (server/hub/store/pulled-items.ts); 30 when absent. */
  pulledItemsDays?: number;
  /** Single sign-on through an OpenID Connect provider, beside passwords (server/hub/oidc.ts). */
  oidc?: OidcSettings;
}

export interface RunningHub {
  url: string;
  port: number;
  store: HubStore;
  dataDir: string;
  demoAccountsFile: string | null;
  /** With `simulator`: its URL and DIR/demo-credentials.json (the simulator's key and JWT, 0600). */
  simulator: { url: string; credentialsFile: string } | null;
  /** Event streams open on this process (GET /hub/v1/events). */
  openStreams: () => number;
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
  const { server, port, serve: ready } = await listenFirst(options);
  const policy = hostPolicy(options.host, options.allowedHosts ?? []);
  policy.port = port;

  let store: HubStore | undefined;
  let demoAccountsFile: string | null = null;
  let simulator: Awaited<ReturnType<typeof startDemoSimulator>> | undefined;
  let sender: Sender | undefined;
  let receipts: ReceiptSync | undefined;
  let pruner: Pruner | undefined;
  let events: Broker | undefined;
  let listener: Listener | undefined;
  let schedule: InboxSchedule | undefined;
  try {
    store = await openHubStore({ dataDir, databaseUrl: options.databaseUrl, log, onQuery: options.onQuery });
    const cipher = vendorCipher(options.hubSecret !== undefined ? Buffer.from(options.hubSecret, 'utf8') : loadHubSecret(dataDir));
    // A wrong secret is a start-up failure naming itself, not a 500 on the first forwarded request.
    await checkVendorKeys(store.db, cipher);
    if (options.simulator) simulator = await startDemoSimulator(store.db, cipher, dataDir);
    const passwords = createPasswords();
    if (options.demo) {
      demoAccountsFile = await seedDemoAccounts(store.db, passwords, dataDir);
      if (!demoAccountsFile && existsSync(join(dataDir, DEMO_ACCOUNTS_FILE))) demoAccountsFile = join(dataDir, DEMO_ACCOUNTS_FILE);
    }
    events = createBroker({ db: store.db, engine: store.engine, pollMs: options.eventsPollMs, heartbeatMs: options.eventsHeartbeatMs, log });
    // Another hub on the same PostgreSQL (or the CLI) appended: its commit's NOTIFY wakes this one's stream.
    if (options.databaseUrl !== undefined) listener = listenForAudit(options.databaseUrl, events.wake, log);
    const ctx: HubContext = {
      events,
      db: store.db,
      engine: store.engine,
      passwords,
      origins: ownOrigins(options.host, port, options.origins ?? []),
      secureCookies: !options.insecureCookies,
      throttle: options.throttle ?? DEFAULT_THROTTLE,
      cipher,
      upstream: simulator?.service.url ?? options.upstream,
      log,
      hostPolicy: policy,
      clock: options.clock,
      retry: options.retry,
      staticDir: options.staticDir ? resolve(options.staticDir) : undefined,
      demoMedia: options.simulator === true,
      pullClaimMs: options.pullClaimMs,
      memberHoldCap: options.memberHoldCap,
      oidc: options.oidc && createOidc(options.oidc, cipher),
    };
    // Decisions a killed hub left mid-send are queued again before the first request is served.
    const clock = options.clock ?? Date.now;
    const keepDays = options.pulledItemsDays ?? DEFAULT_PULLED_ITEMS_DAYS;
    const pruned = await prunePulledItems(store.db, clock(), keepDays);
    if (pruned > 0) log?.(`hub: ${pruned} pulled item(s) no decision can need any more were pruned`);
    pruner = startPruner(store.db, clock, keepDays, log);
    sender = await startSender(ctx);
    const every = options.receiptSyncMs ?? DEFAULT_RECEIPT_SYNC_MS;
    if (every > 0) receipts = startReceiptSync(ctx, every);
    schedule = startInboxSchedule(ctx, options.scheduleTickMs ?? DEFAULT_SCHEDULE_TICK_MS);
    ready(createHubApp(ctx));
  } catch (error) {
    events?.stop();
    await listener?.stop();
    await pruner?.stop();
    await schedule?.stop();
    await receipts?.stop();
    await sender?.stop();
    server.close();
    await simulator?.service.close();
    await store?.close();
    throw error;
  }
  const opened = store;
  const running = sender;
  const reading = receipts;
  const pruning = pruner;
  const streams = events;
  const listening = listener;
  const scheduling = schedule;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    port,
    store: opened,
    dataDir,
    demoAccountsFile,
    simulator: simulator ? { url: simulator.service.url, credentialsFile: simulator.credentialsFile } : null,
    openStreams: () => streams.count(),
    close: () =>
      new Promise<void>((done) => {
        // Open event streams end first (a clean end of stream: the browser reconnects elsewhere or later).
        streams.stop();
        void listening?.stop();
        server.closeAllConnections();
        server.close(
          () =>
            void Promise.all([running.stop(), reading?.stop(), pruning?.stop(), scheduling?.stop()])
              .then(() => Promise.all([opened.close(), simulator?.service.close()]))
              .then(() => done(), done),
        );
      }),
  };
}
