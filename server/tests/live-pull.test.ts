import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { livePullEnvelopeSchema, livePullFlatSchema, livePullResponseSchema, usageResponseSchema } from '../../src/api/contract';
import { createKeyCli, startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** What the store says is readable, in delivery order. */
function readable(where: string, params: unknown[] = []): string[] {
  return (h.service.db.prepare(`SELECT submission_id FROM submissions WHERE ${where} ORDER BY seq`).all(...params) as { submission_id: string }[]).map(
    (r) => r.submission_id,
  );
}

async function reread(sub: string, key: string, extra = '', limit = 200) {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query = `subscription_id=${sub}&limit=${limit}&from=beginning${extra}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const response = await h.get(`/v1/live/pull?${query}`, key);
    expect(response.status).toBe(200);
    const page = livePullResponseSchema.parse(response.body);
    expect(page.count).toBe(page.items.length);
    expect(page.receipt).toBeNull();
    expect(page.hasMore).toBe(page.nextCursor !== null);
    ids.push(...page.items.map((i) => i.submission_id));
    cursor = page.nextCursor;
    pages++;
  } while (cursor);
  return { ids, pages };
}

describe('live pull: re-read', () => {
  it('pages to the end with every readable submission exactly once, in a stable order', async () => {
    const expected = readable(`frontier_id = '101'`);
    const { ids, pages } = await reread('sub_live_streets', h.demo.api_key);
    expect(ids).toEqual(expected);
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages).toBe(Math.ceil(expected.length / 200));
    // A second read gives the same sequence.
    expect((await reread('sub_live_streets', h.demo.api_key, '', 173)).ids).toEqual(expected);
  });

  it('narrows with task_ids and campaign_ids, and the subscription’s own task scope always applies', async () => {
    const byTask = await reread('sub_live_streets', h.demo.api_key, '&task_ids=1001');
    expect(byTask.ids).toEqual(readable(`task_id = '1001'`));
    const byCampaign = await reread('sub_live_streets', h.demo.api_key, '&campaign_ids=cmp_2026_spring&task_ids=1002,1003');
    expect(byCampaign.ids).toEqual(readable(`task_id IN ('1002','1003') AND campaign_id = 'cmp_2026_spring'`));
    // sub_live_support covers tasks 1004 and 1005 only.
    const scoped = await reread('sub_live_support', h.demo.api_key);
    expect(scoped.ids).toEqual(readable(`task_id IN ('1004','1005')`));
  });

  it('never widens: filters naming tasks outside the scope return nothing from them', async () => {
    const widened = await reread('sub_live_support', h.demo.api_key, '&task_ids=1006,1001,1004');
    expect(widened.ids).toEqual(readable(`task_id = '1004'`));
    const outside = await reread('sub_live_support', h.demo.api_key, '&task_ids=1006');
    expect(outside.ids).toEqual([]);
  });

  it('does not move the incremental position', async () => {
    const key = await createKeyCli(h.dataDir, ['sub_live_streets']);
    await reread('sub_live_streets', key.key);
    const before = h.service.db.prepare(`SELECT position FROM subscriptions WHERE subscription_id = 'sub_live_streets'`).get() as { position: number };
    await reread('sub_live_streets', key.key);
    const after = h.service.db.prepare(`SELECT position FROM subscriptions WHERE subscription_id = 'sub_live_streets'`).get() as { position: number };
    expect(after.position).toBe(before.position);
  });
});

describe('live pull: cursors', () => {
  async function firstCursor(extra = '') {
    const response = await h.get(`/v1/live/pull?subscription_id=sub_live_streets&limit=5&from=beginning${extra}`, h.demo.api_key);
    return livePullResponseSchema.parse(response.body).nextCursor!;
  }

  it('rejects forged, altered and foreign cursors with 400 INVALID_CURSOR', async () => {
    const cursor = await firstCursor();
    const [body, sig] = cursor.split('.') as [string, string];
    const forgedBody = Buffer.from(JSON.stringify({ v: 1, s: 'sub_live_streets', f: 't:*|c:*', a: 0 })).toString('base64url');
    const candidates = [
      `${forgedBody}.${sig}`,
      `${body}.${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`,
      `${body.slice(0, -1)}${body.endsWith('A') ? 'B' : 'A'}.${sig}`,
      'not-a-cursor',
      'eyJ2IjoxfQ.AAAA',
    ];
    for (const candidate of candidates) {
      const response = await h.get(`/v1/live/pull?subscription_id=sub_live_streets&limit=5&cursor=${encodeURIComponent(candidate)}`, h.demo.api_key);
      expect(response.status, candidate).toBe(400);
      expect(response.body.errorCode).toBe('INVALID_CURSOR');
    }
  });

  it('binds a cursor to its subscription and its filters', async () => {
    const cursor = encodeURIComponent(await firstCursor('&task_ids=1001'));
    const foreignSub = await h.get(`/v1/live/pull?subscription_id=sub_live_support&cursor=${cursor}&task_ids=1001`, h.demo.api_key);
    expect(foreignSub.body.errorCode).toBe('INVALID_CURSOR');
    const otherFilter = await h.get(`/v1/live/pull?subscription_id=sub_live_streets&cursor=${cursor}&task_ids=1002`, h.demo.api_key);
    expect(otherFilter.body.errorCode).toBe('INVALID_CURSOR');
    const dropped = await h.get(`/v1/live/pull?subscription_id=sub_live_streets&cursor=${cursor}`, h.demo.api_key);
    expect(dropped.body.errorCode).toBe('INVALID_CURSOR');
    const same = await h.get(`/v1/live/pull?subscription_id=sub_live_streets&cursor=${cursor}&task_ids=1001`, h.demo.api_key);
    expect(same.status).toBe(200);
  });
});

describe('live pull: incremental', () => {
  it('delivers everything once across pulls, moves the position, and meters each non-empty pull', async () => {
    // sub_live_support is only read incrementally by this test.
    const expected = readable(`task_id IN ('1004','1005')`);
    const ids: string[] = [];
    let receipts = 0;
    for (;;) {
      const response = await h.get('/v1/live/pull?subscription_id=sub_live_support&limit=200', h.demo.api_key);
      const page = livePullResponseSchema.parse(response.body);
      ids.push(...page.items.map((i) => i.submission_id));
      if (page.items.length > 0) {
        expect(page.receipt).toMatchObject({ kind: 'pull', quantity: page.items.length, subscription_id: 'sub_live_support' });
        receipts++;
      } else {
        expect(page.receipt).toBeNull();
      }
      if (!page.hasMore) break;
    }
    expect(ids).toEqual(expected);
    const empty = livePullResponseSchema.parse((await h.get('/v1/live/pull?subscription_id=sub_live_support', h.demo.api_key)).body);
    expect(empty.items).toEqual([]);
    const usage = usageResponseSchema.parse((await h.get('/v1/live/usage?limit=200', h.demo.api_key)).body).data;
    expect(usage.filter((r) => r.kind === 'pull' && r.subscription_id === 'sub_live_support')).toHaveLength(receipts);
  });

  it('serves concurrent incremental pulls without handing out a submission twice', async () => {
    const responses = await Promise.all(Array.from({ length: 8 }, () => h.get('/v1/live/pull?subscription_id=sub_live_streets&limit=50', h.demo.api_key)));
    const ids = responses.flatMap((r) => livePullResponseSchema.parse(r.body).items.map((i) => i.submission_id));
    expect(ids).toHaveLength(400);
    expect(new Set(ids).size).toBe(400);
  });

  it('refuses filters on an incremental pull', async () => {
    const response = await h.get('/v1/live/pull?subscription_id=sub_live_streets&task_ids=1001', h.demo.api_key);
    expect(response.status).toBe(400);
    expect(response.body.errorCode).toBe('INVALID_PARAMETER');
  });

  it('answers the envelope form by default', async () => {
    const response = await h.get('/v1/live/pull?subscription_id=sub_live_streets&limit=1&from=beginning', h.demo.api_key);
    expect(livePullEnvelopeSchema.safeParse(response.body).success).toBe(true);
    expect(response.body.success).toBe(true);
  });
});

describe('live pull: flat form', () => {
  it('answers the flat form when started with --live-pull-form flat', async () => {
    const flat = await startHarness({ livePullForm: 'flat' });
    try {
      const response = await flat.get('/v1/live/pull?subscription_id=sub_live_streets&limit=3&from=beginning', flat.demo.api_key);
      expect(response.status).toBe(200);
      const body = livePullFlatSchema.parse(response.body);
      expect(body.data).toHaveLength(3);
      expect(body.has_more).toBe(true);
      expect(livePullResponseSchema.parse(response.body).nextCursor).toBeTruthy();
    } finally {
      await flat.close();
    }
  });
});
