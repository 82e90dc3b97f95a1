import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS_FILE, MAX_PAYLOAD_DEPTH, WITHHELD_PAYLOAD } from '../../src/api/contract';
import { sign } from 'hono/jwt';
import { JWT_AUDIENCE } from '../http/auth';
import { DB_FILE } from '../store/db';
import { dataDirSecret } from '../store/secrets';
import { startService } from '../main';
import { cli, createKeyCli, rawRequest, startHarness, type Harness } from './harness';
import { judgedFetch } from './openapi-judge';

// Regressions of issue 13 (item 3): each test here failed before its fix.
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('delivery items need data access and the subscription in scope', () => {
  it('refuses keys that do not cover the subscription or lack data access; the list stays organization-wide', async () => {
    const deliveries = (await h.get('/v1/data/deliveries?limit=200', h.demo.api_key)).body.data as { delivery_id: string; subscription_id: string }[];
    const retail = deliveries.find((d) => d.subscription_id === 'sub_sim_retail')!;
    expect(retail).toBeDefined();
    const path = `/v1/data/deliveries/${retail.delivery_id}/items`;

    const otherScope = await createKeyCli(h.dataDir, ['sub_live_streets']);
    const noData = await createKeyCli(h.dataDir, ['sub_sim_retail'], ['--no-data-access']);
    const covering = await createKeyCli(h.dataDir, ['sub_sim_retail']);

    const outOfScope = await h.get(path, otherScope.key);
    expect(outOfScope.status).toBe(403);
    expect(outOfScope.body).toEqual({ success: false, errorCode: 'SUBSCRIPTION_NOT_IN_SCOPE', errorMessage: expect.any(String) });
    const withoutData = await h.get(path, noData.key);
    expect(withoutData.status).toBe(403);
    expect(withoutData.body.errorCode).toBe('NO_DATA_ACCESS');

    const allowed = await h.get(path, covering.key);
    expect(allowed.status).toBe(200);
    expect(allowed.body.count).toBeGreaterThan(0);

    // Listing deliveries is not reading data: any key of the organization sees them all.
    for (const key of [otherScope.key, noData.key]) {
      const list = await h.get('/v1/data/deliveries?limit=200', key);
      expect(list.status).toBe(200);
      expect(list.body.count).toBe(deliveries.length);
    }
    // Another organization's delivery is still not found, whatever the key.
    expect((await h.get('/v1/data/deliveries/no-such-delivery/items', covering.key)).status).toBe(404);
  });
});

describe('HEAD', () => {
  it('is 405 on the incremental pull and neither moves the position nor writes a receipt', async () => {
    const sub = 'sub_live_support';
    const first = (await h.get(`/v1/live/pull?subscription_id=${sub}&from=beginning&limit=1`, h.demo.api_key)).body.data.items[0];
    const receipts = (await h.get('/v1/live/usage?limit=200', h.demo.api_key)).body.count as number;

    const head = await judgedFetch(`${h.url}/v1/live/pull?subscription_id=${sub}&limit=200`, {
      method: 'HEAD',
      headers: { Authorization: `Bearer ${h.demo.api_key}` },
    });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('GET');
    expect(head.headers.get('content-type')).toBeNull();

    expect((await h.get('/v1/live/usage?limit=200', h.demo.api_key)).body.count).toBe(receipts);
    const incremental = await h.get(`/v1/live/pull?subscription_id=${sub}&limit=1`, h.demo.api_key);
    expect(incremental.body.data.items[0].submission_id).toBe(first.submission_id);
  });
});

describe('one rule for IDs in paths and queries', () => {
  it('refuses an ID outside [A-Za-z0-9._:-], or . or .., with 400 INVALID_PARAMETER', async () => {
    const bad = [
      ['GET', '/v1/frontiers/..%2F..%2Fetc/tasks'],
      ['GET', '/v1/frontiers/101/tasks/1001%2F..%2F1002/preview'],
      ['GET', '/v1/data/deliveries/a%20b/items'],
      ['GET', '/v1/data/deliveries/%E2%80%AE/items'],
      ['POST', '/v1/data/items/x%3Fy/adopt'],
      ['POST', '/v1/live/items/%00/adopt'],
      ['GET', '/v1/live/pull?subscription_id=..'],
      ['GET', '/v1/live/pull?subscription_id=.'],
      ['GET', '/v1/live/pull?subscription_id=sub_live_streets%2F..'],
      ['GET', '/v1/data/pull?subscription_id=a%20b'],
      ['GET', '/v1/live/pull?subscription_id=sub_live_streets&from=beginning&task_ids=1001,..'],
    ] as const;
    for (const [method, path] of bad) {
      const response =
        method === 'GET' ? await h.get(path, h.demo.api_key, 'invalid') : await h.post(path, h.demo.api_key, { subscription_id: 'sub_sim_retail' }, 'invalid');
      expect(response.status, path).toBe(400);
      expect(response.body, path).toEqual({ success: false, errorCode: 'INVALID_PARAMETER', errorMessage: expect.any(String) });
    }
  });

  it('lets every ID of the rule through to routing', async () => {
    expect((await h.get('/v1/frontiers/101/tasks')).status).toBe(200);
    expect((await h.get('/v1/data/deliveries/a.b:c-d_e/items', h.demo.api_key)).status).toBe(404);
    expect((await h.get('/v1/data/deliveries/..a/items', h.demo.api_key)).status).toBe(404);
    // Routed and looked up: a subscription of no organization is unknown (404), not a malformed ID (400).
    expect((await h.get('/v1/data/pull?subscription_id=sub:x.y', h.demo.api_key)).status).toBe(404);
  });
});

describe('Host allow-list', () => {
  it('answers the bind address and the loopback names, and refuses any other Host with the 421 JSON body', async () => {
    const port = new URL(h.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, 'localhost:5173', 'LOCALHOST']) {
      expect((await rawRequest(h.url, '/v1/frontiers', { Host: host })).status, host).toBe(200);
    }
    for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1.evil.example:${port}`, `localhost.:${port}`]) {
      for (const path of ['/v1/frontiers', '/_local/demo-connection', '/media/scenes/1.svg', '/']) {
        const response = await rawRequest(h.url, path, { Host: host });
        expect(response.status, `${host} ${path}`).toBe(421);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(JSON.parse(response.text)).toEqual({ success: false, errorCode: 'MISDIRECTED_REQUEST', errorMessage: expect.any(String) });
      }
    }
  });

  it('answers names given with --allowed-host, but hands the demo key to loopback hosts only', async () => {
    const named = await startHarness({ allowedHosts: ['dds.example', 'pinned.example:9999'] });
    try {
      const port = new URL(named.url).port;
      for (const host of ['dds.example', `dds.example:${port}`, 'pinned.example:9999']) {
        expect((await rawRequest(named.url, '/v1/frontiers', { Host: host })).status, host).toBe(200);
      }
      expect((await rawRequest(named.url, '/v1/frontiers', { Host: `pinned.example:${port}` })).status).toBe(421);
      const demo = await rawRequest(named.url, '/_local/demo-connection', { Host: `dds.example:${port}` });
      expect(demo.status).toBe(421);
      expect(demo.text).not.toContain(named.demo.api_key);
      const local = await rawRequest(named.url, '/_local/demo-connection', { Host: `127.0.0.1:${port}` });
      expect(local.status).toBe(200);
      expect(JSON.parse(local.text).api_key).toBe(named.demo.api_key);
    } finally {
      await named.close();
    }
  });

  it('takes --allowed-host on the command line', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dds-host-'));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/cli/service.ts', '--port', '0', '--data', dataDir, '--seed', 'none', '--allowed-host', 'cli.example', '--quiet'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const url = await new Promise<string>((done, fail) => {
        let out = '';
        child.stdout.setEncoding('utf8');
        child.stdout.on('data', (chunk: string) => {
          out += chunk;
          const match = /listening on (\S+)/.exec(out);
          if (match) done(match[1]!);
        });
        child.once('exit', (code) => fail(new Error(`service exited with ${code}`)));
      });
      expect((await rawRequest(url, '/v1/frontiers', { Host: 'cli.example' })).status).toBe(200);
      expect((await rawRequest(url, '/v1/frontiers', { Host: 'other.example' })).status).toBe(421);
    } finally {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('data directory permissions', () => {
  const mode = (path: string) => statSync(path).mode & 0o777;

  it('keeps the directory 0700 and the database, its WAL and SHM and the demo credentials 0600', async () => {
    for (const [path, expected] of [
      [h.dataDir, 0o700],
      [join(h.dataDir, DB_FILE), 0o600],
      [join(h.dataDir, `${DB_FILE}-wal`), 0o600],
      [join(h.dataDir, `${DB_FILE}-shm`), 0o600],
      [join(h.dataDir, DEMO_CREDENTIALS_FILE), 0o600],
    ] as const) {
      expect(mode(path).toString(8), path).toBe(expected.toString(8));
    }
  });

  it('tightens a directory and files an earlier version left open', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dds-perm-'));
    chmodSync(dataDir, 0o755);
    writeFileSync(join(dataDir, DEMO_CREDENTIALS_FILE), '{}', { mode: 0o644 });
    const service = await startService({ port: 0, host: '127.0.0.1', dataDir, seed: 'demo', livePullForm: 'envelope', corsOrigins: [] });
    try {
      expect(mode(dataDir).toString(8)).toBe('700');
      for (const name of [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`, DEMO_CREDENTIALS_FILE]) {
        expect(mode(join(dataDir, name)).toString(8), name).toBe('600');
      }
    } finally {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('dashboard JWT claims', () => {
  const preview = '/v1/frontiers/101/tasks/1001/preview?limit=1';
  const now = () => Math.floor(Date.now() / 1000);
  const token = (claims: Record<string, unknown>) => sign({ aud: JWT_AUDIENCE, iat: now(), ...claims }, dataDirSecret(h.service.db, 'jwt_secret'), 'HS256');

  it('accepts a signed token with exp naming a known organization', async () => {
    expect((await h.get(preview, await token({ sub: h.demo.org_id, exp: now() + 60 }))).status).toBe(200);
  });

  it.each([
    ['no exp', { sub: 'ORG' }],
    ['an unknown sub', { sub: 'org_nobody', exp: 'SOON' }],
    ['no sub', { exp: 'SOON' }],
    ['a sub that is not text', { sub: 42, exp: 'SOON' }],
  ])('refuses a signed token with %s: 401 INVALID_TOKEN', async (_label, claims) => {
    const filled = Object.fromEntries(
      Object.entries(claims).map(([name, value]) => [name, value === 'ORG' ? h.demo.org_id : value === 'SOON' ? now() + 60 : value]),
    );
    const response = await h.get(preview, await token(filled));
    expect(response.status).toBe(401);
    expect(response.body.errorCode).toBe('INVALID_TOKEN');
  });
});

describe('payload depth', () => {
  /** `{"a":[[[…]]]}`: an object holding arrays, `depth` levels in all. */
  const nested = (depth: number): Record<string, unknown> => {
    let value: unknown[] = [];
    for (let level = 2; level < depth; level++) value = [value];
    return { a: value };
  };
  const item = (id: string, payload: unknown) => ({
    id,
    vertical_id: 'v-deep',
    topic_id: 't-deep',
    subscription_id: 'sub_deep',
    payload,
    quality_score: 0.9,
    quality_method: 'consensus',
    validator_count: 3,
    consensus_ratio: 1,
    unit_price_usd: 0.01,
    created_at: '2026-01-01T00:00:00Z',
  });
  const fixture = (payload: unknown) => ({
    verticals: [{ id: 'v-deep', slug: 'deep', name: 'Deep', description: 'deep payloads', base_price_usd: 0.01 }],
    subscriptions: [{ subscription_id: 'sub_deep', kind: 'simulated', vertical_id: 'v-deep' }],
    items: [item('i-ok', { a: 1 }), item('i-deep', payload)],
  });

  it('fixtures import refuses a 10,000-deep payload naming where it is, and takes one at the limit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dds-deep-'));
    try {
      const file = join(dir, 'deep.json');
      // Written as text: JSON.stringify itself overflows the stack on such a value.
      writeFileSync(file, JSON.stringify(fixture('DEEP')).replace('"DEEP"', `{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`));
      const refused = await cli('fixtures', ['import', file, '--data', join(dir, 'data')]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('items[1].payload');
      expect(refused.stderr).toContain(`deeper than ${MAX_PAYLOAD_DEPTH} levels`);

      writeFileSync(file, JSON.stringify(fixture(nested(MAX_PAYLOAD_DEPTH + 1))));
      const oneTooDeep = await cli('fixtures', ['import', file, '--data', join(dir, 'data')]);
      expect(oneTooDeep.code).toBe(2);
      expect(oneTooDeep.stderr).toContain('items[1].payload');

      writeFileSync(file, JSON.stringify(fixture(nested(MAX_PAYLOAD_DEPTH))));
      const taken = await cli('fixtures', ['import', file, '--data', join(dir, 'data')]);
      expect(taken.stderr).toBe('');
      expect(taken.code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('withholds a payload stored too deep instead of failing every pull that holds it', async () => {
    const deep = `{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const db = h.service.db;
    const pending = db.prepare("SELECT id FROM items WHERE subscription_id = 'sub_sim_support' AND status = 'pending' ORDER BY seq LIMIT 1").get() as {
      id: string;
    };
    db.prepare('UPDATE items SET payload = ? WHERE id = ?').run(deep, pending.id);
    const submission = (await h.get('/v1/live/pull?subscription_id=sub_live_streets&from=beginning&limit=1', h.demo.api_key)).body.data.items[0];
    db.prepare('UPDATE submissions SET data = ? WHERE submission_id = ?').run(deep, submission.submission_id);

    const sim = await h.get('/v1/data/pull?subscription_id=sub_sim_support&limit=5', h.demo.api_key);
    expect(sim.status).toBe(200);
    expect(sim.body.data.find((i: { id: string }) => i.id === pending.id).payload).toEqual(WITHHELD_PAYLOAD);
    expect(sim.body.count).toBe(5);

    const live = await h.get('/v1/live/pull?subscription_id=sub_live_streets&from=beginning&limit=3', h.demo.api_key);
    expect(live.status).toBe(200);
    expect(live.body.data.items[0].data).toEqual(WITHHELD_PAYLOAD);
    expect(live.body.data.items[1].data).not.toEqual(WITHHELD_PAYLOAD);

    const deliveries = (await h.get('/v1/data/deliveries?limit=200', h.demo.api_key)).body.data as { delivery_id: string; subscription_id: string }[];
    for (const delivery of deliveries.filter((d) => d.subscription_id === 'sub_sim_support')) {
      expect((await h.get(`/v1/data/deliveries/${delivery.delivery_id}/items`, h.demo.api_key)).status).toBe(200);
    }
  });
});

describe('the API namespace with the console served beside it', () => {
  it('answers unknown /v1 paths and wrong-case versions with the JSON 404, and console routes with index.html', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dds-static-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title>');
    const service = await startService({
      port: 0,
      host: '127.0.0.1',
      dataDir: join(dir, 'data'),
      seed: 'none',
      livePullForm: 'envelope',
      corsOrigins: [],
      staticDir: dir,
    });
    try {
      for (const path of ['/v1', '/v1/', '/v1/nope', '/v1/frontiers/101/nope', '/V1/frontiers', '/v1/FRONTIERS', '/V1', '/v1/data/verticals/x']) {
        const response = await judgedFetch(`${service.url}${path}`, {}, 'invalid');
        expect(response.status, path).toBe(404);
        expect(response.headers.get('content-type'), path).toMatch(/^application\/json/);
        expect(await response.json(), path).toEqual({ success: false, errorCode: 'NOT_FOUND', errorMessage: expect.any(String) });
      }
      for (const path of ['/', '/review/sub_x', '/v1x', '/v10/frontiers']) {
        const response = await fetch(`${service.url}${path}`);
        expect(response.status, path).toBe(200);
        expect(await response.text(), path).toContain('<title>console</title>');
      }
    } finally {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('repeated query parameters', () => {
  it('are 400 INVALID_PARAMETER on the pulls, so which one counts is never guessed', async () => {
    for (const path of [
      '/v1/live/pull?subscription_id=sub_live_streets&limit=1&limit=200',
      '/v1/live/pull?subscription_id=sub_live_streets&subscription_id=sub_live_support&from=beginning',
      '/v1/data/pull?subscription_id=sub_sim_retail&limit=2&limit=2',
      '/v1/live/usage?limit=1&limit=2',
    ]) {
      const response = await h.get(path, h.demo.api_key, 'invalid');
      expect(response.status, path).toBe(400);
      expect(response.body.errorCode, path).toBe('INVALID_PARAMETER');
    }
  });
});

describe("Node's own limits", () => {
  /** Writes raw bytes to the service and reads what comes back until it closes the connection. */
  function rawExchange(url: string, bytes: string) {
    const { hostname, port } = new URL(url);
    return new Promise<{ text: string }>((done, fail) => {
      const socket = connect(Number(port), hostname, () => socket.write(bytes));
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('close', () => done({ text }));
      socket.on('error', fail);
    });
  }
  const parse = (text: string) => ({
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]),
    contentType: /content-type: ([^\r]+)/i.exec(text)?.[1],
    body: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as unknown,
  });

  it('closes a request whose body is shorter than its Content-Length at the request timeout, with the JSON 408', async () => {
    const slow = await startHarness({ timeouts: { headersMs: 500, requestMs: 1_000 } });
    try {
      const host = new URL(slow.url).host;
      const short = await rawExchange(
        slow.url,
        `POST /v1/live/items/500001/adopt HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${slow.demo.api_key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":1}`,
      );
      // The 408 envelope is the request timeout's own answer: Node's default (300 s) would outlast the test's
      // timeout (60 s), so no clock is read here (a busy machine must not fail the test).
      expect(parse(short.text)).toEqual({
        status: 408,
        contentType: 'application/json',
        body: { success: false, errorCode: 'REQUEST_TIMEOUT', errorMessage: expect.any(String) },
      });
      const slowHeaders = await rawExchange(slow.url, `GET /v1/frontiers HTTP/1.1\r\nHost: ${host}\r\n`);
      expect(parse(slowHeaders.text).status).toBe(408);
    } finally {
      await slow.close();
    }
  });

  it("answers Node's parser errors with the JSON envelope: 400 for a malformed request, 431 for huge headers", async () => {
    const host = new URL(h.url).host;
    const malformed = parse((await rawExchange(h.url, 'GARBAGE\r\n\r\n')).text);
    expect(malformed).toEqual({
      status: 400,
      contentType: 'application/json',
      body: { success: false, errorCode: 'INVALID_PARAMETER', errorMessage: expect.any(String) },
    });
    const huge = parse((await rawExchange(h.url, `GET /v1/frontiers HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`)).text);
    expect(huge).toEqual({
      status: 431,
      contentType: 'application/json',
      body: { success: false, errorCode: 'HEADERS_TOO_LARGE', errorMessage: expect.any(String) },
    });
  });
});

describe('fixture items naming only their vertical', () => {
  const vertical = (id: string) => ({ id, slug: id, name: id, description: id, base_price_usd: 0.01 });
  const sub = (subscription_id: string, vertical_id: string) => ({ subscription_id, kind: 'simulated', vertical_id });
  const item = (id: string, vertical_id: string, subscription_id?: string) => ({
    id,
    vertical_id,
    topic_id: 't',
    ...(subscription_id ? { subscription_id } : {}),
    payload: { id },
    quality_score: 0.9,
    quality_method: 'consensus',
    validator_count: 3,
    consensus_ratio: 1,
    unit_price_usd: 0.01,
    created_at: '2026-01-01T00:00:00Z',
  });

  it("are delivered to the vertical's one subscription, and refused by name when it has none or several", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dds-vert-'));
    const data = join(dir, 'data');
    const file = join(dir, 'fixture.json');
    const base = {
      verticals: [vertical('v-one'), vertical('v-two'), vertical('v-none')],
      subscriptions: [sub('sub_one', 'v-one'), sub('sub_two_a', 'v-two'), sub('sub_two_b', 'v-two')],
    };
    const importing = async (items: unknown[]) => {
      writeFileSync(file, JSON.stringify({ ...base, items }));
      return cli('fixtures', ['import', file, '--data', data]);
    };
    try {
      const ambiguous = await importing([item('i-1', 'v-one'), item('i-2', 'v-two')]);
      expect(ambiguous.code).toBe(2);
      expect(ambiguous.stderr).toContain('items[1].vertical_id');
      expect(ambiguous.stderr).toContain('sub_two_a, sub_two_b');
      const none = await importing([item('i-3', 'v-none')]);
      expect(none.code).toBe(2);
      expect(none.stderr).toContain('items[0].vertical_id');
      expect(none.stderr).toContain('no simulated subscription of vertical v-none');

      const taken = await importing([item('i-1', 'v-one'), item('i-2', 'v-two', 'sub_two_b')]);
      expect(taken.stderr).toBe('');
      expect(taken.code).toBe(0);
      const key = await createKeyCli(data, ['sub_one', 'sub_two_b']);
      const h2 = await startService({ port: 0, host: '127.0.0.1', dataDir: data, seed: 'none', livePullForm: 'envelope', corsOrigins: [] });
      try {
        const pull = async (subscription: string) =>
          (
            (await (await fetch(`${h2.url}/v1/data/pull?subscription_id=${subscription}`, { headers: { Authorization: `Bearer ${key.key}` } })).json()) as {
              data: { id: string }[];
            }
          ).data.map((i) => i.id);
        expect(await pull('sub_one')).toEqual(['i-1']);
        expect(await pull('sub_two_b')).toEqual(['i-2']);
      } finally {
        await h2.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
