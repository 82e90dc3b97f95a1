import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LotValue } from '../../api/contract/hub-lots';
import type { Connection } from '../../data';
import { lotStoreFor } from './lot-store';

/*
 * The team's lot store against a hub that answers like the real one: an update names the revision
 * it read, a stale one is 409 LOT_CHANGED. A colleague's write between the read and the write is
 * kept: the store reads again and applies its change on top.
 */

const ORIGIN = 'https://hub.example';
const value: LotValue = {
  version: 1,
  kind: 'simulated',
  source: { kind: 'delivery', deliveryId: 'd1', description: 'Delivery d1' },
  itemIds: ['i1', 'i2', 'i3', 'i4'],
  plan: { kind: 'zero-acceptance', lotSize: 4, confidencePct: 95, defectRateBp: 500, sampleSize: 2, assumedDefects: 0, binomialSize: 2, formula: 'f' },
  sampleIds: ['i1', 'i2'],
  extensions: [],
  action: null,
};
const action = {
  decision: 'adopt' as const,
  at: 1,
  recorded: 2,
  totalMicros: null,
  outcome: { reviewed: 2, defects: 0, lower: 0, upper: 0.6, recommendation: 'accept' as const },
};

let stored: { revision: number; value: LotValue };
/** Called before each PUT is answered: a colleague's write in between. */
let beforePut: () => void;
let puts = 0;

const lotBody = () => ({
  id: 'lot_1',
  subscription_id: 'sub',
  revision: stored.revision,
  created_at: '2026-11-26T10:00:00.000Z',
  created_by: { id: 'm1', email: 'a@team' },
  updated_at: '2026-11-26T10:00:00.000Z',
  updated_by: { id: 'm1', email: 'a@team' },
  value: stored.value,
});
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  stored = { revision: 1, value };
  beforePut = () => {};
  puts = 0;
  vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    expect(url.pathname).toBe('/hub/v1/lots/lot_1');
    if ((init?.method ?? 'GET') === 'GET') return json(200, { lot: lotBody(), sample_decisions: [] });
    puts++;
    beforePut();
    const body = JSON.parse(String(init!.body)) as { revision: number; value: LotValue };
    if (body.revision !== stored.revision)
      return json(409, { success: false, errorCode: 'LOT_CHANGED', errorMessage: 'the lot changed: read it again and re-apply the change' });
    stored = { revision: stored.revision + 1, value: body.value };
    return json(200, { lot: lotBody(), sample_decisions: [] });
  });
});
afterEach(() => vi.unstubAllGlobals());

const store = () => lotStoreFor({ hub: { member: { id: 'm1' } }, baseUrl: ORIGIN } as unknown as Connection, null, new QueryClient())!;

describe('the team hub’s lot store', () => {
  it('re-reads and re-applies its change when a colleague wrote first: both changes are kept', async () => {
    let once = true;
    beforePut = () => {
      if (!once) return;
      once = false;
      // A colleague extends the sample between this browser's read and its write.
      stored = { revision: 2, value: { ...stored.value, sampleIds: ['i1', 'i2', 'i3'], extensions: [{ at: 1, added: 1 }] } };
    };
    await store().update('lot_1', (current) => ({ ...current, action }));
    expect(puts).toBe(2);
    expect(stored.revision).toBe(3);
    expect(stored.value.sampleIds).toEqual(['i1', 'i2', 'i3']);
    expect(stored.value.action).toEqual(action);
  });

  it('gives up with the hub’s error when the lot keeps changing under it', async () => {
    beforePut = () => {
      stored = { ...stored, revision: stored.revision + 1 };
    };
    await expect(store().update('lot_1', (current) => ({ ...current, action }))).rejects.toMatchObject({ code: 'LOT_CHANGED', status: 409 });
    expect(puts).toBe(5);
    expect(stored.value.action).toBeNull();
  });

  it('reads a lot the team does not have as null', async () => {
    vi.stubGlobal('fetch', async () => json(404, { success: false, errorCode: 'NOT_FOUND', errorMessage: 'no such lot' }));
    expect(await store().read('lot_1')).toBeNull();
  });
});
