import 'fake-indexeddb/auto';
import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LiveSubmission } from '../../api/contract';
import { ConsoleDb, listItems, saveDelivered, setDatabaseForTests, summaryOfLive } from '../../domain/store';
import { prefetchContent, useItemContent } from './content-cache';
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

describe('content read ahead from the local store', () => {
  it('keeps the other records of the page it read, so the next items show without a read', async () => {
    await saveDelivered(
      db,
      'S',
      'sub',
      'incremental',
      [1, 2, 3].map((i) => ({ summary: summaryOfLive(live(i)), record: live(i) })),
    );
    await saveDelivered(
      db,
      'S',
      'sub',
      'incremental',
      [4].map((i) => ({ summary: summaryOfLive(live(i)), record: live(i) })),
    );
    const [first, second, , fourth] = (await listItems(db, 'S', 'sub', 0, 10)).map(fromStored);
    // (Rendering an item whose content is not in memory reads it: nothing is rendered before the one read.)
    await prefetchContent([first]);
    expect(renderHook(() => useItemContent(second!)).result.current).toEqual({ status: 'ready', content: { text: 'item 2' } });
    // Another page's record is not read along.
    expect(renderHook(() => useItemContent(fourth!)).result.current).toEqual({ status: 'loading' });
  });
});
