import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { livePullResponseSchema, simulatedPullResponseSchema, usageResponseSchema } from '../../src/api/contract';
import { cli, startHarness, type Harness } from './harness';

describe('persistence', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('loses nothing across a restart: feedback, charges, positions, keys', async () => {
    const [item] = simulatedPullResponseSchema.parse((await h.get('/v1/data/pull?subscription_id=sub_sim_retail&limit=1', h.demo.api_key)).body).data;
    await h.post(`/v1/data/items/${item!.id}/adopt`, h.demo.api_key);
    const street = (
      h.service.db.prepare(`SELECT submission_id FROM submissions WHERE frontier_id = '101' ORDER BY seq LIMIT 1`).get() as {
        submission_id: string;
      }
    ).submission_id;
    await h.post(`/v1/live/items/${street}/dispute`, h.demo.api_key, { subscription_id: 'sub_live_streets', reason: 'r' });
    const firstPull = livePullResponseSchema.parse((await h.get('/v1/live/pull?subscription_id=sub_live_streets&limit=10', h.demo.api_key)).body);
    const usageBefore = usageResponseSchema.parse((await h.get('/v1/live/usage?limit=200', h.demo.api_key)).body).data;

    await h.restart();

    const usageAfter = usageResponseSchema.parse((await h.get('/v1/live/usage?limit=200', h.demo.api_key)).body).data;
    expect(usageAfter).toEqual(usageBefore);
    const next = livePullResponseSchema.parse((await h.get('/v1/live/pull?subscription_id=sub_live_streets&limit=10', h.demo.api_key)).body);
    expect(Number(next.items[0]!.submission_id)).toBeGreaterThan(Number(firstPull.items.at(-1)!.submission_id));
    const conflict = await h.post(`/v1/live/items/${street}/adopt`, h.demo.api_key, { subscription_id: 'sub_live_streets' });
    expect(conflict.status).toBe(409);
    expect((await h.post(`/v1/data/items/${item!.id}/dispute`, h.demo.api_key)).status).toBe(409);
  });

  it('does not re-seed a data directory that has data', async () => {
    const frontiers = (await h.get('/v1/frontiers?status=all')).body.data.length;
    await h.restart();
    expect((await h.get('/v1/frontiers?status=all')).body.data.length).toBe(frontiers);
  });
});

describe('fixtures', () => {
  let h: Harness;
  let dir: string;
  beforeAll(async () => {
    h = await startHarness({ seed: 'none' });
    dir = mkdtempSync(join(tmpdir(), 'dds-fixture-'));
  });
  afterAll(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const fixture = {
    frontiers: [{ frontier_id: '7', title: 'Fixture frontier', status: 'ONLINE' }],
    tasks: [{ task_id: '70', frontier_id: '7', name: 'Boxes', task_type: 'IMAGE_ANNOTATION', status: 'COLLECTING' }],
    submissions: [1, 2, 3].map((n) => ({
      submission_id: String(900 + n),
      task_id: '70',
      campaign_id: n === 3 ? 'c2' : 'c1',
      data: { n },
      quality_score: 0.9,
      quality_grade: 'A',
      source: 'fixture',
      created_at: '2026-01-01T00:00:00',
    })),
    verticals: [{ id: 'v-1', slug: 'fx', name: 'Fixture vertical', description: 'd', base_price_usd: 0.0125 }],
    subscriptions: [
      { subscription_id: 'fx_live', kind: 'live', frontier_id: '7' },
      { subscription_id: 'fx_sim', kind: 'simulated', vertical_id: 'v-1' },
    ],
    items: [1, 2].map((n) => ({
      id: `item-${n}`,
      vertical_id: 'v-1',
      topic_id: 't-1',
      subscription_id: 'fx_sim',
      payload: { n },
      quality_score: 0.8,
      quality_method: 'consensus',
      validator_count: 3,
      consensus_ratio: 0.67,
      unit_price_usd: 0.0037,
      created_at: '2026-01-01T00:00:00Z',
    })),
    receipts: [{ subscription_id: 'fx_sim', kind: 'adopt', item_id: 'item-9', quantity: 1, amount_usd: 0.0037, created_at: '2026-01-02T00:00:00Z' }],
  };

  it('rejects a bad fixture whole, naming the first bad path', async () => {
    const bad = structuredClone(fixture) as any;
    bad.items[1].unit_price_usd = 'cheap';
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify(bad));
    const result = await cli('fixtures', ['import', file, '--data', h.dataDir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('items[1].unit_price_usd');
    expect((await h.get('/v1/frontiers?status=all')).body.data).toEqual([]);

    const badRef = structuredClone(fixture) as any;
    badRef.submissions[2].task_id = '71';
    writeFileSync(file, JSON.stringify(badRef));
    const ref = await cli('fixtures', ['import', file, '--data', h.dataDir]);
    expect(ref.code).toBe(2);
    expect(ref.stderr).toContain('submissions[2].task_id');
    expect((await h.get('/v1/frontiers?status=all')).body.data).toEqual([]);
  });

  it('imports a fixture while the service runs, grouping items into a delivery', async () => {
    const file = join(dir, 'good.json');
    writeFileSync(file, JSON.stringify(fixture));
    const result = await cli('fixtures', ['import', file, '--data', h.dataDir]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const frontiers = (await h.get('/v1/frontiers')).body.data;
    expect(frontiers).toEqual([{ frontier_id: '7', title: 'Fixture frontier', status: 'ONLINE', task_count: 1, total_submissions: 3 }]);

    const created = await cli('keys', ['create', '--name', 'fx', '--subscriptions', 'fx_live,fx_sim', '--data', h.dataDir]);
    const key = JSON.parse(created.stdout).key as string;
    const pulled = livePullResponseSchema.parse((await h.get('/v1/live/pull?subscription_id=fx_live&from=beginning&campaign_ids=c2', key)).body);
    expect(pulled.items.map((i) => i.submission_id)).toEqual(['903']);
    const deliveries = (await h.get('/v1/data/deliveries', key)).body.data;
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0].item_count).toBe(2);
    const usage = usageResponseSchema.parse((await h.get('/v1/live/usage', key)).body).data;
    expect(usage).toHaveLength(1);
    expect(usage[0]!.amount_usd).toBe(0.0037);
  });
});

describe('CLI', () => {
  it.each([
    ['keys', ['create', '--name', 'x', '--subscriptions', 'a', '--expires', '2w', '--data', '/tmp/dds-none']],
    ['keys', ['create', '--bogus']],
    ['keys', ['frobnicate']],
    ['keys', ['revoke', '--data', '/tmp/dds-none']],
    ['jwt', ['--expires', 'soon', '--data', '/tmp/dds-none']],
    ['fixtures', ['import']],
    ['service', ['--port', 'eighty']],
    ['service', ['--seed', 'lots']],
    ['service', ['--live-pull-form', 'nested']],
  ] as const)('%s %s prints a one-line error and exits 2', async (script, args) => {
    const result = await cli(script, [...args]);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')).toHaveLength(1);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('keys create refuses an unknown subscription with exit 2', async () => {
    const h = await startHarness();
    try {
      const result = await cli('keys', ['create', '--name', 'x', '--subscriptions', 'sub_nope', '--data', h.dataDir]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('sub_nope');
    } finally {
      await h.close();
    }
  });
});
