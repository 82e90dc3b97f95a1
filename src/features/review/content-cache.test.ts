import 'fake-indexeddb/auto';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveSubmission } from '../../api/contract';
import { ConsoleDb, listItems, saveDelivered, setDatabaseForTests, summaryOfLive } from '../../domain/store';
import { prefetchContent, readContentAgain, rememberRecords, useItemContent } from './content-cache';
import { fromStored } from './model';

const live = (id: number): LiveSubmission => ({
  submission_id: String(id),
  task_id: '1002',
  frontier_id: '101',
  data: { text: `item ${id}` },
  quality_score: 0.5,
  quality_grade: 'B',
  source: 'web',
  created_at: '2026-11-01T10:00:00',
  consumer_feedback: null,
});

let db: ConsoleDb;
beforeEach(() => {
  db = new ConsoleDb(`content-cache-${Math.random()}`);
  setDatabaseForTests(db);
});
afterEach(async () => {
  setDatabaseForTests(null);
  await db.delete();
});

/** One delivered page of these live submissions, stored as a pull stores it. */
const savePage = (ids: number[]) =>
  saveDelivered(
    db,
    'S',
    'sub',
    'incremental',
    ids.map((i) => ({ summary: summaryOfLive(live(i)), record: live(i) })),
  );

describe('content read ahead from the local store', () => {
  it('keeps the other records of the page it read, so the next items show without a read', async () => {
    await savePage([1, 2, 3]);
    await savePage([4]);
    const [first, second, , fourth] = (await listItems(db, 'S', 'sub', 0, 10)).map(fromStored);
    // (Rendering an item whose content is not in memory reads it: nothing is rendered before the one read.)
    await prefetchContent([first]);
    expect(renderHook(() => useItemContent(second!)).result.current).toEqual({ status: 'ready', content: { text: 'item 2' } });
    // Another page's record is not read along.
    expect(renderHook(() => useItemContent(fourth!)).result.current).toEqual({ status: 'loading' });
  });

  it('a read that fails says why and reads again on Try again, instead of "reading" for good', async () => {
    await savePage([1]);
    const [first] = (await listItems(db, 'S', 'sub', 0, 10)).map(fromStored);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    db.close({ disableAutoOpen: true });
    const hook = renderHook(() => useItemContent(first!));
    await waitFor(() => expect(hook.result.current).toMatchObject({ status: 'failed', why: expect.stringMatching(/DatabaseClosedError/) }));
    expect(logged).toHaveBeenCalledWith(expect.stringMatching(/^Reading delivered content from this browser’s storage failed: DatabaseClosedError/));
    logged.mockRestore();
    // Nothing reads it again by itself; Try again does.
    await db.open();
    act(() => readContentAgain(first!));
    await waitFor(() => expect(hook.result.current).toEqual({ status: 'ready', content: { text: 'item 1' } }));
  });

  it('content that arrives after a failed read (a pull of the same page) shows, without Try again', async () => {
    await savePage([1]);
    const [first] = (await listItems(db, 'S', 'sub', 0, 10)).map(fromStored);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    db.close({ disableAutoOpen: true });
    const hook = renderHook(() => useItemContent(first!));
    await waitFor(() => expect(hook.result.current).toMatchObject({ status: 'failed' }));
    logged.mockRestore();
    act(() => rememberRecords(db, 'S', 'sub', 'live', [{ id: '1', record: live(1) }]));
    expect(hook.result.current).toEqual({ status: 'ready', content: { text: 'item 1' } });
    await db.open();
  });
});
