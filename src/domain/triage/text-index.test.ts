import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LiveSubmission } from '../../api/contract';
import { ConsoleDb, createChangeFeed, deleteSubscriptionItems, saveDelivered, summaryOfLive } from '../store';
import { recordText, textIndexOf } from './text-index';

const live = (id: number, text: string): LiveSubmission => ({
  submission_id: String(id),
  task_id: '1002',
  frontier_id: '101',
  data: { text, nested: { tags: ['Alpha', 7] } },
  quality_score: 0.5,
  quality_grade: 'B',
  source: 'web',
  created_at: '2026-11-01T10:00:00',
  consumer_feedback: null,
});
const delivered = (s: LiveSubmission) => ({ summary: summaryOfLive(s), record: s });

let db: ConsoleDb;
let name = 0;
beforeEach(() => {
  // A fresh store (its own feed, so its indexes are its own too).
  db = new ConsoleDb(`text-${++name}`, createChangeFeed(null));
});
afterEach(async () => {
  await db.delete();
});

describe('recordText', () => {
  it('keeps string and number leaves, lower-cased, capped', () => {
    expect(recordText({ a: 'Hello', b: [1, { c: 'World' }], d: null, e: true })).toBe('hello\n1\nworld\n');
    expect(recordText({ a: 'x'.repeat(5000) }, 100)).toHaveLength(100);
  });
});

describe('textIndexOf', () => {
  it('indexes the stored pages, then reads only pages added since', async () => {
    await saveDelivered(db, 'S', 'sub', 'incremental', [delivered(live(1, 'Red bicycle')), delivered(live(2, 'blue car'))]);
    await saveDelivered(db, 'S', 'other', 'incremental', [delivered(live(9, 'red elsewhere'))]);
    const first = await textIndexOf(db, 'S', 'sub');
    expect([...first.index.keys()].sort()).toEqual(['1', '2']);
    expect(first.index.get('1')).toContain('red bicycle');
    expect(first.index.get('1')).toContain('alpha');

    // A page written since is read; the pages already read are not read again.
    await saveDelivered(db, 'S', 'sub', 'incremental', [delivered(live(3, 'green red'))]);
    const pagesRead: number[] = [];
    db.pages.hook('reading', (page) => (pagesRead.push(page.id!), page));
    const second = await textIndexOf(db, 'S', 'sub');
    expect(second.size).toBe(3);
    expect(second.index.get('3')).toContain('green red');
    expect(pagesRead).toHaveLength(1);
  });

  it('forgets a subscription whose items were deleted', async () => {
    await saveDelivered(db, 'S', 'sub', 'incremental', [delivered(live(1, 'red'))]);
    expect((await textIndexOf(db, 'S', 'sub')).size).toBe(1);
    await deleteSubscriptionItems(db, 'S', 'sub');
    expect((await textIndexOf(db, 'S', 'sub')).size).toBe(0);
  });
});
