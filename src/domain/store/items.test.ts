import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveSubmission, SimulatedItem } from '../../api/contract';
import { createChangeFeed, type LocalChangeHere } from './change-feed';
import { ConsoleDb } from './db';
import {
  countItems,
  countScope,
  deleteScope,
  deleteSubscriptionItems,
  heldIds,
  listItems,
  readPayloads,
  saveDelivered,
  setOpen,
  subscribeItemsInFlight,
  type ItemsInFlight,
} from './items';
import { summaryOfLive, summaryOfSimulated } from './summary';

const live = (id: number, feedback: LiveSubmission['consumer_feedback'] = null): LiveSubmission => ({
  submission_id: String(id),
  task_id: '1002',
  frontier_id: '101',
  data: { text: `item ${id}` },
  quality_score: 0.5,
  quality_grade: 'B',
  source: 'web',
  created_at: '2026-11-01T10:00:00',
  consumer_feedback: feedback,
});
const delivered = (s: LiveSubmission) => ({ summary: summaryOfLive(s), record: s });

let db: ConsoleDb;
let name = 0;
beforeEach(() => {
  // A fresh store, its feed on a channel as the app's is.
  db = new ConsoleDb(`test-${++name}`, createChangeFeed('items-test'));
});
afterEach(async () => {
  db.changes.close();
  await db.delete();
});

describe('local item store', () => {
  it('writes a page once, keeps first arrival and content, and reports what was new', async () => {
    const first = await saveDelivered(
      db,
      'S',
      'sub',
      'incremental',
      [1, 2, 3].map((i) => delivered(live(i))),
      1_000,
    );
    expect(first).toEqual({ added: 3, known: 0 });
    const again = await saveDelivered(
      db,
      'S',
      'sub',
      'reread',
      [2, 3, 4].map((i) => delivered({ ...live(i), data: { text: 'changed' } })),
      2_000,
    );
    expect(again).toEqual({ added: 1, known: 2 });
    const items = await listItems(db, 'S', 'sub', 0, 10);
    expect(items.map((i) => [i.itemId, i.via, i.receivedAt])).toEqual([
      ['1', 'incremental', 1_000],
      ['2', 'incremental', 1_000],
      ['3', 'incremental', 1_000],
      ['4', 'reread', 2_000],
    ]);
    const payloads = await readPayloads(db, 'S', 'sub', ['2', '4']);
    expect((payloads.get('2') as LiveSubmission).data).toEqual({ text: 'item 2' });
    expect((payloads.get('4') as LiveSubmission).data).toEqual({ text: 'changed' });
  });

  it('tells this tab which rows a write added once they are on disk, and other tabs only that items changed', async () => {
    await saveDelivered(
      db,
      'S',
      'sub',
      'incremental',
      [1, 2].map((i) => delivered(live(i))),
      1_000,
    );
    const told: { change: LocalChangeHere; held: string[] }[] = [];
    const heard: unknown[] = [];
    const otherTab = new BroadcastChannel('items-test');
    otherTab.onmessage = (event: MessageEvent) => heard.push(event.data);
    // What the store holds when the listener is told: a list shown from the rows shows nothing unwritten.
    const pending: Promise<void>[] = [];
    const stop = db.changes.subscribe((change) =>
      pending.push(
        heldIds(db, 'S', 'sub', change.rows?.map((r) => r.itemId) ?? []).then((held) => {
          told.push({ change, held: [...held] });
        }),
      ),
    );
    try {
      await saveDelivered(
        db,
        'S',
        'sub',
        'reread',
        [2, 3, 4].map((i) => delivered(live(i))),
        2_000,
      );
      await Promise.all(pending);
      expect(told).toHaveLength(1);
      expect(told[0]!.change.rows?.map((r) => [r.itemId, r.via, r.open])).toEqual([
        ['3', 'reread', 1],
        ['4', 'reread', 1],
      ]);
      expect(told[0]!.held.sort()).toEqual(['3', '4']);
      await expect.poll(() => heard.length).toBe(1);
      expect(heard[0]).toEqual({ scope: 'S', table: 'items', ids: ['sub'], appended: true });
    } finally {
      stop();
      otherTab.close();
    }
  });

  it('tells this tab’s lists of a write’s rows as it starts, and what it added once it committed; other tabs hear only the commit', async () => {
    await saveDelivered(db, 'S', 'sub', 'incremental', [delivered(live(1))], 1_000);
    const heard: unknown[] = [];
    const otherTab = new BroadcastChannel('items-test');
    otherTab.onmessage = (event: MessageEvent) => heard.push(event.data);
    const told: ItemsInFlight[] = [];
    const stop = subscribeItemsInFlight(db, (writing) => told.push(writing));
    try {
      const saving = saveDelivered(
        db,
        'S',
        'sub',
        'reread',
        [1, 2].map((i) => delivered(live(i))),
        2_000,
      );
      // Told as the write starts, before it settles: every row of the page, as the write adds it.
      expect(told).toHaveLength(1);
      expect(told[0]).toMatchObject({ scope: 'S', subscriptionId: 'sub' });
      expect(told[0]!.rows.map((r) => [r.itemId, r.via, r.open, r.seq])).toEqual([
        ['1', 'reread', 1, 2_000_000],
        ['2', 'reread', 1, 2_000_001],
      ]);
      // Once committed: the rows it added (the store held item 1 already), and those are on disk.
      const added = await told[0]!.added;
      expect(added.map((r) => r.itemId)).toEqual(['2']);
      expect(await heldIds(db, 'S', 'sub', ['2'])).toEqual(new Set(['2']));
      expect(await saving).toEqual({ added: 1, known: 1 });
      await expect.poll(() => heard).toEqual([{ scope: 'S', table: 'items', ids: ['sub'], appended: true }]);

      // A write that fails settles `added` by rejecting, as the save does.
      const add = IDBObjectStore.prototype.add;
      IDBObjectStore.prototype.add = () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      };
      try {
        const failing = saveDelivered(db, 'S', 'sub', 'reread', [delivered(live(3))], 3_000);
        expect(told).toHaveLength(2);
        await expect(told[1]!.added).rejects.toThrow();
        await expect(failing).rejects.toThrow();
      } finally {
        IDBObjectStore.prototype.add = add;
      }
      expect(await heldIds(db, 'S', 'sub', ['3'])).toEqual(new Set());
    } finally {
      stop();
      otherTab.close();
    }
  });

  it('writes a page the user waits for right after the frame that shows it, or at once when the page is left', async () => {
    // Frames come when the test says: the browser's come after the list rendered the page.
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('visible');
    const told: ItemsInFlight[] = [];
    const stop = subscribeItemsInFlight(db, (writing) => told.push(writing));
    const committed = async (ids: string[]) => (await heldIds(db, 'S', 'sub', ids)).size;
    try {
      const saving = saveDelivered(db, 'S', 'sub', 'pending', [delivered(live(1))], 1_000, { paintFirst: true });
      // Told at once; nothing written until the frame (a read now finds the store as it was).
      expect(told).toHaveLength(1);
      expect(await committed(['1'])).toBe(0);
      // The next frame may come before the list rendered the page: the write waits for the one after.
      expect(frames).toHaveLength(1);
      frames.shift()!(0);
      expect(await committed(['1'])).toBe(0);
      expect(frames).toHaveLength(1);
      frames.shift()!(0);
      expect(await saving).toEqual({ added: 1, known: 0 });
      expect((await told[0]!.added).map((r) => r.itemId)).toEqual(['1']);

      // The page is left before its frame: the write starts then (no frame comes, and the timer
      // that stands in for one is held: only the page's leaving can start it).
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const leaving = saveDelivered(db, 'S', 'sub', 'pending', [delivered(live(2))], 2_000, { paintFirst: true });
      expect(await committed(['2'])).toBe(0);
      window.dispatchEvent(new Event('pagehide'));
      expect(await leaving).toEqual({ added: 1, known: 0 });
      vi.useRealTimers();
      expect(frames).toHaveLength(1);

      // A page written in a run does not wait for frames.
      expect(await saveDelivered(db, 'S', 'sub', 'incremental', [delivered(live(3))], 3_000)).toEqual({ added: 1, known: 0 });
      expect(frames).toHaveLength(1);
    } finally {
      stop();
      vi.useRealTimers();
      vi.unstubAllGlobals();
      vi.restoreAllMocks();
    }
  });

  it('writes flags asked together in one go, the last one asked for an item winning, counts included', async () => {
    await saveDelivered(
      db,
      'S',
      'sub',
      'incremental',
      [1, 2, 3, 4].map((i) => delivered(live(i))),
      1_000,
    );
    // A decision and its undo before either is written, then two decisions: not awaited one by one.
    await Promise.all([
      setOpen(db, 'S', 'sub', ['1'], 0),
      setOpen(db, 'S', 'sub', ['1'], 1),
      setOpen(db, 'S', 'sub', ['2'], 0),
      setOpen(db, 'S', 'sub', ['3', '3'], 0),
    ]);
    expect((await listItems(db, 'S', 'sub', 0, 10)).map((i) => [i.itemId, i.open])).toEqual([
      ['1', 1],
      ['4', 1],
      ['2', 0],
      ['3', 0],
    ]);
    expect(await countItems(db, 'S', 'sub')).toEqual({ total: 4, open: 2 });
    // Asked after those were written: a transaction of its own.
    await setOpen(db, 'S', 'sub', ['2'], 1);
    expect(await countItems(db, 'S', 'sub')).toEqual({ total: 4, open: 3 });
  });

  it('lists undecided items first, each group in delivery order, across pages', async () => {
    await saveDelivered(
      db,
      'S',
      'sub',
      'incremental',
      [1, 2, 3, 4, 5].map((i) => delivered(live(i))),
      1_000,
    );
    await setOpen(db, 'S', 'sub', ['1', '3'], 0);
    expect((await listItems(db, 'S', 'sub', 0, 10)).map((i) => i.itemId)).toEqual(['2', '4', '5', '1', '3']);
    expect((await listItems(db, 'S', 'sub', 2, 2)).map((i) => i.itemId)).toEqual(['5', '1']);
    expect((await listItems(db, 'S', 'sub', 4, 2)).map((i) => i.itemId)).toEqual(['3']);
    expect(await countItems(db, 'S', 'sub')).toEqual({ total: 5, open: 3 });
    await setOpen(db, 'S', 'sub', ['1'], 1);
    expect((await listItems(db, 'S', 'sub', 0, 10)).map((i) => i.itemId)).toEqual(['1', '2', '4', '5', '3']);
  });

  it('takes the decision the service reports, and never reopens it', async () => {
    await saveDelivered(db, 'S', 'sub', 'incremental', [delivered(live(1))], 1_000);
    await saveDelivered(db, 'S', 'sub', 'reread', [delivered(live(1, 'adopt'))], 2_000);
    const [item] = await listItems(db, 'S', 'sub', 0, 1);
    expect(item).toMatchObject({ serverDecision: 'adopt', open: 0 });
    await setOpen(db, 'S', 'sub', ['1'], 1);
    expect((await listItems(db, 'S', 'sub', 0, 1))[0]!.open).toBe(0);
  });

  it('keeps scopes and subscriptions apart, and deletes each alone', async () => {
    await saveDelivered(db, 'S', 'a', 'incremental', [delivered(live(1))]);
    await saveDelivered(db, 'S', 'b', 'incremental', [delivered(live(1))]);
    await saveDelivered(db, 'T', 'a', 'incremental', [delivered(live(1))]);
    expect(await heldIds(db, 'S', 'a', ['1', '2'])).toEqual(new Set(['1']));
    expect(await deleteSubscriptionItems(db, 'S', 'a')).toBe(1);
    expect(await countItems(db, 'S', 'a')).toEqual({ total: 0, open: 0 });
    expect((await readPayloads(db, 'S', 'a', ['1'])).size).toBe(0);
    expect(await countItems(db, 'S', 'b')).toEqual({ total: 1, open: 1 });
    await deleteScope(db, 'S');
    expect(await countItems(db, 'S', 'b')).toEqual({ total: 0, open: 0 });
    expect(await countItems(db, 'T', 'a')).toEqual({ total: 1, open: 1 });
    expect(await db.pages.count()).toBe(1);
    expect(await readPayloads(db, 'T', 'a', ['1'])).toEqual(new Map([['1', live(1)]]));
  });

  it('writes one row of records per page, holding only the items it added', async () => {
    await saveDelivered(
      db,
      'S',
      'sub',
      'incremental',
      [1, 2].map((i) => delivered(live(i))),
    );
    await saveDelivered(
      db,
      'S',
      'sub',
      'reread',
      [1, 2].map((i) => delivered(live(i))),
    );
    expect(await db.pages.count()).toBe(1);
    await saveDelivered(
      db,
      'S',
      'sub',
      'reread',
      [2, 3, 4].map((i) => delivered(live(i))),
    );
    const pages = await db.pages.toArray();
    expect(pages.map((p) => [...p.records.keys()])).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
    // One read brings the other records of the same page along.
    expect([...(await readPayloads(db, 'S', 'sub', ['3'])).keys()]).toEqual(['3', '4']);
  });

  it('keeps each subscription’s counts equal to its items through any writes, decisions and deletes', async () => {
    type Step =
      { op: 'save'; sub: string; ids: number[]; reported: boolean } | { op: 'open'; sub: string; ids: number[]; open: 0 | 1 } | { op: 'delete'; sub: string };
    const sub = fc.constantFrom('a', 'b');
    const ids = fc.array(fc.integer({ min: 1, max: 8 }), { maxLength: 6 });
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ op: fc.constant('save' as const), sub, ids, reported: fc.boolean() }),
      fc.record({ op: fc.constant('open' as const), sub, ids, open: fc.constantFrom(0 as const, 1 as const) }),
      fc.record({ op: fc.constant('delete' as const), sub }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 12 }), async (steps) => {
        const scope = `P${++run}`;
        for (const s of steps) {
          if (s.op === 'save')
            await saveDelivered(
              db,
              scope,
              s.sub,
              'reread',
              s.ids.map((i) => delivered(live(i, s.reported && i % 2 === 0 ? 'adopt' : null))),
            );
          else if (s.op === 'open') await setOpen(db, scope, s.sub, s.ids.map(String), s.open);
          else await deleteSubscriptionItems(db, scope, s.sub);
        }
        for (const s of ['a', 'b']) {
          const rows = await db.items.where('[scope+subscriptionId+itemId]').between([scope, s, Dexie.minKey], [scope, s, Dexie.maxKey]).toArray();
          expect(await countItems(db, scope, s)).toEqual({ total: rows.length, open: rows.filter((r) => r.open === 1).length });
        }
        expect(await countScope(db, scope)).toBe(await db.items.filter((r) => r.scope === scope).count());
      }),
      { numRuns: 200 },
    );
    // Each decided flag is written after the next frame (setOpen): 200 runs of up to 12 steps take seconds.
  }, 60_000);

  it('summarises simulated items with exact prices and their status', () => {
    const item: SimulatedItem & { status: string } = {
      id: 'i1',
      vertical_id: 'v',
      topic_id: 't',
      payload: {},
      quality_score: 0.9,
      quality_method: 'consensus',
      validator_count: 3,
      consensus_ratio: 0.67,
      unit_price_usd: 0.0137,
      created_at: '2026-11-01T00:00:00Z',
      status: 'disputed',
    };
    expect(summaryOfSimulated(item)).toMatchObject({ itemId: 'i1', kind: 'simulated', priceMicros: 13_700, serverDecision: 'dispute', verticalId: 'v' });
  });
});
