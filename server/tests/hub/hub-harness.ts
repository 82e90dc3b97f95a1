import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_ACCOUNTS_FILE } from '../../hub/demo';
import { startHub, type HubOptions, type RunningHub } from '../../hub/main';
import type { ThrottlePolicy } from '../../hub/store/throttle';
import { throwawayDatabase, type ThrowawayDatabase } from './postgres';

/** Every hub suite runs on both stores. */
export const ENGINES = ['sqlite', 'postgres'] as const;
export type TestEngine = (typeof ENGINES)[number];

interface Account {
  email: string;
  password: string;
  role: 'admin' | 'reviewer' | 'viewer';
}

interface Answer {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

export interface CallOptions {
  cookie?: string;
  token?: string;
  /** The Origin header; the hub's own by default, `null` for none. */
  origin?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestHub {
  hub: RunningHub;
  url: string;
  dataDir: string;
  /** The PostgreSQL database's URL (the CLI's --database), when on PostgreSQL. */
  databaseUrl?: string;
  /** The demo accounts the hub wrote: admin, reviewer1, reviewer2, viewer. */
  accounts: Record<'admin' | 'reviewer1' | 'reviewer2' | 'viewer', Account>;
  /** Every line the hub logged. */
  logs: string[];
  call: (method: string, path: string, options?: CallOptions) => Promise<Answer>;
  /** Signs in and returns the `name=value` of the session cookie. */
  signIn: (account: Pick<Account, 'email' | 'password'>) => Promise<string>;
  close: () => Promise<void>;
}

/** The `name=value` of a Set-Cookie, or undefined. */
export const cookieOf = (headers: Headers) =>
  headers
    .getSetCookie()
    .find((c) => c.startsWith('ddh_session='))
    ?.split(';')[0];

/** A real hub on a free port: a fresh data directory, and on PostgreSQL a fresh database. */
export async function startTestHub(
  engine: TestEngine,
  options: { throttle?: ThrottlePolicy; simulator?: boolean; upstream?: string; hubSecret?: string; staticDir?: string } & Pick<
    HubOptions,
    'clock' | 'retry' | 'receiptSyncMs' | 'eventsHeartbeatMs' | 'scheduleTickMs' | 'pullClaimMs' | 'onQuery' | 'oidc'
  > = {},
): Promise<TestHub> {
  // argon2id at its full cost takes ~0.2 s a hash here; the parameters travel in the hash, so tests may use less.
  process.env.HUB_PASSWORD_COST = 'low';
  const dataDir = mkdtempSync(join(tmpdir(), 'hub-test-'));
  let database: ThrowawayDatabase | undefined;
  const logs: string[] = [];
  try {
    if (engine === 'postgres') database = await throwawayDatabase();
    const hub = await startHub({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      databaseUrl: database?.url,
      demo: true,
      throttle: options.throttle,
      simulator: options.simulator,
      upstream: options.upstream,
      hubSecret: options.hubSecret,
      staticDir: options.staticDir,
      clock: options.clock,
      retry: options.retry,
      // Receipts are read when a test asks (POST /hub/v1/budgets/sync), unless it sets an interval.
      receiptSyncMs: options.receiptSyncMs ?? 0,
      eventsHeartbeatMs: options.eventsHeartbeatMs,
      // Scheduled pulls only where a test asks for them.
      scheduleTickMs: options.scheduleTickMs ?? 0,
      pullClaimMs: options.pullClaimMs,
      onQuery: options.onQuery,
      oidc: options.oidc,
      log: (line) => logs.push(line),
    });
    const list = JSON.parse(readFileSync(join(dataDir, DEMO_ACCOUNTS_FILE), 'utf8')) as Account[];
    const byName = (prefix: string) => list.find((a) => a.email.startsWith(prefix))!;
    const accounts = { admin: byName('admin@'), reviewer1: byName('reviewer1@'), reviewer2: byName('reviewer2@'), viewer: byName('viewer@') };
    const call: TestHub['call'] = async (method, path, o = {}) => {
      const headers: Record<string, string> = { ...o.headers };
      if (o.origin !== null) headers.Origin = o.origin ?? hub.url;
      if (o.cookie) headers.Cookie = o.cookie;
      if (o.token) headers.Authorization = `Bearer ${o.token}`;
      let body: string | undefined;
      if (o.body !== undefined) {
        headers['Content-Type'] = 'application/json';
        body = typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
      }
      const response = await fetch(`${hub.url}${path}`, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* not JSON: the test sees the text */
      }
      return { status: response.status, body: parsed, text, headers: response.headers };
    };
    const signIn: TestHub['signIn'] = async (account) => {
      const answer = await call('POST', '/hub/v1/session', { body: { email: account.email, password: account.password } });
      const cookie = cookieOf(answer.headers);
      if (answer.status !== 200 || !cookie) throw new Error(`sign-in of ${account.email} failed: ${answer.status} ${answer.text}`);
      return cookie;
    };
    return {
      hub,
      url: hub.url,
      dataDir,
      databaseUrl: database?.url,
      accounts,
      logs,
      call,
      signIn,
      close: async () => {
        await hub.close();
        await database?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
