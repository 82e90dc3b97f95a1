import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StoredItem } from '../../../domain/store';
import { useStoredItems } from './use-stored-items';

/** The store's reads as the test answers them: each read waits until the test resolves it. */
const reads = vi.hoisted(() => ({ pending: [] as Array<(rows: StoredItem[]) => void> }));
vi.mock('../../../domain/store', async (original) => ({
  ...(await original<typeof import('../../../domain/store')>()),
  localDb: () => ({}),
  listGroupAfter: () => new Promise<StoredItem[]>((resolve) => reads.pending.push(resolve)),
  itemsAfter: () => Promise.resolve([]),
}));
const { localChanges } = await import('../../../domain/store');

const row = (n: number, open: 0 | 1 = 1): StoredItem =>
  ({ scope: 'S', subscriptionId: 'sub', itemId: `i${n}`, kind: 'simulated', seq: n, receivedAt: n, via: 'pending', open, serverDecision: null }) as StoredItem;

/** Answers the oldest read waiting. */
async function answer(rows: StoredItem[]) {
  await waitFor(() => expect(reads.pending.length).toBeGreaterThan(0));
  await act(async () => reads.pending.shift()!(rows));
}

afterEach(() => {
  reads.pending = [];
});

describe('useStoredItems', () => {
  it('keeps the rows a write in this tab appended while a full read was on its way (a take during the first read)', async () => {
    const { result } = renderHook(() => useStoredItems('S', 'sub'));
    await waitFor(() => expect(reads.pending.length).toBe(1));
    // A take saves its batch and says so while the first read (begun before the write) is still out.
    act(() => localChanges().publish({ scope: 'S', table: 'items', ids: ['sub'], appended: true, rows: [row(5), row(6)] }));
    expect(result.current.items.map((i) => i.id)).toEqual(['i5', 'i6']);
    // The read answers what it saw before the write: nothing undecided, one decided item.
    await answer([]);
    expect(result.current.items.map((i) => i.id)).toEqual(['i5', 'i6']);
    await answer([row(1, 0)]);
    await waitFor(() => expect(result.current.complete).toBe(true));
    expect(result.current.items.map((i) => i.id)).toEqual(['i1', 'i5', 'i6']);
  });

  it('lists a row once when the read saw it too', async () => {
    const { result } = renderHook(() => useStoredItems('S', 'sub'));
    await waitFor(() => expect(reads.pending.length).toBe(1));
    act(() => localChanges().publish({ scope: 'S', table: 'items', ids: ['sub'], appended: true, rows: [row(5)] }));
    await answer([row(2), row(5)]);
    await answer([]);
    await waitFor(() => expect(result.current.complete).toBe(true));
    expect(result.current.items.map((i) => i.id)).toEqual(['i2', 'i5']);
  });
});
