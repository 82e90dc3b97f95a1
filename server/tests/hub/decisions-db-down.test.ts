import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS_FILE } from '../../hub/demo';
import { startHub, type RunningHub } from '../../hub/main';
import { eventually, pgRelay, startGate, startVendor, type Gate, type Vendor } from './decisions-kit';
import { cookieOf } from './hub-harness';
import { throwawayDatabase, type ThrowawayDatabase } from './postgres';

/*
 * PostgreSQL down under the decision queue, budgets and holds: a 503 envelope and nothing sent
 * to the vendor; once it is back, the same decision goes through. (SQLite's locked store is in
 * decisions.test.ts.)
 */

describe('hub decisions with PostgreSQL down', () => {
  let vendor: Vendor;
  let gate: Gate;
  let database: ThrowawayDatabase;
  let hub: RunningHub;
  let link: ReturnType<typeof pgRelay>;
  const dataDir = mkdtempSync(join(tmpdir(), 'hub-test-'));

  const call = (method: string, path: string, cookie: string, body?: unknown) =>
    fetch(`${hub.url}${path}`, {
      method,
      headers: { Origin: hub.url, Cookie: cookie, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });

  beforeAll(async () => {
    process.env.HUB_PASSWORD_COST = 'low';
    vendor = await startVendor();
    gate = await startGate(vendor.url);
    database = await throwawayDatabase();
    const url = new URL(database.url);
    link = pgRelay({ host: url.hostname, port: Number(url.port || 5432) });
    url.port = String(await link.up());
    hub = await startHub({ port: 0, host: '127.0.0.1', dataDir, databaseUrl: url.href, demo: true, upstream: gate.url, log: () => {} });
  });
  afterAll(async () => {
    await hub?.close();
    await gate?.close();
    await vendor?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('adopt, budgets and holds answer 503 DATABASE_UNAVAILABLE while it is down; nothing reaches the vendor; the adopt goes through after', async () => {
    const accounts = JSON.parse(readFileSync(join(dataDir, DEMO_ACCOUNTS_FILE), 'utf8')) as { email: string; password: string; role: string }[];
    const signIn = async (role: string) => {
      const account = accounts.find((a) => a.role === role)!;
      const answer = await fetch(`${hub.url}/hub/v1/session`, {
        method: 'POST',
        headers: { Origin: hub.url, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: account.email, password: account.password }),
      });
      return cookieOf(answer.headers)!;
    };
    const admin = await signIn('admin');
    const reviewer = await signIn('reviewer');
    const key = { name: 'vendor', key: vendor.credentials.api_key, jwt: vendor.credentials.jwt, subscriptions: ['*'] };
    expect((await call('POST', '/hub/v1/vendor-keys', admin, key)).status).toBe(201);
    const pulled = (await (await call('GET', '/v1/data/pull?subscription_id=sub_sim_retail&limit=1', reviewer)).json()) as { data: { id: string }[] };
    const itemId = pulled.data[0]!.id;

    await link.down();
    for (const [method, path, body] of [
      ['POST', `/v1/data/items/${itemId}/adopt`],
      ['GET', '/hub/v1/budgets'],
      ['PUT', '/hub/v1/budgets', { organization: { daily_micros: 1 } }],
      ['GET', '/hub/v1/holds'],
    ] as const) {
      const down = await call(method, path, method === 'PUT' ? admin : reviewer, body);
      expect(down.status, `${method} ${path}`).toBe(503);
      expect(await down.json()).toEqual({ success: false, errorCode: 'DATABASE_UNAVAILABLE', errorMessage: expect.stringMatching(/unavailable/) });
    }
    expect(gate.posts.size).toBe(0);

    await link.up();
    // The pool reconnects on its next query; the browser's outbox retries until then.
    const adopted = await eventually(async () => {
      const answer = await call('POST', `/v1/data/items/${itemId}/adopt`, reviewer);
      return answer.status === 200 ? ((await answer.json()) as { status: string }) : undefined;
    }, 200);
    expect(adopted.status).toBe('adopted');
    expect((vendor.service.db.prepare('SELECT status FROM items WHERE id = ?').get(itemId) as { status: string }).status).toBe('adopted');
  });
});
