import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyCli, startHarness, type Harness } from './harness';

/**
 * The console checks each subscription ID when a connection is saved with one small read per ID:
 * a live re-read from the beginning, a simulated pull. Those reads must move nothing (no position,
 * no receipt, no item's state), and their refusals must tell an unknown ID from one the key does
 * not cover, and both from a key without data access.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const liveProbe = (sub: string) => `/v1/live/pull?subscription_id=${sub}&from=beginning&limit=1`;
const simProbe = (sub: string) => `/v1/data/pull?subscription_id=${sub}&limit=1`;

describe('probing a subscription', () => {
  it('moves nothing: the live position, the receipts and the pending items stay as they were', async () => {
    const state = () => ({
      position: (h.service.db.prepare('SELECT position FROM subscriptions WHERE subscription_id = ?').get('sub_live_streets') as { position: number }).position,
      receipts: (h.service.db.prepare('SELECT COUNT(*) AS n FROM receipts').get() as { n: number }).n,
      pending: (h.service.db.prepare(`SELECT COUNT(*) AS n FROM items WHERE subscription_id = 'sub_sim_retail' AND status = 'pending'`).get() as { n: number })
        .n,
    });
    const before = state();
    for (let i = 0; i < 3; i++) {
      expect((await h.get(liveProbe('sub_live_streets'), h.demo.api_key)).status).toBe(200);
      expect((await h.get(simProbe('sub_sim_retail'), h.demo.api_key)).status).toBe(200);
    }
    expect(state()).toEqual(before);
    // The witness: an incremental pull does move the position and write a receipt.
    expect((await h.get('/v1/live/pull?subscription_id=sub_live_streets&limit=1', h.demo.api_key)).status).toBe(200);
    expect(state()).not.toEqual(before);
  });

  it('names why: unknown (or another organization’s), not covered by this key, no data access', async () => {
    const narrow = await createKeyCli(h.dataDir, ['sub_live_streets']);
    const noData = await createKeyCli(h.dataDir, ['sub_live_streets', 'sub_sim_retail'], ['--no-data-access']);
    const code = async (path: string, key: string) => ((await h.get(path, key)).body as { errorCode?: string }).errorCode;

    expect(await code(liveProbe('sub_does_not_exist'), narrow.key)).toBe('NOT_FOUND');
    expect(await code(simProbe('sub_does_not_exist'), narrow.key)).toBe('NOT_FOUND');
    expect(await code(liveProbe('sub_acme_retail'), narrow.key)).toBe('NOT_FOUND');
    expect(await code(liveProbe('sub_live_support'), narrow.key)).toBe('SUBSCRIPTION_NOT_IN_SCOPE');
    expect(await code(simProbe('sub_sim_retail'), narrow.key)).toBe('SUBSCRIPTION_NOT_IN_SCOPE');
    expect(await code(liveProbe('sub_live_streets'), noData.key)).toBe('NO_DATA_ACCESS');
    expect(await code(simProbe('sub_sim_retail'), noData.key)).toBe('NO_DATA_ACCESS');
    // The wrong family: the subscription exists and is covered, it is read by the other endpoint.
    expect(await code(simProbe('sub_live_streets'), narrow.key)).toBe('INVALID_PARAMETER');
    expect((await h.get(liveProbe('sub_live_streets'), narrow.key)).status).toBe(200);
  });
});
