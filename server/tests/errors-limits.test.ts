import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../src/api/contract';
import { startHarness, type Harness } from './harness';
import { judgedFetch } from './openapi-judge';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ corsOrigins: ['http://console.example'] });
});
afterAll(() => h.close());

const BAD_LIMITS = ['0', '-1', '1.5', 'abc', '', '1e2', ' 5', '0x10'];

describe('limits', () => {
  const endpoints = [
    { path: '/v1/live/pull?subscription_id=sub_live_streets&from=beginning', max: 200, auth: 'key' },
    { path: '/v1/data/pull?subscription_id=sub_sim_retail', max: 200, auth: 'key' },
    { path: '/v1/frontiers/101/tasks/1001/preview', max: 20, auth: 'jwt' },
    { path: '/v1/live/usage', max: 200, auth: 'key' },
    { path: '/v1/data/deliveries', max: 200, auth: 'key' },
  ] as const;

  for (const endpoint of endpoints) {
    it(`${endpoint.path.split('?')[0]} refuses every bad limit with 400 and accepts 1 and ${endpoint.max}`, async () => {
      const token = endpoint.auth === 'jwt' ? h.demo.jwt : h.demo.api_key;
      const join = endpoint.path.includes('?') ? '&' : '?';
      for (const bad of [...BAD_LIMITS, String(endpoint.max + 1)]) {
        const response = await h.get(`${endpoint.path}${join}limit=${encodeURIComponent(bad)}`, token, 'invalid');
        expect(response.status, `limit=${bad}`).toBe(400);
        expect(response.body.errorCode).toBe('INVALID_PARAMETER');
      }
      for (const good of ['1', String(endpoint.max)]) {
        expect((await h.get(`${endpoint.path}${join}limit=${good}`, token)).status, `limit=${good}`).toBe(200);
      }
    });
  }

  it('defaults the live and simulated pulls to 50', async () => {
    const live = await h.get('/v1/live/pull?subscription_id=sub_live_streets&from=beginning', h.demo.api_key);
    expect(live.body.data.count).toBe(50);
    const sim = await h.get('/v1/data/pull?subscription_id=sub_sim_support', h.demo.api_key);
    expect(sim.body.count).toBe(50);
  });

  it('requires subscription_id', async () => {
    const response = await h.get('/v1/live/pull', h.demo.api_key, 'invalid');
    expect(response.status).toBe(400);
    expect(response.body.errorMessage).toContain('subscription_id');
  });
});

describe('errors', () => {
  it('answers unknown routes with the JSON error body and 404', async () => {
    for (const path of ['/v1/nothing', '/v1/live/items/1/approve', '/nowhere']) {
      const response = await h.get(path, undefined, 'invalid');
      expect(response.status).toBe(404);
      expect(errorBodySchema.parse(response.body).errorCode).toBe('NOT_FOUND');
    }
  });

  it('refuses bodies over 64 KiB with 413', async () => {
    const response = await h.post(
      '/v1/live/items/500001/dispute',
      h.demo.api_key,
      { subscription_id: 'sub_live_streets', reason: 'x'.repeat(70_000) },
      'invalid',
    );
    expect(response.status).toBe(413);
    expect(response.body.errorCode).toBe('BODY_TOO_LARGE');
  });

  it('never answers bad input with a 500 or a stack trace', async () => {
    // Every probe is deliberately outside the document; each answer is still judged by it.
    const probes = [
      h.get('/v1/live/pull?subscription_id=%00&from=beginning', h.demo.api_key, 'invalid'),
      h.get('/v1/live/pull?subscription_id=sub_live_streets&from=end', h.demo.api_key, 'invalid'),
      h.get(`/v1/live/pull?subscription_id=sub_live_streets&cursor=${'a'.repeat(3000)}`, h.demo.api_key, 'invalid'),
      h.get('/v1/live/pull?subscription_id=sub_live_streets&from=beginning&task_ids=,,', h.demo.api_key, 'invalid'),
      h.post('/v1/live/items/500001/dispute', h.demo.api_key, '[1,2]', 'invalid'),
      h.post('/v1/live/items/500001/dispute', h.demo.api_key, { subscription_id: 5 }, 'invalid'),
      h.post('/v1/live/items/%ZZ/adopt', h.demo.api_key, { subscription_id: 'sub_live_streets' }, 'invalid'),
      h.get('/v1/data/deliveries/%27%20OR%201=1/items', h.demo.api_key, 'invalid'),
    ];
    for (const response of await Promise.all(probes)) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(JSON.stringify(response.body)).not.toMatch(/at .*\.ts:\d+/);
      expect(errorBodySchema.safeParse(response.body).success).toBe(true);
    }
  });
});

describe('CORS', () => {
  it('allows the configured origin with Authorization and Content-Type', async () => {
    const response = await judgedFetch(`${h.url}/v1/live/usage`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://console.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization,content-type',
      },
    });
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://console.example');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
  });

  it('echoes the configured origin on a request, and gives another origin no Access-Control-Allow-Origin at all', async () => {
    const allowed = await judgedFetch(`${h.url}/v1/frontiers`, { headers: { Origin: 'http://console.example' } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://console.example');
    // The answer depends on Origin: caches must not hand one origin's answer to another.
    expect(allowed.headers.get('vary')?.toLowerCase()).toContain('origin');

    // No header at all: `*` or a reflected origin would both let the foreign page read the answer.
    const foreign = await judgedFetch(`${h.url}/v1/frontiers`, { headers: { Origin: 'http://evil.example' } });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await judgedFetch(`${h.url}/v1/live/usage`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://evil.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});
