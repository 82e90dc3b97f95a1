import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  keyVerificationSchema,
  liveFeedbackResponseSchema,
  livePullResponseSchema,
  simulatedPullResponseSchema,
  usageResponseSchema,
} from '../../src/api/contract';
import type { GatewayOptions } from '../gateway';
import { startService, type RunningService } from '../main';
import { cli, startHarness, type Harness } from './harness';

/*
 * Gateway mode over real HTTP: a gateway service (its own empty data directory) forwards /v1 to
 * a second local service on another port, or to small raw upstreams that echo, stream, hang or
 * are gone.
 */

interface Gateway {
  service: RunningService;
  url: string;
  log: string[];
  close: () => Promise<void>;
}

async function startGateway(upstream: string, options: Partial<GatewayOptions> = {}): Promise<Gateway> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dds-gateway-'));
  const log: string[] = [];
  const service = await startService({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    seed: 'none',
    livePullForm: 'envelope',
    corsOrigins: [],
    gateway: { upstream, ...options },
    log: (line) => log.push(line),
  });
  return {
    service,
    url: service.url,
    log,
    close: async () => {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A raw HTTP server on a free loopback port. */
async function rawServer(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** Waits for a condition another party fulfils, failing after `ms` instead of hanging the test. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('gateway to a real service', () => {
  let upstream: Harness;
  let gw: Gateway;
  beforeAll(async () => {
    upstream = await startHarness();
    gw = await startGateway(upstream.url);
  });
  afterAll(async () => {
    await gw?.close();
    await upstream?.close();
  });

  const call = async (method: 'GET' | 'POST', path: string, token?: string, body?: unknown) => {
    const headers: Record<string, string> = {};
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${gw.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    expect(response.headers.get('content-type'), `${method} ${path}`).toMatch(/^application\/json/);
    return { status: response.status, body: (await response.json()) as any };
  };

  it('carries a review through the gateway: verify the key, pull, decide, re-read, usage', async () => {
    const key = upstream.demo.api_key;
    const verified = await call('POST', '/v1/auth/verify-key', key);
    expect(verified.status).toBe(200);
    expect(keyVerificationSchema.parse(verified.body).org_id).toBe(upstream.demo.org_id);

    const page = livePullResponseSchema.parse((await call('GET', '/v1/live/pull?subscription_id=sub_live_streets&limit=5', key)).body);
    expect(page.items).toHaveLength(5);
    const [adopted, disputed] = page.items.map((item) => item.submission_id) as [string, string];
    const adopt = await call('POST', `/v1/live/items/${adopted}/adopt`, key, { subscription_id: 'sub_live_streets' });
    expect(liveFeedbackResponseSchema.parse(adopt.body).feedback).toBe('adopt');
    const dispute = await call('POST', `/v1/live/items/${disputed}/dispute`, key, { subscription_id: 'sub_live_streets', reason: 'wrong box' });
    expect(dispute.body).toMatchObject({ ok: true, feedback: 'dispute' });
    // The upstream's failures pass through as they are.
    const conflict = await call('POST', `/v1/live/items/${adopted}/dispute`, key, { subscription_id: 'sub_live_streets' });
    expect(conflict).toMatchObject({ status: 409, body: { errorCode: 'FEEDBACK_CONFLICT', recorded: 'adopt' } });
    expect((await call('GET', '/v1/live/usage')).body.errorCode).toBe('MISSING_API_KEY');

    const reread = livePullResponseSchema.parse((await call('GET', '/v1/live/pull?subscription_id=sub_live_streets&from=beginning&limit=5', key)).body);
    const feedback = new Map(reread.items.map((item) => [item.submission_id, item.consumer_feedback]));
    expect(feedback.get(adopted)).toBe('adopt');
    expect(feedback.get(disputed)).toBe('dispute');
    const items = simulatedPullResponseSchema.parse((await call('GET', '/v1/data/pull?subscription_id=sub_sim_retail&limit=1', key)).body).data;
    expect((await call('POST', `/v1/data/items/${items[0]!.id}/adopt`, key)).body.status).toBe('adopted');
    const usage = usageResponseSchema.parse((await call('GET', '/v1/live/usage?limit=5', key)).body);
    expect(usage.data.some((receipt) => receipt.item_id === items[0]!.id)).toBe(true);

    // The decisions live upstream; the gateway's own store holds nothing.
    const recorded = upstream.service.db.prepare('SELECT COUNT(*) AS n FROM live_feedback').get() as { n: number };
    expect(recorded.n).toBe(2);
    expect(gw.service.db.prepare('SELECT COUNT(*) AS n FROM submissions').get()).toMatchObject({ n: 0 });
    // No key, no query string (cursors, subscriptions) in any log line.
    expect(gw.log.length).toBeGreaterThan(0);
    for (const line of gw.log) {
      expect(line).not.toContain(key);
      expect(line).not.toContain('subscription_id');
    }
  });

  it('serves the OpenAPI document itself and no local demo connection', async () => {
    expect((await call('GET', '/v1/openapi.json')).body.openapi).toBe('3.1.0');
    expect((await fetch(`${gw.url}/_local/demo-connection`)).status).toBe(404);
  });
});

describe('gateway headers and streaming', () => {
  let echo: Awaited<ReturnType<typeof rawServer>>;
  let gw: Gateway;
  let seen: { headers: IncomingHttpHeaders; body: string; url: string } | undefined;
  const firstRequestChunk = deferred();
  const finishStream = deferred();

  beforeAll(async () => {
    echo = await rawServer((req, res) => {
      if (req.url === '/base/v1/stream') {
        // Sends half an answer, then waits until the test has read it through the gateway.
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('{"part":1,');
        void finishStream.promise.then(() => res.end('"done":true}'));
        return;
      }
      if (req.url === '/base/v1/upload') {
        let body = '';
        req.on('data', (chunk: Buffer) => {
          body += chunk.toString();
          firstRequestChunk.resolve();
        });
        req.on('end', () => {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ received: body }));
        });
        return;
      }
      if (req.url === '/base/v1/redirect') {
        res.writeHead(302, { Location: 'http://evil.example/v1/frontiers', 'Content-Type': 'application/json' });
        res.end('{}');
        return;
      }
      if (req.url === '/base/v1/html') {
        res.writeHead(503, { 'Content-Type': 'text/html' });
        res.end('<html>proxy error</html>');
        return;
      }
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen = { headers: req.headers, body, url: req.url ?? '' };
        res.writeHead(200, {
          'Content-Type': 'application/json',
          'Cache-Control': 'private, max-age=5',
          ETag: '"v1"',
          'Retry-After': '7',
          'X-Request-Id': 'req_1',
          'X-Upstream': 'yes',
          Connection: 'keep-alive, X-Upstream-Hop',
          'X-Upstream-Hop': '1',
          'Set-Cookie': 'session=upstream; Path=/',
          'Access-Control-Allow-Origin': '*',
          'Access-Control-Allow-Credentials': 'true',
          'Content-Security-Policy': "default-src * 'unsafe-inline'",
          'X-Frame-Options': 'ALLOWALL',
        });
        res.end('{"ok":true}');
      });
    });
    // An upstream with a path: /v1 goes below it.
    gw = await startGateway(`${echo.url}/base`);
  });
  afterAll(async () => {
    finishStream.resolve();
    await gw?.close();
    await echo?.close();
  });

  it('sends only Authorization, Content-Type and Accept upstream, with the body and query unchanged', async () => {
    const body = JSON.stringify({ subscription_id: 'sub_live_streets' });
    // node:http rather than fetch: fetch refuses to send hop-by-hop headers at all.
    const status = await new Promise<number>((done, fail) => {
      const req = httpRequest(
        `${gw.url}/v1/live/items/7/adopt?x=1`,
        {
          method: 'POST',
          headers: {
            Authorization: 'Bearer dds_live_sk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
            'Content-Type': 'application/json',
            Accept: 'application/json',
            Cookie: 'session=secret',
            'X-Forwarded-For': '10.0.0.1',
            Origin: 'http://elsewhere.test',
            Referer: 'http://elsewhere.test/page',
            'User-Agent': 'browser/1',
            'X-Api-Key': 'another-secret',
            Connection: 'keep-alive, X-Hop',
            'X-Hop': '1',
            'Keep-Alive': 'timeout=5',
            'Proxy-Authorization': 'Basic abc',
            TE: 'trailers',
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => done(res.statusCode ?? 0));
        },
      );
      req.on('error', fail);
      req.end(body);
    });
    expect(status).toBe(200);
    expect(seen?.url).toBe('/base/v1/live/items/7/adopt?x=1');
    expect(seen?.body).toBe(body);
    const headers = seen!.headers;
    expect(headers.authorization).toBe('Bearer dds_live_sk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect(headers['content-type']).toBe('application/json');
    expect(headers.accept).toBe('application/json');
    // What remains is what the HTTP client itself must send (host, framing, its own identity).
    const transport = ['host', 'connection', 'content-length', 'transfer-encoding', 'accept-encoding', 'accept-language', 'sec-fetch-mode', 'user-agent'];
    expect(
      Object.keys(headers)
        .filter((name) => !transport.includes(name))
        .sort(),
    ).toEqual(['accept', 'authorization', 'content-type']);
    expect(headers['user-agent']).not.toBe('browser/1');
  });

  it("forwards only the allow-listed headers of the answer, and sets the service's own security headers", async () => {
    const response = await fetch(`${gw.url}/v1/anything`);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('private, max-age=5');
    expect(response.headers.get('etag')).toBe('"v1"');
    expect(response.headers.get('retry-after')).toBe('7');
    expect(response.headers.get('x-request-id')).toBe('req_1');
    // Internal, hop-by-hop, cookie and CORS headers of the upstream never reach the browser.
    for (const name of ['x-upstream', 'x-upstream-hop', 'set-cookie', 'access-control-allow-origin', 'access-control-allow-credentials']) {
      expect(response.headers.get(name), name).toBeNull();
    }
    // The upstream's permissive policy is replaced by the service's own.
    expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'self'/);
    expect(response.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await response.json()).toEqual({ ok: true });
  });

  it('turns an upstream redirect into the 502 envelope, never a Location', async () => {
    const response = await fetch(`${gw.url}/v1/redirect`, { redirect: 'manual' });
    expect(response.status).toBe(502);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.json()).toEqual({ success: false, errorCode: 'UPSTREAM_BAD_RESPONSE', errorMessage: expect.stringContaining('redirect') });
    expect(gw.log).toContainEqual(expect.stringMatching(/gateway: GET \/v1\/redirect → 502 \(upstream .* redirect, 302\)/));
  });

  it('streams the answer: the first part arrives before the upstream has finished', async () => {
    const response = await within(fetch(`${gw.url}/v1/stream`), 5_000, 'the headers of a streamed answer');
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const first = await within(reader.read(), 5_000, 'the first part of a streamed answer');
    expect(new TextDecoder().decode(first.value)).toBe('{"part":1,');
    finishStream.resolve();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('"done":true}');
  });

  it('streams the request: the upstream reads the first part before the client has sent the rest', async () => {
    const encoder = new TextEncoder();
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    const answer = fetch(`${gw.url}/v1/upload`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
    // Awaited below; if the wait for the upstream fails first, its rejection is not unhandled.
    answer.catch(() => {});
    controller.enqueue(encoder.encode('{"part":'));
    await within(firstRequestChunk.promise, 5_000, 'the upstream reading the first part of a streamed request');
    controller.enqueue(encoder.encode('2}'));
    controller.close();
    const response = await answer;
    expect(await response.json()).toEqual({ received: '{"part":2}' });
  });

  it('turns an answer that is not JSON into 502', async () => {
    const response = await fetch(`${gw.url}/v1/html`);
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ success: false, errorCode: 'UPSTREAM_BAD_RESPONSE', errorMessage: expect.any(String) });
  });
});

describe('gateway failures', () => {
  it('answers 502 with the error envelope when the upstream is down', async () => {
    const gone = await rawServer(() => {});
    await gone.close();
    const gw = await startGateway(gone.url);
    try {
      const response = await fetch(`${gw.url}/v1/live/pull?subscription_id=s`, {
        headers: { Authorization: 'Bearer dds_live_sk_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB' },
      });
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual({ success: false, errorCode: 'UPSTREAM_UNREACHABLE', errorMessage: expect.any(String) });
      expect(gw.log.some((line) => line.includes('502'))).toBe(true);
      expect(gw.log.join('\n')).not.toContain('BBBBBBBB');
    } finally {
      await gw.close();
    }
  });

  it('answers 504 when the upstream does not answer in time, and cuts an answer that never ends', async () => {
    const hanging = await rawServer((req, res) => {
      // /v1/slow-body sends its headers, then nothing; anything else gets no answer at all.
      if (req.url === '/v1/slow-body') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('{"started":');
      }
    });
    const gw = await startGateway(hanging.url, { headersTimeoutMs: 300, totalTimeoutMs: 1_000 });
    try {
      // The 504 is the headers timeout's own answer (300 ms here); no clock is read (a busy machine must not fail it).
      const response = await fetch(`${gw.url}/v1/frontiers`);
      expect(response.status).toBe(504);
      expect(await response.json()).toEqual({ success: false, errorCode: 'UPSTREAM_TIMEOUT', errorMessage: expect.any(String) });

      const slow = await fetch(`${gw.url}/v1/slow-body`);
      expect(slow.status).toBe(200);
      await expect(within(slow.text(), 5_000, 'the cut of an endless answer')).rejects.toThrow(/terminated|abort|socket|other side closed/i);
    } finally {
      await gw.close();
      await hanging.close();
    }
  });

  it('breaks the connection when the upstream dies mid-body: no truncated answer passed as whole, one log line, no stack', async () => {
    const dying = await rawServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
      res.write('{"data":[');
      setTimeout(() => res.socket?.destroy(), 50);
    });
    const gw = await startGateway(dying.url);
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const response = await fetch(`${gw.url}/v1/frontiers`);
      expect(response.status).toBe(200);
      // Before: the Node adapter printed the stack and ended the body cleanly with "Error: terminated" appended.
      await expect(within(response.text(), 5_000, 'the end of a cut answer')).rejects.toThrow(/terminated|socket|other side closed/i);
      await vi.waitFor(() => expect(gw.log.some((line) => /GET \/v1\/frontiers → 200, cut mid-body/.test(line))).toBe(true));
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
      await gw.close();
      await dying.close();
    }
  });

  it('refuses a bad --upstream and flags that mean nothing in gateway mode (exit 2)', async () => {
    const bad = await cli('service', ['--upstream', 'ftp://example.test', '--port', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--upstream');
    const seeded = await cli('service', ['--upstream', 'http://127.0.0.1:9', '--seed', 'demo', '--port', '0']);
    expect(seeded.code).toBe(2);
    expect(seeded.stderr).toContain('--seed');
  });
});
