import Ajv2020 from 'ajv/dist/2020';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { OpenAPIBackend, type Operation } from 'openapi-backend';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, openApiJson } from '../../src/api/contract/openapi';
import { createKeyCli, startHarness, type Harness } from './harness';
import { judgedFetch, judgeExchange } from './openapi-judge';

/*
 * The OpenAPI document against real traffic: a representative run over real HTTP (every
 * endpoint, successes and failures), each request and each response checked by an independent
 * validator (openapi-backend routing and parameter parsing, Ajv in JSON Schema 2020-12 mode, the
 * dialect of OpenAPI 3.1) against the document the service itself serves.
 */

let h: Harness;
let flat: Harness;
let api: OpenAPIBackend;

beforeAll(async () => {
  [h, flat] = await Promise.all([startHarness(), startHarness({ livePullForm: 'flat' })]);
  const served = await h.get('/v1/openapi.json');
  expect(served.status).toBe(200);
  api = new OpenAPIBackend({
    definition: served.body,
    strict: true,
    // quick: skips openapi-backend's own check of the document, which knows OpenAPI 3.0 only
    // (npm run openapi:lint checks the document's structure as 3.1).
    quick: true,
    // openapi-backend's own Ajv speaks draft-07; OpenAPI 3.1 schemas are JSON Schema 2020-12.
    customizeAjv: (_ajv, options) => new Ajv2020({ ...options, strict: false }),
  });
  await api.init();
});
afterAll(() => Promise.all([h?.close(), flat?.close()]));

interface Exchange {
  status: number;
  body: any;
  operationId: string | undefined;
}

/** One request over real HTTP; its response must conform to the document, the request as `requestValid` says. */
async function exchange(
  service: Harness,
  method: 'GET' | 'POST',
  path: string,
  options: { token?: string; body?: unknown; requestValid?: boolean } = {},
): Promise<Exchange> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  const response = await judgedFetch(`${service.url}${path}`, { method, headers, body: payload }, options.requestValid === false ? 'invalid' : undefined);
  const text = await response.text();
  const url = new URL(path, service.url);
  const request = {
    method,
    path: url.pathname,
    query: url.search.slice(1),
    headers,
    body: payload === undefined ? undefined : tryJson(payload),
  };
  const label = `${method} ${path} → ${response.status}`;
  const operation = api.matchOperation(request) as Operation | undefined;
  expect(operation, `${label}: no operation in the document`).toBeDefined();
  // Whether the request is the document's (or, when marked, is not) is the judge's verdict (openapi-judge.ts).

  expect(response.headers.get('content-type'), label).toMatch(/^application\/json/);
  expect(Object.keys(operation!.responses ?? {}), `${label}: status not documented`).toContain(String(response.status));
  const body = JSON.parse(text) as unknown;
  const responseCheck = api.validateResponse(body, operation!, response.status);
  expect(responseCheck.errors ?? [], `${label}: response does not conform`).toEqual([]);
  return { status: response.status, body, operationId: operation!.operationId };
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const get = (path: string, token?: string, requestValid?: boolean) => exchange(h, 'GET', path, { token, requestValid });
const post = (path: string, token?: string, body?: unknown, requestValid?: boolean) => exchange(h, 'POST', path, { token, body, requestValid });

describe('the OpenAPI document', () => {
  it('is committed as docs/openapi.json exactly as the contract generates it (npm run openapi)', () => {
    expect(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')).toBe(openApiJson());
  });

  it('is served at GET /v1/openapi.json, without a key', async () => {
    const served = await get('/v1/openapi.json');
    expect(served.body).toEqual(buildOpenApiDocument());
    expect(served.body.openapi).toBe('3.1.0');
  });

  it('describes every endpoint of the spec (section 4), each with an operation id', () => {
    const document = buildOpenApiDocument() as { paths: Record<string, Record<string, { operationId: string }>> };
    const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    expect(operations.sort()).toEqual(
      [
        'GET /v1/frontiers',
        'GET /v1/frontiers/{frontier_id}/tasks',
        'GET /v1/data/verticals',
        'GET /v1/frontiers/{frontier_id}/tasks/{task_id}/preview',
        'POST /v1/auth/verify-key',
        'GET /v1/live/pull',
        'GET /v1/live/usage',
        'POST /v1/live/items/{submission_id}/adopt',
        'POST /v1/live/items/{submission_id}/dispute',
        'GET /v1/data/pull',
        'POST /v1/data/items/{item_id}/adopt',
        'POST /v1/data/items/{item_id}/dispute',
        'GET /v1/data/deliveries',
        'GET /v1/data/deliveries/{delivery_id}/items',
        'GET /v1/openapi.json',
        // HEAD on each GET path, documented as the 405 it is.
        'HEAD /v1/frontiers',
        'HEAD /v1/frontiers/{frontier_id}/tasks',
        'HEAD /v1/data/verticals',
        'HEAD /v1/frontiers/{frontier_id}/tasks/{task_id}/preview',
        'HEAD /v1/live/pull',
        'HEAD /v1/live/usage',
        'HEAD /v1/data/pull',
        'HEAD /v1/data/deliveries',
        'HEAD /v1/data/deliveries/{delivery_id}/items',
        'HEAD /v1/openapi.json',
      ].sort(),
    );
  });

  it("lists the hardening's refusals: as error envelopes on every operation (400, 408, 421, 431), without content on HEAD (405 too)", () => {
    const document = buildOpenApiDocument() as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: { allOf: unknown[] } }> }> }>>;
    };
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const statuses = method === 'head' ? ['405', '400', '408', '421', '431'] : ['400', '408', '421', '431'];
        for (const status of statuses) {
          const label = `${method} ${path} ${status}`;
          expect(operation.responses[status], label).toBeDefined();
          const schema = operation.responses[status]?.content?.['application/json']?.schema;
          if (method === 'head') expect(operation.responses[status]?.content, label).toBeUndefined();
          else expect(schema?.allOf[0], label).toEqual({ $ref: '#/components/schemas/ErrorBody' });
        }
        if (method === 'head')
          expect(
            Object.keys(operation.responses).some((s) => s.startsWith('2')),
            `${method} ${path}`,
          ).toBe(false);
      }
    }
  });
});

describe('real traffic conforms to the document', () => {
  it('HEAD on every GET path, and a method a path does not answer, are the documented 405 with Allow', async () => {
    for (const [method, path, allow] of [
      ['HEAD', '/v1/live/pull?subscription_id=sub_live_streets', 'GET'],
      ['HEAD', '/v1/frontiers/101/tasks', 'GET'],
      ['HEAD', '/v1/openapi.json', 'GET'],
      ['PUT', '/v1/frontiers', 'GET'],
      ['DELETE', '/v1/data/deliveries/d1/items', 'GET'],
      ['GET', '/v1/live/items/1/adopt', 'POST'],
      ['PATCH', '/v1/auth/verify-key', 'POST'],
    ] as const) {
      // HEAD is described (a 405 without content); the other methods are outside the document.
      const response = await judgedFetch(
        `${h.url}${path}`,
        { method, headers: { authorization: `Bearer ${h.demo.api_key}` } },
        method === 'HEAD' ? undefined : 'invalid',
      );
      const label = `${method} ${path}`;
      expect(response.status, label).toBe(405);
      expect(response.headers.get('allow'), label).toBe(allow);
      // A HEAD answer has no body, so it claims no JSON a client would try to parse (found by Prism).
      if (method === 'HEAD') expect(response.headers.get('content-type'), label).toBeNull();
      else expect(response.headers.get('content-type'), label).toMatch(/^application\/json/);
      const url = new URL(path, h.url);
      const operation = api.matchOperation({ method, path: url.pathname, query: url.search.slice(1), headers: {} }) as Operation | undefined;
      if (method === 'HEAD') {
        expect(operation?.responses?.['405'], label).toMatchObject({ headers: { Allow: { required: true } } });
        expect((operation?.responses?.['405'] as { content?: unknown } | undefined)?.content, label).toBeUndefined();
      } else {
        // Not an operation of the document (it lists what a path answers), so the envelope is checked against ErrorBody.
        expect(operation, label).toBeUndefined();
        const body = (await response.json()) as { errorCode: string };
        expect(body, label).toEqual({ success: false, errorCode: 'METHOD_NOT_ALLOWED', errorMessage: expect.any(String) });
      }
    }
  });

  it('catalogue and preview', async () => {
    const frontiers = await get('/v1/frontiers');
    expect(frontiers.body.data.length).toBeGreaterThan(0);
    await get('/v1/frontiers?status=all');
    expect((await get('/v1/frontiers?status=bogus', undefined, false)).status).toBe(400);
    const tasks = await get('/v1/frontiers/101/tasks');
    const taskId = tasks.body.data[0].task_id as string;
    expect((await get('/v1/frontiers/999999/tasks')).status).toBe(404);
    expect((await get('/v1/data/verticals')).body.data.length).toBeGreaterThan(0);

    const preview = `/v1/frontiers/101/tasks/${taskId}/preview`;
    expect((await get(`${preview}?limit=3`, h.demo.jwt)).body.data.length).toBe(3);
    expect((await get(preview, h.demo.jwt)).status).toBe(200);
    expect((await get(preview, h.demo.api_key)).body.errorCode).toBe('INVALID_TOKEN');
    expect((await get(`${preview}?limit=21`, h.demo.jwt, false)).body.errorCode).toBe('INVALID_PARAMETER');
    expect((await get('/v1/frontiers/101/tasks/999999/preview', h.demo.jwt)).status).toBe(404);
  });

  it('key verification and authentication failures', async () => {
    expect((await post('/v1/auth/verify-key', h.demo.api_key)).body.org_id).toBe(h.demo.org_id);
    expect((await post('/v1/auth/verify-key', undefined, undefined, false)).body.errorCode).toBe('MISSING_API_KEY');
    expect((await get('/v1/live/usage', `dds_live_sk_${'A'.repeat(32)}`)).body.errorCode).toBe('INVALID_API_KEY');
    const expired = await createKeyCli(h.dataDir, ['sub_live_streets'], ['--expires-at', '2020-01-01T00:00:00Z']);
    expect((await post('/v1/auth/verify-key', expired.key)).body.errorCode).toBe('KEY_EXPIRED');
    const tooLarge = await post('/v1/live/items/1/adopt', h.demo.api_key, { subscription_id: 'sub_live_streets', padding: 'x'.repeat(70_000) });
    expect(tooLarge.status).toBe(413);
  });

  it('live pull in both modes and both response forms, usage, and live feedback', async () => {
    const key = h.demo.api_key;
    const incremental = await get('/v1/live/pull?subscription_id=sub_live_streets&limit=3', key);
    expect(incremental.body.data.items).toHaveLength(3);
    const first = await get('/v1/live/pull?subscription_id=sub_live_streets&from=beginning&limit=2', key);
    const cursor = first.body.data.next_cursor as string;
    expect(cursor).not.toBe('');
    const second = await get(`/v1/live/pull?subscription_id=sub_live_streets&limit=2&cursor=${encodeURIComponent(cursor)}`, key);
    expect(second.body.data.items).toHaveLength(2);
    const filtered = await get('/v1/live/pull?subscription_id=sub_live_streets&from=beginning&limit=2&task_ids=1001,1002', key);
    expect(filtered.status).toBe(200);

    // The other form (--live-pull-form flat): data is the array, paging beside it.
    const flatPage = await exchange(flat, 'GET', '/v1/live/pull?subscription_id=sub_live_streets&limit=2', { token: flat.demo.api_key });
    expect(Array.isArray(flatPage.body.data)).toBe(true);
    await exchange(flat, 'GET', '/v1/live/pull?subscription_id=sub_live_streets&from=beginning&limit=2', { token: flat.demo.api_key });

    expect((await get('/v1/live/pull?subscription_id=sub_live_streets&cursor=forged', key)).body.errorCode).toBe('INVALID_CURSOR');
    expect((await get('/v1/live/pull?subscription_id=sub_live_streets&task_ids=1001', key)).body.errorCode).toBe('INVALID_PARAMETER');
    expect((await get('/v1/live/pull?subscription_id=sub_sim_retail', key)).body.errorCode).toBe('INVALID_PARAMETER');
    for (const limit of ['0', '201', '1.5', 'abc']) {
      expect((await get(`/v1/live/pull?subscription_id=sub_live_streets&limit=${limit}`, key, false)).status, limit).toBe(400);
    }
    expect((await get('/v1/live/pull?limit=5', key, false)).status).toBe(400);
    // Another organization's subscription is unknown to this key (as its items are).
    expect((await get('/v1/live/pull?subscription_id=sub_acme_retail', key)).body.errorCode).toBe('NOT_FOUND');
    const noData = await createKeyCli(h.dataDir, ['sub_live_streets'], ['--no-data-access']);
    expect((await get('/v1/live/pull?subscription_id=sub_live_streets', noData.key)).body.errorCode).toBe('NO_DATA_ACCESS');

    const [adopted, disputed] = incremental.body.data.items.map((item: { submission_id: string }) => item.submission_id) as string[];
    const adopt = await post(`/v1/live/items/${adopted}/adopt`, key, { subscription_id: 'sub_live_streets' });
    expect(adopt.body.feedback).toBe('adopt');
    const dispute = await post(`/v1/live/items/${disputed}/dispute`, key, { subscription_id: 'sub_live_streets', reason: 'wrong box' });
    expect(dispute.body.feedback).toBe('dispute');
    const conflict = await post(`/v1/live/items/${adopted}/dispute`, key, { subscription_id: 'sub_live_streets' });
    expect(conflict.body).toMatchObject({ errorCode: 'FEEDBACK_CONFLICT', recorded: 'adopt' });
    expect((await post(`/v1/live/items/${adopted}/adopt`, key, {}, false)).body.errorCode).toBe('INVALID_BODY');
    expect((await post('/v1/live/items/1/adopt', key, { subscription_id: 'sub_live_streets' })).status).toBe(404);
    expect((await post(`/v1/live/items/${adopted}/adopt`, noData.key, { subscription_id: 'sub_live_streets' })).status).toBe(403);

    const usage = await get('/v1/live/usage?limit=5', key);
    expect(usage.body.data.length).toBeGreaterThan(0);
    expect((await get('/v1/live/usage?limit=abc', key, false)).status).toBe(400);
  });

  it('simulated pull, feedback, deliveries and their items', async () => {
    const key = h.demo.api_key;
    const pulled = await get('/v1/data/pull?subscription_id=sub_sim_retail&limit=2', key);
    const [adopted, disputed] = pulled.body.data.map((item: { id: string }) => item.id) as string[];
    expect((await post(`/v1/data/items/${adopted}/adopt`, key)).body.status).toBe('adopted');
    expect((await post(`/v1/data/items/${disputed}/dispute`, key)).body.status).toBe('disputed');
    expect((await post(`/v1/data/items/${adopted}/dispute`, key)).body).toMatchObject({ errorCode: 'FEEDBACK_CONFLICT', recorded: 'adopted' });
    expect((await post('/v1/data/items/unknown-item/adopt', key)).status).toBe(404);
    expect((await get('/v1/data/pull', key, false)).status).toBe(400);
    expect((await get('/v1/data/pull?subscription_id=sub_live_streets', key)).body.errorCode).toBe('INVALID_PARAMETER');

    const deliveries = await get('/v1/data/deliveries?limit=10', key);
    const deliveryId = deliveries.body.data[0].delivery_id as string;
    expect((await get(`/v1/data/deliveries/${deliveryId}/items`, key)).body.data.length).toBeGreaterThan(0);
    expect((await get('/v1/data/deliveries/unknown/items', key)).status).toBe(404);
    expect((await get('/v1/data/deliveries?limit=201', key, false)).status).toBe(400);
  });
});

/** One request over node:http, which (unlike fetch) sends a body with any method; judged like every other exchange. */
function rawRequest(service: Harness, method: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; headers: Headers; text: string }>((done, fail) => {
    // Node's client frames a GET body only with an explicit Content-Length.
    const framed = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const request = httpRequest(`${service.url}${path}`, { method, headers: framed }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const answer = new Headers();
        for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') answer.set(name, value);
        done({ status: response.statusCode ?? 0, headers: answer, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    request.on('error', fail);
    request.end(body);
  }).then(async (answer) => {
    await judgeExchange({ method, target: path, headers, body }, { status: answer.status, headers: answer.headers, body: answer.text }, 'invalid');
    return answer;
  });
}

describe('what the outside validator found (issue 23)', () => {
  it("declares the 403s of a delivery's items: a key without data access, and a key that does not cover the delivery's subscription", async () => {
    const deliveries = await get('/v1/data/deliveries?limit=50', h.demo.api_key);
    const delivery = (deliveries.body.data as { delivery_id: string; subscription_id: string }[]).find((d) => d.subscription_id === 'sub_sim_retail')!;
    const noData = await createKeyCli(h.dataDir, ['sub_sim_retail'], ['--no-data-access']);
    const elsewhere = await createKeyCli(h.dataDir, ['sub_live_streets']);
    const path = `/v1/data/deliveries/${delivery.delivery_id}/items`;
    expect((await get(path, noData.key)).body.errorCode).toBe('NO_DATA_ACCESS');
    expect((await get(path, elsewhere.key)).body.errorCode).toBe('SUBSCRIPTION_NOT_IN_SCOPE');
  });

  it('refuses a body where the document describes none with the documented 415, and does nothing', async () => {
    const key = h.demo.api_key;
    const [item] = (await get('/v1/data/pull?subscription_id=sub_sim_retail&limit=1', key)).body.data as { id: string }[];
    for (const path of ['/v1/auth/verify-key', `/v1/data/items/${item!.id}/adopt`]) {
      const refused = await post(path, key, { subscription_id: 'sub_sim_retail' }, false);
      expect(refused.status, path).toBe(415);
      expect(refused.body.errorCode, path).toBe('UNEXPECTED_BODY');
    }
    // The refused adopt decided nothing: the item can still be disputed.
    expect((await post(`/v1/data/items/${item!.id}/dispute`, key)).body.status).toBe('disputed');
    // A GET with a body (fetch cannot send one) is refused the same way.
    const get415 = await rawRequest(h, 'GET', '/v1/frontiers', { 'content-type': 'application/json' }, '{"status":"all"}');
    expect(get415.status).toBe(415);
    expect(JSON.parse(get415.text)).toMatchObject({ errorCode: 'UNEXPECTED_BODY' });
    // An empty body, even labelled JSON (some clients always send the header), is no body.
    expect((await post('/v1/auth/verify-key', key, '')).status).toBe(200);
  });

  it('describes the two live-pull forms as two schemas a generator can tell apart, without `additionalProperties: {}` on objects with properties', () => {
    const document = buildOpenApiDocument() as any;
    const pull = document.paths['/v1/live/pull'].get.responses['200'].content['application/json'].schema;
    expect(pull).toEqual({ oneOf: [{ $ref: '#/components/schemas/LivePullEnvelope' }, { $ref: '#/components/schemas/LivePullFlat' }] });
    const { LivePullEnvelope: envelope, LivePullFlat: flat } = document.components.schemas;
    // Required fields of one form that the other does not declare at all.
    expect(envelope.required).toContain('success');
    expect(flat.required).toEqual(expect.arrayContaining(['has_more', 'count']));
    expect(envelope.properties.has_more).toBeUndefined();
    const weakened: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (Array.isArray(node)) node.forEach((child, i) => walk(child, `${at}/${i}`));
      else if (node && typeof node === 'object') {
        const object = node as Record<string, unknown>;
        const open = object.additionalProperties;
        if (object.properties && open && typeof open === 'object' && Object.keys(open).length === 0) weakened.push(at);
        for (const [name, child] of Object.entries(object)) walk(child, `${at}/${name}`);
      }
    };
    walk(document, '#');
    expect(weakened).toEqual([]);
  });
});
