import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ORG, openTempStore, type TempStore } from '../tests/temp-store';
import { pullLive, recordLiveFeedback, type LivePullInput } from './live';
import { listReceipts } from './receipts';

const SECRET = 'cursor-secret-for-tests';

let store: TempStore;
beforeEach(() => {
  store = openTempStore();
});
afterEach(() => store.close());

const pull = (subscriptionId: string, extra: Partial<LivePullInput> = {}) =>
  pullLive(store.db, { orgId: ORG, subscription: store.subscription(subscriptionId), limit: 2, cursorSecret: SECRET, ...extra });

const ids = (result: ReturnType<typeof pull>) => {
  if ('invalid' in result) throw new Error(`refused: ${result.invalid}`);
  return result.items.map((item) => item.submission_id);
};

describe('live pull', () => {
  it('reads incrementally past the committed position, metering each non-empty page with a receipt', () => {
    const first = pull('live_all');
    expect(ids(first)).toEqual(['s1', 's2']);
    expect(first).toMatchObject({ has_more: true, next_cursor: '', receipt: { kind: 'pull', quantity: 2, amount_micros: 0 } });
    expect(ids(pull('live_all', { limit: 10 }))).toEqual(['s3', 's4', 's5', 's6']);
    const empty = pull('live_all');
    expect(empty).toMatchObject({ items: [], has_more: false, receipt: null });
    expect(listReceipts(store.db, ORG, 10)).toHaveLength(2);
  });

  it('keeps the subscription’s task scope and the stored data text', () => {
    const page = pull('live_1001', { limit: 10 });
    expect(ids(page)).toEqual(['s1', 's3', 's5']);
    if ('invalid' in page) return;
    expect(page.items[0]).toMatchObject({ task_id: '1001', data: '{"n":1}', consumer_feedback: null });
  });

  it('refuses task_ids or campaign_ids on an incremental pull, moving nothing', () => {
    expect(pull('live_all', { taskIds: ['1001'] })).toEqual({ invalid: 'filters-need-reread' });
    expect(pull('live_all', { campaignIds: ['c1'] })).toEqual({ invalid: 'filters-need-reread' });
    expect(ids(pull('live_all'))).toEqual(['s1', 's2']);
  });

  it('re-reads from the beginning by cursor, and refuses a cursor of other filters or another subscription', () => {
    const first = pull('live_all', { from: 'beginning' });
    if ('invalid' in first) throw new Error('refused');
    expect(first.receipt).toBeNull();
    expect(ids(pull('live_all', { cursor: first.next_cursor }))).toEqual(['s3', 's4']);
    expect(pull('live_all', { cursor: first.next_cursor, taskIds: ['1001'] })).toEqual({ invalid: 'cursor' });
    expect(pull('live_1001', { cursor: first.next_cursor })).toEqual({ invalid: 'cursor' });
    expect(pull('live_all', { cursor: 'not-a-cursor' })).toEqual({ invalid: 'cursor' });
  });
});

describe('live feedback', () => {
  const feedback = (submissionId: string, kind: 'adopt' | 'dispute', subscriptionId = 'live_all') =>
    recordLiveFeedback(store.db, { orgId: ORG, subscription: store.subscription(subscriptionId), submissionId, feedback: kind });

  it('records feedback once; the same again changes nothing; the other is a conflict carrying the recorded one', () => {
    expect(feedback('s1', 'adopt')).toEqual({ changed: true });
    expect(feedback('s1', 'adopt')).toEqual({ changed: false });
    expect(feedback('s1', 'dispute')).toEqual({ conflict: 'adopt' });
    const page = pull('live_all', { from: 'beginning', limit: 1 });
    if ('invalid' in page) throw new Error('refused');
    expect(page.items[0]?.consumer_feedback).toBe('adopt');
  });

  it('is null for a submission that does not exist or lies outside the subscription’s tasks', () => {
    expect(feedback('nope', 'adopt')).toBeNull();
    expect(feedback('s2', 'adopt', 'live_1001')).toBeNull();
    expect(feedback('s1', 'dispute', 'live_1001')).toEqual({ changed: true });
  });
});
