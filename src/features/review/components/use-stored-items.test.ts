import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ItemsInFlight, StoredItem } from '../../../domain/store';
import { useStoredItems } from './use-stored-items';

/** The store's reads as the test answers them: each read waits until the test resolves it. */
const reads = vi.hoisted(() => ({
  pending: [] as Array<(rows: StoredItem[]) => void>,
  /** Who listens to this tab's writes as they start (`subscribeItemsInFlight`). */
  inFlight: new Set<(writing: ItemsInFlight) => void>(),
}));
vi.mock('../../../domain/store', async (original) => ({
  ...(await original<typeof import('../../../domain/store')>()),
  localDb: () => ({}),
  subscribeItemsInFlight: (_db: unknown, listener: (writing: ItemsInFlight) => void) => {
    reads.inFlight.add(listener);
    return () => reads.inFlight.delete(listener);
  },
  listGroupAfter: () => new Promise<StoredItem[]>((resolve) => reads.pending.push(resolve)),
  itemsAfter: () => Promise.resolve([]),
}));
const { localChanges } = await import('../../../domain/store');

/** A write of this tab starting, as the store tells it. */
const announce = (writing: ItemsInFlight) => reads.inFlight.forEach((listener) => listener(writing));

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

  it('lists a write of this tab as it starts, counting it kept once it committed; a failed write is read again', async () => {
    const { result } = renderHook(() => useStoredItems('S', 'sub'));
    await answer([row(1)]);
    await answer([]);
    await waitFor(() => expect(result.current.complete).toBe(true));

    // A pull's page: listed at once, from memory, while its write runs.
    let commit!: (rows: StoredItem[]) => void;
    const added = new Promise<StoredItem[]>((resolve) => (commit = resolve));
    act(() => announce({ scope: 'S', subscriptionId: 'sub', rows: [row(1), row(2), row(3)], added }));
    expect(result.current.items.map((i) => i.id)).toEqual(['i1', 'i2', 'i3']);
    expect(result.current.unwritten).toBe(2);
    // Committed with every row it listed: counted as kept, and nothing is read again.
    await act(async () => commit([row(2), row(3)]));
    expect(result.current.unwritten).toBe(0);
    expect(reads.pending).toHaveLength(0);
    // The change told after the commit adds nothing more.
    act(() => localChanges().publish({ scope: 'S', table: 'items', ids: ['sub'], appended: true, rows: [row(2), row(3)] }));
    expect(result.current.items.map((i) => i.id)).toEqual(['i1', 'i2', 'i3']);

    // A write that fails: its rows go once the list has read again what the store holds.
    let fail!: (error: Error) => void;
    const failed = new Promise<StoredItem[]>((_, reject) => (fail = reject));
    act(() => announce({ scope: 'S', subscriptionId: 'sub', rows: [row(4)], added: failed }));
    expect(result.current.items.map((i) => i.id)).toEqual(['i1', 'i2', 'i3', 'i4']);
    expect(result.current.unwritten).toBe(1);
    await act(async () => fail(new Error('QuotaExceededError')));
    expect(result.current.unwritten).toBe(0);
    await answer([row(1), row(2), row(3)]);
    await answer([]);
    await waitFor(() => expect(result.current.items.map((i) => i.id)).toEqual(['i1', 'i2', 'i3']));
  });

  it('reads the list again when the store held an item of the write already (its own row, in its place, is listed)', async () => {
    const { result } = renderHook(() => useStoredItems('S', 'sub'));
    await answer([]);
    await answer([]);
    await waitFor(() => expect(result.current.complete).toBe(true));
    let commit!: (rows: StoredItem[]) => void;
    const added = new Promise<StoredItem[]>((resolve) => (commit = resolve));
    act(() => announce({ scope: 'S', subscriptionId: 'sub', rows: [row(7), row(8)], added }));
    expect(result.current.items.map((i) => i.id)).toEqual(['i7', 'i8']);
    // Item 7 was held (decided) already: the write added only 8.
    await act(async () => commit([row(8)]));
    await answer([row(8)]);
    await answer([row(7, 0)]);
    await waitFor(() => expect(result.current.items.map((i) => i.id)).toEqual(['i8', 'i7']));
    expect(result.current.unwritten).toBe(0);
  });

  it('lists nothing of another subscription’s write', async () => {
    const { result } = renderHook(() => useStoredItems('S', 'sub'));
    await answer([]);
    await answer([]);
    await waitFor(() => expect(result.current.complete).toBe(true));
    act(() => announce({ scope: 'S', subscriptionId: 'other', rows: [row(1)], added: Promise.resolve([row(1)]) }));
    act(() => announce({ scope: 'T', subscriptionId: 'sub', rows: [row(1)], added: Promise.resolve([row(1)]) }));
    expect(result.current.items).toEqual([]);
  });
});
