import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHubStore } from '../../hub/db/open';
import { createPasswords } from '../../hub/passwords';
import { addMember } from '../../hub/store/members';
import { addVendorKey } from '../../hub/store/vendor-keys';
import { vendorCipher } from '../../hub/vendor-cipher';
import { ENGINES, cookieOf } from './hub-harness';
import { adoptReceipts, eventually, startGate, startVendor, type Gate, type Vendor } from './decisions-kit';
import { throwawayDatabase, type ThrowawayDatabase } from './postgres';

/*
 * The hub killed with SIGKILL in the middle of a stream of decisions from several clients, then
 * started again on the same store. Clients retry what got no answer, as the console's outbox
 * does. Judged by the vendor's own records: every accepted decision arrived, none twice, each
 * adopt charged once.
 */

const ROOT = new URL('../../../', import.meta.url).pathname;
const CLIENTS = 4;
const PER_CLIENT = 30;
const KILL_AFTER = 40;

const freePort = () =>
  new Promise<number>((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });

describe.each(ENGINES)('hub SIGKILL mid-decision-stream on %s', (engine) => {
  let vendor: Vendor;
  let gate: Gate;
  let database: ThrowawayDatabase | undefined;
  let dataDir = '';
  let port = 0;
  let child: ChildProcess | undefined;
  const secret = randomBytes(32).toString('hex');
  const password = 'correct horse battery';
  const url = () => `http://127.0.0.1:${port}`;

  /** The hub as `npm run hub` runs it, node itself (not the tsx wrapper) so that SIGKILL reaches the hub. */
  const startChild = async () => {
    const args = ['--import', 'tsx', 'server/cli/hub.ts', '--port', String(port), '--host', '127.0.0.1', '--data', dataDir, '--upstream', gate.url, '--quiet'];
    if (database) args.push('--database', database.url);
    child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, HUB_SECRET: secret, HUB_PASSWORD_COST: 'low' }, stdio: 'ignore' });
    await eventually(async () => (await fetch(`${url()}/hub/v1/me`).catch(() => null))?.status === 401, 100);
  };

  beforeAll(async () => {
    process.env.HUB_PASSWORD_COST = 'low';
    vendor = await startVendor();
    gate = await startGate(vendor.url);
    if (engine === 'postgres') database = await throwawayDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'hub-sigkill-'));
    // The team, as an admin would make it: two reviewers, the vendor key sealed under the hub secret.
    const store = await openHubStore({ dataDir, databaseUrl: database?.url });
    const hash = await createPasswords().hash(password);
    for (const email of ['r1@team.test', 'r2@team.test']) await addMember(store.db, { email, role: 'reviewer', passwordHash: hash });
    await addVendorKey(store.db, vendorCipher(Buffer.from(secret, 'utf8')), {
      name: 'vendor',
      key: vendor.credentials.api_key,
      jwt: vendor.credentials.jwt,
      subscriptions: ['*'],
    });
    await store.close();
    port = await freePort();
    await startChild();
  });
  afterAll(async () => {
    child?.kill('SIGTERM');
    await gate?.close();
    await vendor?.close();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('killed mid-stream and restarted: every accepted decision reaches the vendor once, each adopt charged once', async () => {
    const signIn = async (email: string) => {
      const answer = await fetch(`${url()}/hub/v1/session`, {
        method: 'POST',
        headers: { Origin: url(), 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      return cookieOf(answer.headers)!;
    };
    const cookies = await Promise.all(['r1@team.test', 'r2@team.test', 'r1@team.test', 'r2@team.test'].map(signIn));
    // The items, pulled through the hub (which keeps their subscription and price).
    const items: { id: string; price: number }[] = [];
    for (const subscription of ['sub_sim_retail', 'sub_sim_support', 'sub_sim_product']) {
      const answer = await fetch(`${url()}/v1/data/pull?subscription_id=${subscription}&limit=${(CLIENTS * PER_CLIENT) / 3}`, {
        headers: { Cookie: cookies[0]! },
      });
      const body = (await answer.json()) as { data: { id: string; unit_price_usd: number }[] };
      items.push(...body.data.map((i) => ({ id: i.id, price: Math.round(i.unit_price_usd * 1e6) })));
    }
    expect(items).toHaveLength(CLIENTS * PER_CLIENT);
    const kindOf = (index: number) => (index % 3 === 2 ? 'dispute' : 'adopt');

    let answered = 0;
    let killed: Promise<void> | undefined;
    const outcomes = new Map<string, number>();
    let retried = 0;
    const client = async (c: number) => {
      for (let i = c; i < items.length; i += CLIENTS) {
        const item = items[i]!;
        for (;;) {
          const answer = await fetch(`${url()}/v1/data/items/${item.id}/${kindOf(i)}`, {
            method: 'POST',
            headers: { Cookie: cookies[c]!, Origin: url() },
          }).catch(() => null);
          if (answer && (answer.status === 200 || answer.status === 202)) {
            outcomes.set(item.id, answer.status);
            break;
          }
          // No answer (the hub is gone) or not yet able to: wait for the hub, then try the same decision again.
          retried++;
          if (answer) await answer.body?.cancel();
          await killed;
        }
        if (++answered === KILL_AFTER) {
          child!.kill('SIGKILL');
          killed = new Promise<void>((done) => child!.once('exit', () => done())).then(startChild);
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    expect(killed).toBeDefined();
    expect(outcomes.size).toBe(items.length);

    // The restarted hub delivers whatever it holds.
    const store = await openHubStore({ dataDir, databaseUrl: database?.url });
    try {
      await eventually(
        async () => (await store.db.selectFrom('decisions').select('id').where('state', 'in', ['queued', 'sending']).execute()).length === 0,
        100,
      );
      const decisions = await store.db.selectFrom('decisions').selectAll().execute();
      expect(decisions.filter((d) => d.state === 'sent')).toHaveLength(items.length);
    } finally {
      await store.close();
    }
    const receipts = await adoptReceipts(vendor.url, vendor.credentials.api_key);
    const status = (id: string) => (vendor.service.db.prepare('SELECT status FROM items WHERE id = ?').get(id) as { status: string }).status;
    items.forEach((item, i) => {
      expect(status(item.id)).toBe(kindOf(i) === 'adopt' ? 'adopted' : 'disputed');
      expect(receipts.get(item.id) ?? []).toEqual(kindOf(i) === 'adopt' ? [item.price] : []);
    });
    const resent = [...gate.posts.values()].filter((n) => n > 1).length;
    console.log(
      `${engine}: ${items.length} decisions, ${retried} client retries after the kill, ${resent} re-sent to the vendor by the restarted hub (no-ops there)`,
    );
  });
});
