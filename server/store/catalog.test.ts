import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTempStore, type TempStore } from '../tests/temp-store';
import { listFrontiers, listTasks, listVerticals, previewTask } from './catalog';

let store: TempStore;
beforeEach(() => {
  store = openTempStore();
});
afterEach(() => store.close());

describe('catalog store', () => {
  it('lists online frontiers by default and all on request, with task and submission counts', () => {
    expect(listFrontiers(store.db, 'online').map((f) => f.frontier_id)).toEqual(['101']);
    expect(listFrontiers(store.db, 'all')).toEqual([
      { frontier_id: '101', title: 'Streets', status: 'ONLINE', task_count: 2, total_submissions: 6 },
      { frontier_id: '102', title: 'Rivers', status: 'OFFLINE', task_count: 1, total_submissions: 0 },
    ]);
  });

  it('lists a frontier’s tasks, and null for a frontier that does not exist', () => {
    expect(listTasks(store.db, '101')?.map((t) => [t.task_id, t.submission_count])).toEqual([
      ['1001', 3],
      ['1002', 3],
    ]);
    expect(listTasks(store.db, '102')?.map((t) => t.task_id)).toEqual(['2001']);
    expect(listTasks(store.db, '999')).toBeNull();
  });

  it('previews a task’s first submissions with their data decoded, and null for a task of another frontier', () => {
    const preview = previewTask(store.db, '101', '1001', 2);
    expect(preview?.map((s) => [s.submission_id, s.data])).toEqual([
      ['s1', { n: 1 }],
      ['s3', { n: 3 }],
    ]);
    expect(previewTask(store.db, '102', '1001', 2)).toBeNull();
    expect(previewTask(store.db, '101', '9999', 2)).toBeNull();
  });

  it('keeps vertical prices in micro-USD (the route converts)', () => {
    expect(listVerticals(store.db)).toEqual([{ id: 'v1', slug: 'retail', name: 'Retail', description: 'Shops', base_price_micros: 10_000 }]);
  });
});
