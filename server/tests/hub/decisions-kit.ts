import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoCredentialsSchema, usdToMicros, type DemoCredentials } from '../../../src/api/contract';
import { startService, type RunningService } from '../../main';
import type { TestHub } from './hub-harness';

/*
 * What the decision, budget, hold and SIGKILL tests share: the demo simulator as the vendor, a
 * gate in front of it that can be shut (the vendor unreachable) and counts what passed, and the
 * vendor's own records, asked with its key.
 */

export interface Vendor {
  service: RunningService;
  url: string;
  credentials: DemoCredentials;
  close: () => Promise<void>;
}

export async function startVendor(): Promise<Vendor> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hub-vendor-'));
  const service = await startService({ port: 0, host: '127.0.0.1', dataDir, seed: 'demo', livePullForm: 'envelope', corsOrigins: [] });
  const credentials = demoCredentialsSchema.parse(JSON.parse(readFileSync(service.demoCredentialsFile!, 'utf8')));
  return {
    service,
    url: service.url,
    credentials,
    close: async () => {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The vendor's adopt receipts, by item (asked with its key, as a buyer would: spec 4.7). */
export async function adoptReceipts(vendorUrl: string, apiKey: string): Promise<Map<string, number[]>> {
  const response = await fetch(`${vendorUrl}/v1/live/usage?limit=200`, { headers: { Authorization: `Bearer ${apiKey}` } });
  const body = (await response.json()) as { data: { kind: string; item_id: string | null; amount_usd: number }[] };
  const byItem = new Map<string, number[]>();
  for (const r of body.data) if (r.kind === 'adopt' && r.item_id) byItem.set(r.item_id, [...(byItem.get(r.item_id) ?? []), usdToMicros(r.amount_usd)]);
  return byItem;
}

export interface Gate {
  url: string;
  /** Shut: every connection is dropped (the vendor unreachable). */
  shut: () => void;
  open: () => void;
  /** Decision POSTs that reached the vendor, by path. */
  posts: Map<string, number>;
  close: () => Promise<void>;
}

/**
 * A pass-through to `target` on a port of its own. `request` sees each request first (false: it
 * was handled, nothing is forwarded); `answer` sees each answer before it is passed on (false: it
 * keeps it: the caller gets nothing, or what the hook writes to `res`).
 */
export async function startRelay(
  target: string,
  hooks: {
    request?: (req: IncomingMessage) => boolean;
    answer?: (req: IncomingMessage, answer: IncomingMessage, res: ServerResponse) => boolean;
  } = {},
) {
  const to = new URL(target);
  const server: Server = createServer((req, res) => {
    res.on('error', () => undefined);
    if (hooks.request?.(req) === false) return;
    const up = httpRequest({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers: { ...req.headers, host: to.host } }, (answer) => {
      if (hooks.answer?.(req, answer, res) === false) return;
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dropAll: () => server.closeAllConnections(),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** A pass-through to the vendor that can be shut. */
export async function startGate(target: string): Promise<Gate> {
  let shut = false;
  const posts = new Map<string, number>();
  const relay = await startRelay(target, {
    request: (req) => {
      if (shut) {
        req.socket.destroy();
        return false;
      }
      if (req.method === 'POST') posts.set(req.url!, (posts.get(req.url!) ?? 0) + 1);
      return true;
    },
  });
  return {
    url: relay.url,
    shut: () => {
      shut = true;
      relay.dropAll();
    },
    open: () => {
      shut = false;
    },
    posts,
    close: relay.close,
  };
}

/** The hub holds the vendor's key for every subscription (an admin adds it, as in the console). */
export async function holdVendorKey(t: TestHub, adminCookie: string, credentials: DemoCredentials): Promise<void> {
  const added = await t.call('POST', '/hub/v1/vendor-keys', {
    cookie: adminCookie,
    body: { name: 'vendor', key: credentials.api_key, jwt: credentials.jwt, subscriptions: ['*'] },
  });
  if (added.status !== 201) throw new Error(`adding the vendor key failed: ${added.status} ${added.text}`);
}

export interface PulledItem {
  id: string;
  price: number;
  subscription: string;
}

/** Simulated items pulled through the hub (so it knows their subscription and price). */
export async function pullItems(t: TestHub, cookie: string, subscription: string, limit: number): Promise<PulledItem[]> {
  const answer = await t.call('GET', `/v1/data/pull?subscription_id=${subscription}&limit=${limit}`, { cookie });
  if (answer.status !== 200) throw new Error(`pull failed: ${answer.status} ${answer.text}`);
  return (answer.body.data as { id: string; unit_price_usd: number }[]).map((i) => ({ id: i.id, price: usdToMicros(i.unit_price_usd), subscription }));
}

/** Resolves once `check` holds, polling; the test's own timeout is the limit. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, everyMs = 50): Promise<T> {
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    await new Promise((done) => setTimeout(done, everyMs));
  }
}

/** A TCP relay to PostgreSQL that can be cut and restored: the database "goes down" without touching the server. */
export function pgRelay(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let server: NetServer | undefined;
  let port = 0;
  const up = () =>
    new Promise<number>((done) => {
      server = createNetServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as AddressInfo).port;
        done(port);
      });
    });
  const down = () =>
    new Promise<void>((done) => {
      for (const s of sockets) s.destroy();
      server!.close(() => done());
    });
  return { up, down };
}
