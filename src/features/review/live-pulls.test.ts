import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LivePullParams, LivePullPage, LiveSubmission } from '../../api/contract';
import { ApiError, NetworkError } from '../../api/errors';
import { renderHook } from '@testing-library/react';
import { ConsoleDb, countItems, listItems, setDatabaseForTests, unrecoveredLosses, type StoredItem } from '../../domain/store';
import { useItemContent } from './content-cache';
import { AnswerLostError, NotStoredError, pullAllNew, pullNew, recover, type LivePullDeps } from './live-pulls';
import { fromStored } from './model';

const submission = (id: number, feedback: LiveSubmission['consumer_feedback'] = null): LiveSubmission => ({
  submission_id: String(id),
  task_id: '1',
  frontier_id: '1',
  data: { n: id },
  quality_score: 1,
  quality_grade: 'A',
  source: 's',
  created_at: '2026-01-01T00:00:00',
  consumer_feedback: feedback,
});

/**
 * A fake service with an incremental position: a pull moves it whether or not its answer
 * arrives (`lose` drops the answer after moving), and a re-read pages from the beginning.
 */
function fakeService(total: number, feedback: Record<number, 'adopt' | 'dispute'> = {}) {
  const all = Array.from({ length: total }, (_, i) => submission(i + 1, feedback[i + 1] ?? null));
  const state = { position: 0, lose: 0, calls: 0 };
  const pullLive = async (params: LivePullParams): Promise<LivePullPage> => {
    state.calls++;
    const limit = params.limit ?? 50;
    if (params.from === 'beginning') {
      const start = Number(params.cursor ?? 0);
      const items = all.slice(start, start + limit);
      const next = start + items.length;
      return { items, count: items.length, hasMore: next < all.length, nextCursor: next < all.length ? String(next) : null, receipt: null };
    }
    const items = all.slice(state.position, state.position + limit);
    state.position += items.length;
    if (state.lose > 0) {
      state.lose--;
      throw new NetworkError('connection reset', false);
    }
    return { items, count: items.length, hasMore: state.position < all.length, nextCursor: null, receipt: null };
  };
  return { state, client: { pullLive } as LivePullDeps['client'] };
}

let db: ConsoleDb;
let n = 0;
beforeEach(() => {
  db = new ConsoleDb(`pulls-${++n}`);
  // The review reads content through the app's database: here, the test's own (whose memory starts empty).
  setDatabaseForTests(db);
});
afterEach(async () => {
  setDatabaseForTests(null);
  await db.delete();
});

describe('incremental pulls and Recover', () => {
  it('stores each page before returning it, and a lost answer is reported, recorded and never retried', async () => {
    const service = fakeService(100);
    const deps = { db, scope: 'S', client: service.client, subscriptionId: 'sub' };
    expect((await pullNew(deps, 20)).added).toBe(20);
    service.state.lose = 1;
    await expect(pullNew(deps, 20)).rejects.toBeInstanceOf(AnswerLostError);
    expect(service.state.calls).toBe(2);
    expect(await countItems(db, 'S', 'sub')).toEqual({ total: 20, open: 20 });
    expect(await unrecoveredLosses(db, 'S', 'sub')).toHaveLength(1);
    expect((await pullNew(deps, 20)).page.items[0]!.submission_id).toBe('41');

    const progress: number[] = [];
    const result = await recover(deps, (p) => progress.push(p.read));
    expect(result).toMatchObject({ read: 100, added: 60, done: true });
    expect(progress).toEqual([100]);
    const ids = (await listItems(db, 'S', 'sub', 0, 200)).map((i) => Number(i.itemId)).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(await unrecoveredLosses(db, 'S', 'sub')).toHaveLength(0);
  });

  it('has a new page’s content in memory when its write tells the list, so its items show without a read', async () => {
    const service = fakeService(5);
    const told: StoredItem[][] = [];
    const stop = db.changes.subscribe((change) => change.rows && told.push([...change.rows]));
    try {
      await pullNew({ db, scope: 'S', client: service.client, subscriptionId: 'sub' }, 5);
    } finally {
      stop();
    }
    expect(told.flat().map((row) => row.itemId)).toEqual(['1', '2', '3', '4', '5']);
    // Shown from memory at once: content not in memory would render as loading (and be read).
    for (const row of told.flat())
      expect(renderHook(() => useItemContent(fromStored(row))).result.current).toEqual({ status: 'ready', content: { n: Number(row.itemId) } });
  });

  it('Recover skips items with a recorded decision and items already held, none twice', async () => {
    const service = fakeService(450, { 5: 'adopt', 300: 'dispute' });
    const deps = { db, scope: 'S', client: service.client, subscriptionId: 'sub' };
    await pullNew(deps, 10);
    const result = await recover(deps, () => undefined);
    expect(result).toMatchObject({ pages: 3, read: 450, added: 450 - 10 - 1 });
    expect((await countItems(db, 'S', 'sub')).total).toBe(449);
    expect((await recover(deps, () => undefined)).added).toBe(0);
  });

  it('Pull all new pulls until nothing is left, and Cancel stops after the page in flight', async () => {
    const service = fakeService(95);
    const deps = { db, scope: 'S', client: service.client, subscriptionId: 'sub' };
    let pages = 0;
    const stopped = await pullAllNew(
      deps,
      20,
      () => pages++,
      () => pages >= 2,
    );
    expect(stopped).toMatchObject({ pages: 2, read: 40, done: false });
    const all = await pullAllNew(
      deps,
      20,
      () => undefined,
      () => false,
    );
    expect(all).toMatchObject({ pages: 3, read: 55, done: true });
    expect((await countItems(db, 'S', 'sub')).total).toBe(95);
  });

  it('a 4xx is not a lost answer; a page that cannot be written comes back for saving as a file', async () => {
    const refusing = { pullLive: async () => Promise.reject(new ApiError(403, 'SUBSCRIPTION_NOT_IN_SCOPE', 'no', '')) };
    await expect(pullNew({ db, scope: 'S', client: refusing, subscriptionId: 'sub' }, 5)).rejects.toBeInstanceOf(ApiError);
    expect(await unrecoveredLosses(db, 'S', 'sub')).toHaveLength(0);

    const service = fakeService(5);
    db.close();
    const error = await pullNew({ db, scope: 'S', client: service.client, subscriptionId: 'sub' }, 5).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotStoredError);
    expect((error as NotStoredError).page.items).toHaveLength(5);
  });
});
