import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConsoleDb, countItems, listItems, saveDelivered, summaryOfLive } from '../store';
import { OutboxEngine } from './engine';
import type { UnwrittenJournal } from './engine-types';
import type { OutboxEntry } from './model';
import { indexedDbStore, type DecisionStore } from './store';
import type { TabRegistry } from './tabs';

const entry = (id: string, over: Partial<OutboxEntry> = {}): OutboxEntry => ({
  id,
  scope: 'S',
  connectionId: 'c1',
  kind: 'live',
  itemId: id,
  subscriptionId: 'sub',
  decision: 'adopt',
  priceMicros: null,
  createdAt: Number(id.replace(/\D/g, '')) || 0,
  sendAfter: 0,
  state: 'grace',
  attempts: 0,
  nextAttemptAt: 0,
  owner: 'A',
  ...over,
});

let db: ConsoleDb;

/** Live submissions of subscription `sub` delivered to scope S, all undecided (open). */
async function deliverLive(ids: readonly string[]) {
  const live = (id: string) => ({
    submission_id: id,
    task_id: '1',
    frontier_id: '1',
    data: {},
    quality_score: 1,
    quality_grade: 'A',
    source: 'web',
    created_at: '2026-11-01T00:00:00',
    consumer_feedback: null,
  });
  await saveDelivered(
    db,
    'S',
    'sub',
    'incremental',
    ids.map((id) => ({ summary: summaryOfLive(live(id)), record: live(id) })),
  );
}
/** Each stored item's undecided flag, by item ID. */
const openFlags = async () => Object.fromEntries((await db.items.toArray()).map((row) => [row.itemId, row.open]));
let n = 0;
beforeEach(() => {
  db = new ConsoleDb(`outbox-test-${++n}`);
});
afterEach(async () => {
  await db.delete();
});

describe('decision store (IndexedDB)', () => {
  it('writes, reads by scope oldest first, deletes, and skips damaged rows', async () => {
    const store = indexedDbStore(db);
    await store.write([entry('e2'), entry('e1'), entry('x3', { scope: 'T' })], []);
    await db.decisions.put({ id: 'broken', scope: 'S', itemId: 'b', state: 'grace', createdAt: 0 });
    expect((await store.read('S')).map((e) => e.id)).toEqual(['e1', 'e2']);
    await store.write([entry('e1', { state: 'sent' })], ['e2']);
    expect((await store.read('S')).map((e) => [e.id, e.state])).toEqual([['e1', 'sent']]);
  });

  it('lets exactly one of two tabs claim a gone tab’s unfinished decisions', async () => {
    const store = indexedDbStore(db);
    await store.write([entry('e1'), entry('e2', { state: 'sent' }), entry('e3', { owner: 'B' })], []);
    const [first, second] = await Promise.all([
      store.claim('S', 'A', (e) => ({ ...e, owner: 'C', state: 'queued' })),
      indexedDbStore(db).claim('S', 'A', (e) => ({ ...e, owner: 'D', state: 'queued' })),
    ]);
    expect([...first!, ...second!].map((e) => e.id)).toEqual(['e1']);
    expect((await store.read('S')).map((e) => [e.id, e.owner])).toEqual([
      ['e1', first!.length ? 'C' : 'D'],
      ['e2', 'A'],
      ['e3', 'B'],
    ]);
  });

  it('settles rows whichever tab owns them, each once when two tabs settle at the same time, and only in its scope', async () => {
    const store = indexedDbStore(db);
    await store.write(
      [entry('e1', { state: 'held-team', owner: 'A' }), entry('e2', { state: 'held-team', owner: 'B' }), entry('x3', { scope: 'T', state: 'held-team' })],
      [],
    );
    const drop = (e: OutboxEntry): OutboxEntry => (e.state === 'held-team' ? { ...e, state: 'dropped-team', droppedBy: 'admin@team' } : e);
    const [first, second] = await Promise.all([store.settle('S', drop), indexedDbStore(db).settle('S', drop)]);
    expect([...first, ...second].map((e) => e.id).sort()).toEqual(['e1', 'e2']);
    expect((await store.read('S')).map((e) => [e.id, e.state, e.owner, e.droppedBy])).toEqual([
      ['e1', 'dropped-team', 'A', 'admin@team'],
      ['e2', 'dropped-team', 'B', 'admin@team'],
    ]);
    expect((await store.read('T')).map((e) => e.state)).toEqual(['held-team']);
  });

  it('keeps the items’ undecided flag in step, and moves a scope', async () => {
    const store = indexedDbStore(db);
    await deliverLive(['7']);
    await store.markOpen('S', 'sub', ['7'], 0);
    expect((await listItems(db, 'S', 'sub', 0, 1))[0]!.open).toBe(0);
    await store.markOpen('S', 'sub', ['7'], 1);
    expect((await listItems(db, 'S', 'sub', 0, 1))[0]!.open).toBe(1);
  });

  it('closes an item for another page’s decision only if its row still stands (or is as read) when the flag is written', async () => {
    const ids = ['1', '2', '3', '4', '5'];
    await deliverLive(ids);
    const store = indexedDbStore(db);
    // As a load read them: all five standing.
    const read = ids.map((id) => entry(`e${id}`, { itemId: id, state: id === '4' ? 'failed' : 'queued' }));
    await store.write(read, []);
    // Before the flags are written, their tab confirms 1, undoes 2 (its row deleted), discards 3,
    // and 5's row moves to another scope's key space (a row under another scope is not this one's).
    await store.write(
      [
        { ...read[0]!, state: 'sent' },
        { ...read[2]!, state: 'discarded', discardedAt: 1 },
        { ...read[4]!, scope: 'T' },
      ],
      ['e2'],
    );
    await store.closeWhereStanding('S', read);
    expect(await openFlags()).toEqual({ 1: 0, 2: 1, 3: 1, 4: 0, 5: 1 });
    expect(await countItems(db, 'S', 'sub')).toEqual({ total: 5, open: 3 });
  });

  it('reopens an item “unless decided” only if no decision row of its subscription stands on it when the flag is written', async () => {
    const ids = ['1', '2', '3', '4'];
    await deliverLive(ids);
    const store = indexedDbStore(db);
    await store.markOpen('S', 'sub', ids, 0);
    // 1: another tab's decision stands on it. 2: only a discarded one. 3: one of another subscription. 4: none.
    await store.write(
      [
        entry('o1', { itemId: '1', state: 'queued', owner: 'B' }),
        entry('o2', { itemId: '2', state: 'discarded', discardedAt: 1 }),
        entry('o3', { itemId: '3', state: 'queued', subscriptionId: 'other' }),
      ],
      [],
    );
    await store.markOpen('S', 'sub', ids, 'unless-decided');
    expect(await openFlags()).toEqual({ 1: 0, 2: 1, 3: 1, 4: 1 });
    expect(await countItems(db, 'S', 'sub')).toEqual({ total: 4, open: 3 });
  });

  it('keeps error texts redacted, even rows an earlier version wrote, and removes a scope’s on request', async () => {
    const store = indexedDbStore(db);
    const key = `dds_live_sk_${'Q'.repeat(32)}`;
    await store.write([entry('e1', { state: 'failed', lastError: `refused ${key}` }), entry('x2', { scope: 'T', lastError: 'kept' })], []);
    expect((await db.decisions.get('e1'))?.lastError).toBe('refused [redacted key]');
    await db.decisions.put({ ...entry('e3'), lastError: `old ${key}` });
    expect((await store.read('S')).map((e) => e.lastError)).toEqual(['refused [redacted key]', 'old [redacted key]']);
    await store.clearErrors('S');
    expect((await db.decisions.where('scope').equals('S').toArray()).map((row) => 'lastError' in row)).toEqual([false, false]);
    expect((await store.read('S')).map((e) => e.state)).toEqual(['failed', 'grace']);
    expect((await db.decisions.get('x2'))?.lastError).toBe('kept');
  });

  it('closes, at a load, the items whose decisions stand but whose flag a page that went never wrote (stored or journaled); a second load changes nothing', async () => {
    // Five items delivered, all still flagged undecided: the page that decided four went before its flags' write.
    await deliverLive(['1', '2', '3', '4', '5']);
    const now = Date.now();
    const decided = (id: string, over: Partial<OutboxEntry>) => entry(`e${id}`, { itemId: id, createdAt: now, ...over });
    // Stored by the page before: confirmed (1), waiting to send (2), and one it discarded before that was written (3).
    await indexedDbStore(db).write([decided('1', { state: 'sent' }), decided('2', { state: 'queued' }), decided('3', { state: 'queued' })], []);
    // The journal of that page: the discard of 3, and 4, a decision it never wrote at all.
    const kept: OutboxEntry[] = [decided('3', { state: 'discarded', discardedAt: now }), decided('4', { state: 'grace' })];
    const journal: UnwrittenJournal = {
      save: (entries) => void kept.push(...entries),
      read: (scope) => kept.filter((e) => e.scope === scope),
      drop: (_scope, ids) => void kept.splice(0, kept.length, ...kept.filter((e) => ids !== null && !ids.has(e.id))),
    };
    const flagsAsked: Promise<void>[] = [];
    const closing: string[] = [];
    const page = (id: string, before: string) => {
      const store = indexedDbStore(db);
      const watched: DecisionStore = {
        ...store,
        markOpen: (scope, subscriptionId, itemIds, open) => {
          if (open === 0) closing.push(...itemIds);
          const written = store.markOpen(scope, subscriptionId, itemIds, open);
          flagsAsked.push(written);
          return written;
        },
        closeWhereStanding: (scope, entries) => {
          closing.push(...entries.map((e) => e.itemId));
          const written = store.closeWhereStanding(scope, entries);
          flagsAsked.push(written);
          return written;
        },
      };
      const tabs: TabRegistry = {
        id,
        pageBefore: before,
        whenGone: (_owner, onGone) => queueMicrotask(onGone),
        isOpen: async () => false,
        announce: () => undefined,
        onAnnounce: () => undefined,
      };
      // Offline: nothing is sent, only read, taken over and flagged.
      return new OutboxEngine({ store: watched, send: vi.fn(), onKeyRefused: vi.fn(), isOnline: () => false, graceMs: () => 3_000, tabs, journal });
    };
    const loaded = async (engine: OutboxEngine) => {
      await engine.load('S');
      await vi.waitFor(() => expect(engine.getSnapshot().loaded.S).toBe(true));
      await Promise.all(flagsAsked.splice(0));
    };
    expect(await countItems(db, 'S', 'sub')).toEqual({ total: 5, open: 5 });

    await loaded(page('B', 'A'));
    // Decided: closed. Discarded (the journal's word) and undecided: open.
    expect(await openFlags()).toEqual({ 1: 0, 2: 0, 3: 1, 4: 0, 5: 1 });
    expect(await countItems(db, 'S', 'sub')).toEqual({ total: 5, open: 2 });
    expect((await listItems(db, 'S', 'sub', 0, 5)).map((row) => row.itemId)).toEqual(['3', '5', '1', '2', '4']);

    // The next page finds the same decisions standing: flags and counts are as they were.
    const before = await db.items.toArray();
    closing.length = 0;
    await loaded(page('C', 'B'));
    expect(new Set(closing)).toEqual(new Set(['1', '2', '4']));
    expect(await db.items.toArray()).toEqual(before);
    expect(await countItems(db, 'S', 'sub')).toEqual({ total: 5, open: 2 });
  });
});
