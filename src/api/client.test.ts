import { describe, expect, it, vi } from 'vitest';
import { createClient } from './client';
import { ApiError, ConnectionBlockedError, ContractError, NetworkError } from './errors';

const KEY = `dds_live_sk_${'k'.repeat(32)}`;
const item = {
  submission_id: '1',
  task_id: '10',
  frontier_id: '100',
  data: { text: 'hi' },
  quality_score: 0.9,
  quality_grade: 'A',
  source: 'app',
  created_at: '2026-01-01T00:00:00',
  consumer_feedback: null,
};

type Reply = Response | Error | ((init: RequestInit) => Promise<Response>);
function fakeFetch(...replies: Reply[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fn = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    const reply = replies[Math.min(calls.length - 1, replies.length - 1)]!;
    if (reply instanceof Error) throw reply;
    if (typeof reply === 'function') return reply(init ?? {});
    return reply.clone();
  });
  return { fetch: fn as unknown as typeof fetch, calls };
}
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const client = (f: typeof fetch, extra = {}) => createClient({ baseUrl: 'https://dds.example.com', apiKey: KEY, fetch: f, retryDelayMs: 1, ...extra });

describe('live pull', () => {
  it('normalises the envelope form', async () => {
    const { fetch } = fakeFetch(
      json(200, { success: true, errorCode: null, errorMessage: null, data: { items: [item], count: 1, has_more: true, next_cursor: 'c1', receipt: {} } }),
    );
    const page = await client(fetch).pullLive({ subscription_id: 's', limit: 1, from: 'beginning' });
    expect(page).toEqual({ items: [item], count: 1, hasMore: true, nextCursor: 'c1', receipt: null });
  });

  it('normalises the flat form', async () => {
    const receipt = { receipt_id: 'r', subscription_id: 's', kind: 'pull', quantity: 1, amount_usd: 0, created_at: 'now' };
    const { fetch } = fakeFetch(json(200, { data: [item], count: 1, has_more: false, next_cursor: '', receipt }));
    const page = await client(fetch).pullLive({ subscription_id: 's' });
    expect(page).toEqual({ items: [item], count: 1, hasMore: false, nextCursor: null, receipt });
  });

  it('sends the parameters on the query string, the key only in the header', async () => {
    const { fetch, calls } = fakeFetch(json(200, { data: [], count: 0, has_more: false, next_cursor: null }));
    await client(fetch).pullLive({ subscription_id: 'sub 1', limit: 20, from: 'beginning', cursor: 'a+b/c=', task_ids: ['1', '2'] });
    const url = new URL(calls[0]!.url);
    expect(url.pathname).toBe('/v1/live/pull');
    expect(Object.fromEntries(url.searchParams)).toEqual({ subscription_id: 'sub 1', limit: '20', from: 'beginning', cursor: 'a+b/c=', task_ids: '1,2' });
    expect(calls[0]!.url).not.toContain(KEY);
    expect(calls[0]!.init.headers).toEqual({ Authorization: `Bearer ${KEY}` });
  });

  it('through a team hub: the session cookie and the member the page works as, never a key', async () => {
    const { fetch, calls } = fakeFetch(json(200, { data: [], count: 0, has_more: false, next_cursor: null }));
    await createClient({ baseUrl: 'http://hub.test', fetch, credentials: 'same-origin', member: 'm1' }).pullLive({ subscription_id: 's', limit: 1 });
    expect(calls[0]!.init.headers).toEqual({ 'X-Hub-Member': 'm1' });
    expect(calls[0]!.init.credentials).toBe('same-origin');
  });

  it('keeps fields a server adds', async () => {
    const { fetch } = fakeFetch(json(200, { data: [{ ...item, lineage: { etl: 'v2' } }], count: 1, has_more: false, next_cursor: '', extra: 1 }));
    const page = await client(fetch).pullLive({ subscription_id: 's' });
    expect(page.items[0]).toHaveProperty('lineage', { etl: 'v2' });
  });
});

describe('errors', () => {
  it('reads the error envelope into an ApiError', async () => {
    const { fetch } = fakeFetch(json(401, { success: false, errorCode: 'KEY_REVOKED', errorMessage: 'the API key has been revoked' }));
    const error = await client(fetch)
      .usage(50)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: 'KEY_REVOKED', message: 'the API key has been revoked' });
  });

  it('gives a readable message for a non-JSON error body, and keeps the body', async () => {
    const { fetch } = fakeFetch(new Response('<html>Bad gateway</html>', { status: 404, statusText: 'Not Found' }));
    const error = (await client(fetch)
      .listFrontiers()
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBeNull();
    expect(error.message).toContain('404');
    expect(error.rawBody).toContain('Bad gateway');
  });

  it('treats success:false inside a 200 as an ApiError', async () => {
    const { fetch } = fakeFetch(json(200, { success: false, errorCode: 'INVALID_CURSOR', errorMessage: 'bad cursor' }));
    await expect(client(fetch).pullLive({ subscription_id: 's' })).rejects.toMatchObject({ kind: 'api', code: 'INVALID_CURSOR' });
  });

  it('names the path of a contract mismatch and keeps the raw body', async () => {
    const { fetch } = fakeFetch(json(200, { data: [{ ...item, quality_score: 'high' }], count: 1, has_more: false, next_cursor: '' }));
    const error = (await client(fetch)
      .pullLive({ subscription_id: 's' })
      .catch((e: unknown) => e)) as ContractError;
    expect(error).toBeInstanceOf(ContractError);
    expect(error.path).toMatch(/quality_score/);
    expect(error.rawBody).toContain('"high"');
  });

  it('reports a body that is not JSON as a contract error', async () => {
    const { fetch } = fakeFetch(new Response('hello', { status: 200 }));
    await expect(client(fetch).listVerticals()).rejects.toBeInstanceOf(ContractError);
  });

  it('redacts keys and tokens a server echoes in its body', async () => {
    const { fetch } = fakeFetch(json(400, { detail: `you sent ${KEY}` }));
    const error = (await client(fetch)
      .usage(5)
      .catch((e: unknown) => e)) as ApiError;
    expect(error.rawBody).not.toContain(KEY);
    expect(error.rawBody).toContain('[redacted key]');
  });
});

describe('retries', () => {
  it('retries a GET on network errors, 5xx and 429, then succeeds', async () => {
    const ok = json(200, { data: [] });
    const { fetch, calls } = fakeFetch(new TypeError('fetch failed'), json(503, {}), ok);
    await expect(client(fetch).listVerticals()).resolves.toEqual([]);
    expect(calls).toHaveLength(3);
    const second = fakeFetch(json(429, {}), ok);
    await client(second.fetch).listVerticals();
    expect(second.calls).toHaveLength(2);
  });

  it('stops after 3 attempts', async () => {
    const { fetch, calls } = fakeFetch(json(500, { success: false, errorCode: 'INTERNAL_ERROR', errorMessage: 'x' }));
    await expect(client(fetch).listVerticals()).rejects.toMatchObject({ status: 500 });
    expect(calls).toHaveLength(3);
  });

  it('never retries another 4xx', async () => {
    const { fetch, calls } = fakeFetch(json(400, { success: false, errorCode: 'INVALID_PARAMETER', errorMessage: 'x' }));
    await expect(client(fetch).usage(0)).rejects.toBeInstanceOf(ApiError);
    expect(calls).toHaveLength(1);
  });

  it('never retries an incremental live pull (it moves the position), but retries a re-read page', async () => {
    const failures: [Reply, object][] = [
      [new TypeError('fetch failed'), { kind: 'network' }],
      [json(503, {}), { kind: 'api', status: 503 }],
      [json(429, {}), { kind: 'api', status: 429 }],
    ];
    for (const [failure, error] of failures) {
      const { fetch, calls } = fakeFetch(failure, json(200, { success: true, data: { items: [], count: 0, has_more: false, next_cursor: '', receipt: null } }));
      // The caller is told the answer was lost (the pull may have moved the position), not handed an empty page.
      await expect(client(fetch).pullLive({ subscription_id: 's', limit: 5 })).rejects.toMatchObject(error);
      expect(calls).toHaveLength(1);
    }
    const reread = fakeFetch(json(503, {}), json(200, { success: true, data: { items: [item], count: 1, has_more: false, next_cursor: '', receipt: null } }));
    await expect(client(reread.fetch).pullLive({ subscription_id: 's', from: 'beginning' })).resolves.toMatchObject({ items: [item], hasMore: false });
    expect(reread.calls).toHaveLength(2);
  });

  it('never retries a POST (a decision must not be sent twice by the client)', async () => {
    const { fetch, calls } = fakeFetch(json(503, {}));
    await expect(client(fetch).adoptItem('i')).rejects.toBeInstanceOf(ApiError);
    expect(calls).toHaveLength(1);
  });
});

describe('timeout', () => {
  it('aborts a request that takes longer than the timeout, as a NetworkError', async () => {
    const hanging = (init: RequestInit) =>
      new Promise<Response>((_, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    const { fetch, calls } = fakeFetch(hanging);
    const error = (await client(fetch, { timeoutMs: 20, maxAttempts: 2 })
      .listFrontiers()
      .catch((e: unknown) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.timedOut).toBe(true);
    expect(calls).toHaveLength(2);
  });
});

describe('blocked connections', () => {
  it('sends no keyed request while the key is blocked, but public ones still go', async () => {
    const { fetch, calls } = fakeFetch(json(200, { data: [] }));
    const blocked = client(fetch, { blockedReason: () => 'key refused' });
    await expect(blocked.usage(5)).rejects.toBeInstanceOf(ConnectionBlockedError);
    expect(calls).toHaveLength(0);
    await blocked.listVerticals();
    expect(calls).toHaveLength(1);
  });
});

describe('headers', () => {
  it('sends only Authorization and Content-Type, with no credentials or referrer', async () => {
    const { fetch, calls } = fakeFetch(json(200, { ok: true, submission_id: '1', feedback: 'dispute' }));
    await client(fetch).disputeLive('1', 'sub', 'blurry');
    const init = calls[0]!.init;
    expect(Object.keys(init.headers as object).sort()).toEqual(['Authorization', 'Content-Type']);
    expect(init.credentials).toBe('omit');
    expect(init.referrerPolicy).toBe('no-referrer');
    expect(JSON.parse(String(init.body))).toEqual({ subscription_id: 'sub', reason: 'blurry' });
  });
});

describe('IDs in paths', () => {
  it.each(['..', '.', 'a/b', 'a b', '%2e%2e', 'x?y', ''])('refuses %j before any request, as a 400 that is never retried', async (id) => {
    const { fetch, calls } = fakeFetch(json(200, { data: [] }));
    const error = await Promise.resolve()
      .then(() => client(fetch).deliveryItems(id))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'INVALID_PARAMETER' });
    expect(calls).toHaveLength(0);
  });

  it('sends a valid ID as it is', async () => {
    const { fetch, calls } = fakeFetch(json(200, { success: true, errorCode: null, errorMessage: null, data: [] }));
    await client(fetch)
      .listTasks('fr-1.a:b_c', undefined)
      .catch(() => undefined);
    expect(calls[0]!.url).toContain('/v1/frontiers/fr-1.a:b_c/tasks');
  });
});
