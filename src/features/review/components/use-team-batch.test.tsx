import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Connection, ConnectionSubscription } from '../../../data';
import { testQueryClient } from '../../../test/query-client';
import type { TeamBatch } from '../team-batch';
import type { ReviewSearch } from '../search';
import { useTeamBatch } from './use-team-batch';

/**
 * The batch hook against a hub whose answers the test releases one by one, in the order a loaded
 * machine may deliver them; the store's setting is a variable.
 */
const hub = vi.hoisted(() => {
  type Call = { kind: 'take' | 'renew' | 'release'; arg: unknown; resolve: (value: unknown) => void };
  const calls: Call[] = [];
  const call = (kind: Call['kind'], arg: unknown) => new Promise((resolve) => calls.push({ kind, arg, resolve }));
  return { calls, call, stored: null as unknown, written: [] as unknown[] };
});

vi.mock('../../../data', async (original) => ({
  ...(await original<typeof import('../../../data')>()),
  useLocalScope: () => ({ scope: 'http://dds org_1' }),
  decideRefusal: () => null,
}));
vi.mock('../../../domain/store', async (original) => ({
  ...(await original<typeof import('../../../domain/store')>()),
  localDb: () => ({}),
  readSetting: async () => hub.stored,
  writeSetting: async (_scope: string, _name: string, value: unknown) => void hub.written.push(value),
  saveDelivered: async () => undefined,
}));
vi.mock('../team-batch', async (original) => ({
  ...(await original<typeof import('../team-batch')>()),
  deliveredOf: () => [],
  queueApi: {
    take: (_sub: string, _size: number | undefined, filters: unknown) => hub.call('take', filters),
    renew: (batchId: string) => hub.call('renew', batchId),
    release: (batchId: string) => hub.call('release', batchId),
  },
}));

const connection = { id: 'c1', hub: { member: { role: 'reviewer' } } } as unknown as Connection;
const subscription = { id: 'sub', kind: 'simulated' } as ConnectionSubscription;

const old: TeamBatch = {
  batchId: 'old',
  subscriptionId: 'sub',
  itemIds: ['i1', 'i2'],
  filters: '{}',
  takenAt: '2026-11-27T10:00:00Z',
  expiresAt: '2026-11-27T10:10:00Z',
  idleSeconds: 600,
  lost: [],
  renewedAt: null,
};

const pending = (kind: string, arg?: unknown) => hub.calls.find((c) => c.kind === kind && (arg === undefined || c.arg === arg));
const answer = (kind: string, arg: unknown, value: unknown) => {
  const call = pending(kind, arg)!;
  hub.calls.splice(hub.calls.indexOf(call), 1);
  call.resolve(value);
};
const ticks = async () => {
  for (let i = 0; i < 50; i++) await Promise.resolve();
};

describe('the team batch, swapped for other filters', () => {
  it('a renewal of the batch let go, answered after the next batch came, never brings the old one back', async () => {
    hub.stored = old;
    const { wrapper } = testQueryClient();
    const { result, rerender } = renderHook((search: ReviewSearch) => useTeamBatch(connection, subscription, search), {
      wrapper,
      initialProps: {} as ReviewSearch,
    });
    // The stored batch, taken under these filters, is kept and renewed at once.
    await waitFor(() => expect(pending('renew', 'old')).toBeDefined());
    expect(result.current.batch?.batchId).toBe('old');
    // The reviewer narrows the review while that renewal is on its way: the batch is let go.
    rerender({ quality_max: 0.5 } as unknown as ReviewSearch);
    await waitFor(() => expect(pending('release', 'old')).toBeDefined());

    // One burst of answers before React renders again: the release, the next batch, then the old renewal.
    await act(async () => {
      answer('release', 'old', { batch_id: 'old', released: 2 });
      await vi.waitFor(() => expect(pending('take')?.arg).toEqual({ quality_max: 0.5 }));
      answer('take', undefined, {
        id: 'new',
        subscription_id: 'sub',
        items: [{ family: 'simulated', item_id: 'i1', seq: 1, payload: {}, price_micros: 0 }],
        taken_at: '2026-11-27T10:01:00Z',
        expires_at: '2026-11-27T10:11:00Z',
        idle_seconds: 600,
      });
      await vi.waitFor(() => expect(hub.written.at(-1)).toMatchObject({ batchId: 'new' }));
      answer('renew', 'old', { batch_id: 'old', expires_at: null, held: [], lost: [] });
      await ticks();
    });

    expect(result.current.batch?.batchId).toBe('new');
    expect([...(result.current.ids ?? [])]).toEqual(['i1']);
    expect(hub.written.at(-1)).toMatchObject({ batchId: 'new' });
    // The new batch is the one renewed from here on.
    await waitFor(() => expect(pending('renew', 'new')).toBeDefined());
  });
});
