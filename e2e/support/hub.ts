import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import Database from 'libsql';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_CREDENTIALS_FILE, demoCredentialsSchema, type DemoCredentials } from '../../src/api/contract';
import { slotPort, workerSlot } from './worker';

/**
 * A team hub for a spec file (`npm run hub -- --demo --static dist`), started as the global setup
 * starts the services: its own port (this worker's E2E port + 20) and data directory, the built
 * console on its origin, the simulator in its process as the vendor. Its demo accounts and the
 * vendor's credentials are read from the files it writes.
 */
export interface E2eHub {
  url: string;
  dataDir: string;
  /** The in-process simulator (the vendor), for the test's own witness reads. */
  simulatorUrl: string;
  accounts: Record<'admin' | 'reviewer1' | 'reviewer2' | 'viewer', HubAccount>;
  /** The vendor's key and JWT: what must never reach a browser. */
  vendor: DemoCredentials;
  stop: () => Promise<void>;
  /** Stops the hub and starts it again on the same port and data directory (its simulator on a new port). */
  restart: () => Promise<void>;
}

export interface HubAccount {
  email: string;
  password: string;
  role: 'admin' | 'reviewer' | 'viewer';
}

const READY_MS = 120_000;

/** This worker's hub port (its E2E port + 20): a spec that registers the hub with another party (an OpenID provider) needs it first. */
export const e2eHubUrl = () => `http://127.0.0.1:${slotPort(workerSlot()) + 20}`;

/** `extra`: more of the hub's flags, and its environment's additions (a client secret is never a flag). */
export async function startE2eHub(name = 'hub', extra: { args?: string[]; env?: Record<string, string> } = {}): Promise<E2eHub> {
  const slot = workerSlot();
  const port = slotPort(slot) + 20;
  const url = `http://127.0.0.1:${port}`;
  const dataDir = join('.e2e-data', `${name}-w${slot}`);
  rmSync(dataDir, { recursive: true, force: true });
  const spawnThis = () => spawnHub(port, dataDir, extra);
  let running = await spawnThis();
  const list = JSON.parse(readFileSync(join(dataDir, 'demo-accounts.json'), 'utf8')) as HubAccount[];
  const byPrefix = (prefix: string) => list.find((a) => a.email.startsWith(prefix))!;
  const stop = async () => {
    const child = running.child;
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  };
  const hub: E2eHub = {
    url,
    dataDir,
    simulatorUrl: running.simulatorUrl,
    accounts: { admin: byPrefix('admin@'), reviewer1: byPrefix('reviewer1@'), reviewer2: byPrefix('reviewer2@'), viewer: byPrefix('viewer@') },
    vendor: demoCredentialsSchema.parse(JSON.parse(readFileSync(join(dataDir, DEMO_CREDENTIALS_FILE), 'utf8'))),
    stop,
    restart: async () => {
      await stop();
      running = await spawnThis();
      hub.simulatorUrl = running.simulatorUrl;
    },
  };
  return hub;
}

/** Where the hub on a port writes its process ID: the next hub on that port ends one left running. */
const pidFile = (port: number) => join('.e2e-data', `hub-port-${port}.pid`);

/** Running (a zombie nobody reaped yet holds no port and counts as ended). */
const isAlive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

/**
 * Ends a hub an earlier spec left on this port. A failed test restarts its worker, and a worker
 * ended before its afterAll stopped the hub leaves the hub running on the port the slot's next
 * worker needs (a clean-clone run: one timed-out test, then every later hub spec of that slot
 * refused with "port in use"). Only a process still running this hub CLI is ended.
 */
async function stopLeftover(port: number) {
  if (!existsSync(pidFile(port))) return;
  const pid = Number(readFileSync(pidFile(port), 'utf8'));
  rmSync(pidFile(port), { force: true });
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  let command = '';
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return;
  }
  if (!command.includes('server/cli/hub.ts') || !command.includes(String(port))) return;
  process.kill(pid, 'SIGKILL');
  await expect.poll(() => isAlive(pid), { message: `the hub left on port ${port} (process ${pid}) to end` }).toBe(false);
}

/** The hub process on its port and data directory (kept across a restart), once it printed that it is ready. */
async function spawnHub(
  port: number,
  dataDir: string,
  extra: { args?: string[]; env?: Record<string, string> },
): Promise<{ child: ChildProcess; simulatorUrl: string }> {
  const url = `http://127.0.0.1:${port}`;
  await stopLeftover(port);
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'server/cli/hub.ts', '--demo', '--static', 'dist', '--port', String(port), '--data', dataDir, '--quiet', ...(extra.args ?? [])],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...extra.env } },
  );
  mkdirSync('.e2e-data', { recursive: true });
  writeFileSync(pidFile(port), String(child.pid));
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  let exited = false;
  child.once('exit', () => (exited = true));
  const deadline = Date.now() + READY_MS;
  // Ready once it printed where its simulator is (the last line of its start-up).
  while (!/Simulator credentials: /.test(out)) {
    if (exited) throw new Error(`the E2E hub exited before it started:\n${out}`);
    if (Date.now() > deadline) throw new Error(`the E2E hub did not start within ${READY_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // What `npm start` prints: where the console is and where the demo accounts are.
  if (!out.includes(`Console: ${url}/`) || !out.includes(`Demo accounts: `))
    throw new Error(`the E2E hub did not say where its console and accounts are:\n${out}`);
  return { child, simulatorUrl: /Simulator \(upstream\): (\S+)/.exec(out)![1]! };
}

/** A browser context of its own (its cookie jar, storage and IndexedDB) on the hub's origin. */
export const hubContext = (browser: Browser, hub: E2eHub, viewport = { width: 1440, height: 900 }): Promise<BrowserContext> =>
  browser.newContext({ baseURL: hub.url, viewport });

/** Signs in as a person does: the form at /sign-in, then where it leads (the review, or `redirect`). */
export async function signInThroughForm(page: Page, account: Pick<HubAccount, 'email' | 'password'>, path = '/sign-in') {
  await page.goto(path);
  await expect(page.getByRole('heading', { name: 'Sign in to the team hub' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Email' }).fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);
  await expect(page.getByText(`Signed in as ${account.email}`)).toBeVisible();
}

/**
 * The hub's API as the member signed in on this page (the cookie of its context, and the page's
 * Origin, as the console sends it): for what has no page yet (members) and for the audit.
 */
export function hubAs(page: Page, hub: E2eHub) {
  const headers = { Origin: hub.url };
  const json = async (response: Awaited<ReturnType<Page['request']['get']>>): Promise<any> => {
    expect(response.status(), await response.text()).toBeLessThan(300);
    return response.json();
  };
  return {
    members: async () => (await json(await page.request.get('/hub/v1/members', { headers }))).members as { id: string; email: string; role: string }[],
    removeMember: async (id: string) => json(await page.request.delete(`/hub/v1/members/${id}`, { headers })),
    addMember: async (email: string, role: string, password: string) =>
      json(await page.request.post('/hub/v1/members', { headers, data: { email, role, password } })),
    audit: async (action: string) => (await json(await page.request.get(`/hub/v1/audit?action=${action}&limit=500`, { headers }))).rows as AuditRow[],
  };
}

interface AuditRow {
  actor_id: string | null;
  via: string;
  action: string;
  item_id: string | null;
  subscription_id: string | null;
  outcome: string;
}

/** The vendor's own record of a live subscription (the simulator asked with the vendor key): the test's witness. */
export async function vendorFeedback(hub: E2eHub, subscriptionId: string): Promise<Map<string, string | null>> {
  const recorded = new Map<string, string | null>();
  let cursor = '';
  do {
    const response = await fetch(
      `${hub.simulatorUrl}/v1/live/pull?subscription_id=${subscriptionId}&from=beginning&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { headers: { Authorization: `Bearer ${hub.vendor.api_key}` } },
    );
    const body = (await response.json()) as { data: { items: { submission_id: string; consumer_feedback: string | null }[]; next_cursor: string | null } };
    for (const item of body.data.items) recorded.set(item.submission_id, item.consumer_feedback);
    cursor = body.data.next_cursor ?? '';
  } while (cursor);
  return recorded;
}

/** Everything a page could keep or show: localStorage, sessionStorage, every IndexedDB store's rows, and its text. */
export async function browserContents(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const parts: string[] = [document.body.innerText, JSON.stringify({ ...localStorage }), JSON.stringify({ ...sessionStorage })];
    for (const info of await indexedDB.databases()) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(info.name!);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const rows = await new Promise<unknown[]>((resolve, reject) => {
          const request = db.transaction(store, 'readonly').objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        parts.push(JSON.stringify(rows));
      }
      db.close();
    }
    return parts.join('\n');
  });
}

/** A browser context of its own on the hub's origin, signed in as this account through the form; `contexts` collects it for closing. */
export async function signedInPage(
  browser: Browser,
  hub: E2eHub,
  account: Pick<HubAccount, 'email' | 'password'>,
  contexts: BrowserContext[],
  viewport = { width: 1280, height: 800 },
): Promise<Page> {
  const context = await hubContext(browser, hub, viewport);
  contexts.push(context);
  const page = await context.newPage();
  await signInThroughForm(page, account);
  return page;
}

/** The simulator's own adopt receipts (its database, not the hub's word): item → the micro-USD of each receipt. */
export function vendorAdoptReceipts(hub: E2eHub): Map<string, number[]> {
  const db = new Database(join(hub.dataDir, 'simulator', 'service.db'), { readonly: true });
  try {
    const rows = db.prepare("SELECT item_id, amount_micros FROM receipts WHERE kind = 'adopt' ORDER BY rowid").all() as {
      item_id: string;
      amount_micros: number;
    }[];
    const byItem = new Map<string, number[]>();
    for (const r of rows) byItem.set(r.item_id, [...(byItem.get(r.item_id) ?? []), r.amount_micros]);
    return byItem;
  } finally {
    db.close();
  }
}

/** What the vendor charged for each item adopted, leaving out `except`; an item charged twice fails the test. */
export function chargedOnce(hub: E2eHub, except: ReadonlySet<string> = new Set()): Map<string, number> {
  const charged = new Map<string, number>();
  for (const [id, amounts] of vendorAdoptReceipts(hub)) {
    if (except.has(id)) continue;
    expect(amounts, `the vendor's adopt receipts of ${id}`).toHaveLength(1);
    charged.set(id, amounts[0]!);
  }
  return charged;
}

/** The simulator's own status of each item (its database, not the hub's word). */
export function vendorItemStatuses(hub: E2eHub, ids: readonly string[]): string[] {
  const db = new Database(join(hub.dataDir, 'simulator', 'service.db'), { readonly: true });
  try {
    return ids.map((id) => (db.prepare('SELECT status FROM items WHERE id = ?').get(id) as { status: string }).status);
  } finally {
    db.close();
  }
}
