import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliveriesResponseSchema,
  deliveryItemsResponseSchema,
  liveFeedbackResponseSchema,
  livePullResponseSchema,
  simulatedFeedbackResponseSchema,
  simulatedPullResponseSchema,
  usageResponseSchema,
  usdToMicros,
} from '../../src/api/contract';
import { createKeyCli, startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const simPull = async (sub = 'sub_sim_retail', limit = 200) =>
  simulatedPullResponseSchema.parse((await h.get(`/v1/data/pull?subscription_id=${sub}&limit=${limit}`, h.demo.api_key)).body).data;

describe('live feedback', () => {
  it('records adopt and dispute, shows them on pulls, is idempotent, and refuses a change with 409', async () => {
    const [adopted, disputed] = (
      h.service.db.prepare(`SELECT submission_id FROM submissions WHERE frontier_id = '101' ORDER BY seq LIMIT 2`).all() as {
        submission_id: string;
      }[]
    ).map((r) => r.submission_id) as [string, string];
    const adopt = await h.post(`/v1/live/items/${adopted}/adopt`, h.demo.api_key, { subscription_id: 'sub_live_streets' });
    expect(adopt.status).toBe(200);
    expect(liveFeedbackResponseSchema.parse(adopt.body)).toMatchObject({ ok: true, submission_id: adopted, feedback: 'adopt' });
    const again = await h.post(`/v1/live/items/${adopted}/adopt`, h.demo.api_key, { subscription_id: 'sub_live_streets' });
    expect(again.status).toBe(200);
    const conflict = await h.post(`/v1/live/items/${adopted}/dispute`, h.demo.api_key, { subscription_id: 'sub_live_streets', reason: 'blurry' });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ success: false, errorCode: 'FEEDBACK_CONFLICT', recorded: 'adopt' });

    const firstStreet = disputed;
    const dispute = await h.post(`/v1/live/items/${firstStreet}/dispute`, h.demo.api_key, { subscription_id: 'sub_live_streets', reason: 'wrong box' });
    expect(dispute.body.feedback).toBe('dispute');

    const page = livePullResponseSchema.parse((await h.get('/v1/live/pull?subscription_id=sub_live_streets&from=beginning&limit=200', h.demo.api_key)).body);
    const bySubmission = new Map(page.items.map((i) => [i.submission_id, i.consumer_feedback]));
    expect(bySubmission.get(firstStreet)).toBe('dispute');
    const untouched = page.items.find((i) => i.submission_id !== firstStreet && i.submission_id !== adopted);
    expect(untouched?.consumer_feedback).toBeNull();
  });

  it('needs a subscription under which the submission is readable', async () => {
    const missing = await h.post('/v1/live/items/500001/adopt', h.demo.api_key, {}, 'invalid');
    expect(missing.status).toBe(400);
    expect(missing.body.errorCode).toBe('INVALID_BODY');
    const notJson = await h.post('/v1/live/items/500001/adopt', h.demo.api_key, 'subscription_id=x', 'invalid');
    expect(notJson.body.errorCode).toBe('INVALID_BODY');
    // A submission of frontier 102's task 1006 is outside sub_live_support's scope.
    const outOfScope = (h.service.db.prepare(`SELECT submission_id FROM submissions WHERE task_id = '1006' LIMIT 1`).get() as { submission_id: string })
      .submission_id;
    const notReadable = await h.post(`/v1/live/items/${outOfScope}/adopt`, h.demo.api_key, { subscription_id: 'sub_live_support' });
    expect(notReadable.status).toBe(404);
    const unknown = await h.post('/v1/live/items/1/adopt', h.demo.api_key, { subscription_id: 'sub_live_streets' });
    expect(unknown.status).toBe(404);
  });
});

describe('simulated data', () => {
  it('pulls pending items oldest first without changing anything', async () => {
    const first = await simPull();
    const second = await simPull();
    expect(second).toEqual(first);
    const times = first.map((i) => i.created_at);
    expect([...times].sort()).toEqual(times);
    expect(first.length).toBe(200);
  });

  it('adopts once, charging unit_price_usd in a receipt; disputes without charge; 409 on reversal', async () => {
    const [a, b] = await simPull();
    const adopt = await h.post(`/v1/data/items/${a!.id}/adopt`, h.demo.api_key);
    expect(simulatedFeedbackResponseSchema.parse(adopt.body)).toEqual({ ok: true, item_id: a!.id, status: 'adopted' });
    expect((await h.post(`/v1/data/items/${a!.id}/adopt`, h.demo.api_key)).status).toBe(200);
    const reverse = await h.post(`/v1/data/items/${a!.id}/dispute`, h.demo.api_key);
    expect(reverse.status).toBe(409);
    expect(reverse.body).toMatchObject({ errorCode: 'FEEDBACK_CONFLICT', recorded: 'adopted' });
    const dispute = await h.post(`/v1/data/items/${b!.id}/dispute`, h.demo.api_key);
    expect(dispute.body.status).toBe('disputed');
    expect((await h.post(`/v1/data/items/${b!.id}/adopt`, h.demo.api_key)).status).toBe(409);

    const usage = usageResponseSchema.parse((await h.get('/v1/live/usage?limit=200', h.demo.api_key)).body).data;
    const forA = usage.filter((r) => r.item_id === a!.id);
    expect(forA).toHaveLength(1);
    expect(usdToMicros(forA[0]!.amount_usd)).toBe(usdToMicros(a!.unit_price_usd));
    expect(usage.filter((r) => r.item_id === b!.id)).toHaveLength(0);
    const pending = await simPull();
    expect(pending.some((i) => i.id === a!.id || i.id === b!.id)).toBe(false);
  });

  it('charges exactly once under 50 concurrent adopts of one item', async () => {
    const [item] = await simPull('sub_sim_product');
    const responses = await Promise.all(Array.from({ length: 50 }, () => h.post(`/v1/data/items/${item!.id}/adopt`, h.demo.api_key)));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    const count = h.service.db.prepare(`SELECT COUNT(*) AS n, SUM(amount_micros) AS total FROM receipts WHERE item_id = ?`).get(item!.id) as {
      n: number;
      total: number;
    };
    expect(count.n).toBe(1);
    expect(count.total).toBe(usdToMicros(item!.unit_price_usd));
  });

  it('404s another organization’s item and refuses items of a subscription the key does not cover', async () => {
    const acme = h.service.db.prepare(`SELECT id FROM items WHERE subscription_id = 'sub_acme_retail' LIMIT 1`).get() as { id: string };
    const foreign = await h.post(`/v1/data/items/${acme.id}/adopt`, h.demo.api_key);
    expect(foreign.status).toBe(404);
    const narrow = await createKeyCli(h.dataDir, ['sub_sim_support']);
    const [retail] = await simPull();
    const out = await h.post(`/v1/data/items/${retail!.id}/adopt`, narrow.key);
    expect(out.status).toBe(403);
    expect(out.body.errorCode).toBe('SUBSCRIPTION_NOT_IN_SCOPE');
    const missing = await h.post('/v1/data/items/00000000-0000-4000-8000-000000000000/dispute', h.demo.api_key);
    expect(missing.status).toBe(404);
  });

  it('refuses a live subscription on the simulated pull', async () => {
    const response = await h.get('/v1/data/pull?subscription_id=sub_live_streets', h.demo.api_key);
    expect(response.status).toBe(400);
  });
});

describe('deliveries and usage', () => {
  it('lists the organization’s deliveries newest first with their items and statuses', async () => {
    const deliveries = deliveriesResponseSchema.parse((await h.get('/v1/data/deliveries?limit=200', h.demo.api_key)).body).data;
    expect(deliveries.length).toBe(18);
    const times = deliveries.map((d) => d.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(deliveries.every((d) => d.subscription_id !== 'sub_acme_retail')).toBe(true);
    const oldest = deliveries[deliveries.length - 1]!;
    const items = deliveryItemsResponseSchema.parse((await h.get(`/v1/data/deliveries/${oldest.delivery_id}/items`, h.demo.api_key)).body).data;
    expect(items).toHaveLength(oldest.item_count);
    expect(items.some((i) => i.status === 'adopted')).toBe(true);
    const counts = oldest.status_counts!;
    expect(counts.pending + counts.adopted + counts.disputed).toBe(oldest.item_count);
  });

  it('404s another organization’s delivery', async () => {
    const acme = h.service.db.prepare(`SELECT delivery_id FROM deliveries WHERE subscription_id = 'sub_acme_retail' LIMIT 1`).get() as {
      delivery_id: string;
    };
    const response = await h.get(`/v1/data/deliveries/${acme.delivery_id}/items`, h.demo.api_key);
    expect(response.status).toBe(404);
    expect(response.body.errorCode).toBe('NOT_FOUND');
  });

  it('returns the organization’s receipts newest first, whatever subscription the key covers', async () => {
    const narrow = await createKeyCli(h.dataDir, ['sub_sim_support']);
    const usage = usageResponseSchema.parse((await h.get('/v1/live/usage?limit=200', narrow.key)).body).data;
    const subs = new Set(usage.map((r) => r.subscription_id));
    expect(subs.size).toBeGreaterThan(1);
    const times = usage.map((r) => r.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(usageResponseSchema.parse((await h.get('/v1/live/usage', narrow.key)).body).data.length).toBeLessThanOrEqual(50);
    expect(usageResponseSchema.parse((await h.get('/v1/live/usage?limit=3', narrow.key)).body).data).toHaveLength(3);
  });
});
