import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { frontiersResponseSchema, frontierTasksResponseSchema, previewResponseSchema, verticalsResponseSchema } from '../../src/api/contract';
import { cli, startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('public catalogue', () => {
  it('lists online frontiers by default and all of them with status=all', async () => {
    const online = await h.get('/v1/frontiers');
    expect(online.status).toBe(200);
    const parsedOnline = frontiersResponseSchema.parse(online.body).data;
    expect(parsedOnline.map((f) => f.frontier_id).sort()).toEqual(['101', '102']);
    expect(parsedOnline.every((f) => f.status === 'ONLINE')).toBe(true);
    const all = frontiersResponseSchema.parse((await h.get('/v1/frontiers?status=all')).body).data;
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(all.length).toBeGreaterThan(parsedOnline.length);
    expect(all.some((f) => f.status !== 'ONLINE')).toBe(true);
    const total = all.reduce((sum, f) => sum + f.total_submissions, 0);
    expect(total).toBe(5000);
  });

  it('rejects an unknown status filter', async () => {
    const response = await h.get('/v1/frontiers?status=sometimes', undefined, 'invalid');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, errorCode: 'INVALID_PARAMETER' });
  });

  it('lists a frontier’s tasks, and 404s an unknown frontier', async () => {
    const tasks = frontierTasksResponseSchema.parse((await h.get('/v1/frontiers/101/tasks')).body).data;
    expect(tasks.length).toBeGreaterThan(0);
    expect(tasks.every((t) => t.frontier_id === '101')).toBe(true);
    const missing = await h.get('/v1/frontiers/999/tasks');
    expect(missing.status).toBe(404);
    expect(missing.body.errorCode).toBe('NOT_FOUND');
  });

  it('seeds 8 tasks of several types and verticals with fractional-cent prices', async () => {
    const all = frontiersResponseSchema.parse((await h.get('/v1/frontiers?status=all')).body).data;
    const types = new Set<string>();
    let count = 0;
    for (const f of all) {
      const tasks = frontierTasksResponseSchema.parse((await h.get(`/v1/frontiers/${f.frontier_id}/tasks`)).body).data;
      count += tasks.length;
      tasks.forEach((t) => types.add(t.task_type));
    }
    expect(count).toBe(8);
    expect(types.size).toBeGreaterThanOrEqual(4);
    const verticals = verticalsResponseSchema.parse((await h.get('/v1/data/verticals')).body).data;
    expect(verticals).toHaveLength(3);
    expect(verticals.map((v) => v.base_price_usd)).toContain(0.0125);
  });
});

describe('task preview (JWT)', () => {
  it('returns preview submissions with the default limit of 5 and honours limit', async () => {
    const preview = await h.get('/v1/frontiers/101/tasks/1001/preview', h.demo.jwt);
    expect(preview.status).toBe(200);
    const data = previewResponseSchema.parse(preview.body).data;
    expect(data).toHaveLength(5);
    expect(data[0]).toHaveProperty('audit_rating');
    expect(data[0]).not.toHaveProperty('task_id');
    const twenty = previewResponseSchema.parse((await h.get('/v1/frontiers/101/tasks/1001/preview?limit=20', h.demo.jwt)).body).data;
    expect(twenty).toHaveLength(20);
  });

  it('refuses an API key, a missing token and a forged token', async () => {
    for (const token of [undefined, h.demo.api_key, `${h.demo.jwt.slice(0, -4)}AAAA`]) {
      const response = await h.get('/v1/frontiers/101/tasks/1001/preview', token, token ? undefined : 'invalid');
      expect(response.status).toBe(401);
      expect(response.body.errorCode).toBe('INVALID_TOKEN');
    }
  });

  it('accepts a token from the jwt CLI and refuses an expired one', async () => {
    const fresh = await cli('jwt', ['--expires', '1h', '--data', h.dataDir]);
    expect(fresh.code).toBe(0);
    expect((await h.get('/v1/frontiers/101/tasks/1001/preview?limit=1', fresh.stdout)).status).toBe(200);
    const short = await cli('jwt', ['--expires', '1s', '--data', h.dataDir]);
    expect(short.code).toBe(0);
    const { iat, exp } = JSON.parse(Buffer.from(short.stdout.split('.')[1]!, 'base64url').toString()) as { iat: number; exp: number };
    expect(exp - iat).toBe(1);
    const preview = () => h.get('/v1/frontiers/101/tasks/1001/preview?limit=1', short.stdout);
    // The service runs in this process: its clock is moved, not waited for. Only Date is faked,
    // so sockets and timers run as usual. The last second of the token is accepted, its end refused.
    vi.useFakeTimers({ toFake: ['Date'], now: (exp - 1) * 1000 });
    try {
      expect((await preview()).status).toBe(200);
      vi.setSystemTime(exp * 1000);
      const expired = await preview();
      expect(expired.status).toBe(401);
      expect(expired.body.errorCode).toBe('INVALID_TOKEN');
    } finally {
      vi.useRealTimers();
    }
  });

  it('404s a task of another frontier', async () => {
    const response = await h.get('/v1/frontiers/102/tasks/1001/preview', h.demo.jwt);
    expect(response.status).toBe(404);
  });
});

describe('media', () => {
  it('serves the demo images the payloads point at', async () => {
    const response = await fetch(`${h.url}/media/scenes/5.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(await response.text()).toContain('<svg');
  });
});
