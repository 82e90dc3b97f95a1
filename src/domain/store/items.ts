import Dexie from 'dexie';
import type { ConsoleDb, DeliveryVia, ItemKey, StoredCount, StoredItem } from './db';
import type { ItemSummary } from './summary';

export interface Delivered {
  summary: ItemSummary;
  /** The record exactly as the service sent it. */
  record: unknown;
}

/**
 * Items a write of this tab is adding, told as the write starts, before it commits: a list may show
 * them from memory at once (a pull's answer → its items painted does not wait for the disk), and
 * learns from `added` what the write did. Readers of the store wait for the change the feed tells
 * once it committed, as before; other tabs hear only that. Kept with the database (not on the
 * feed, which the first page loads): only this tab's lists listen.
 */
export interface ItemsInFlight {
  scope: string;
  subscriptionId: string;
  /** The rows as the write adds them (an item the store holds already keeps its own row: see `added`). */
  rows: readonly StoredItem[];
  /** Settles with the write: the rows it added (those the store did not hold), or rejected when nothing was written. */
  added: Promise<readonly StoredItem[]>;
}

const inFlightListeners = () => new Set<(writing: ItemsInFlight) => void>();

/** Listens to the items this tab's writes to `db` are adding, as each starts; returns the unsubscribe. */
export function subscribeItemsInFlight(db: ConsoleDb, listener: (writing: ItemsInFlight) => void): () => void {
  const listeners = db.owned(inFlightListeners);
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export interface SaveOptions {
  /**
   * The page is one the user waits to see (a pull's answer): its write starts once the next frame
   * is painted, the frame that shows it from memory (`subscribeItemsInFlight`), or at once when the page is hidden
   * or left. Off for pages written in a run (Pull all new, Recover), where no one waits on a frame.
   */
  paintFirst?: boolean;
}

export interface SaveResult {
  /** Items the store did not hold before. */
  added: number;
  /** Items it already held (their first arrival is kept). */
  known: number;
}

/**
 * Writes a page of delivered items in one transaction: a small row per item and one row holding
 * the page's records. An item the store already holds keeps its first arrival and content; only a
 * decision the service now reports for it is taken over. The write starts at once (a page the
 * user waits to see: right after the frame that shows it, `paintFirst`); this tab's lists are told
 * of its rows as it starts (shown from memory while the disk works, `subscribeItemsInFlight`), and every reader,
 * here and in other tabs, once it committed.
 */
export async function saveDelivered(
  db: ConsoleDb,
  scope: string,
  subscriptionId: string,
  via: DeliveryVia,
  page: readonly Delivered[],
  now = Date.now(),
  { paintFirst = false }: SaveOptions = {},
): Promise<SaveResult> {
  const unique = [...new Map(page.map((d) => [d.summary.itemId, d])).values()];
  if (unique.length === 0) return { added: 0, known: 0 };
  const rows: StoredItem[] = unique.map(({ summary }, index) => ({
    ...summary,
    scope,
    subscriptionId,
    seq: now * 1000 + index,
    receivedAt: now,
    via,
    open: summary.serverDecision ? 0 : 1,
  }));
  const write = () =>
    db.transaction('rw', [db.items, db.pages, db.counts], async () => {
      // The records first, all of them: the items point at their row, and most pages are all new.
      const records = new Map(unique.map((d) => [d.summary.itemId, d.record]));
      // The counts are read beside it: one round trip fewer before the commit.
      const [pageId, counted] = await Promise.all([db.pages.add({ scope, subscriptionId, records }), db.counts.get([scope, subscriptionId])]);
      const items: StoredItem[] = rows.map((row) => ({ ...row, page: pageId }));
      // Add, and let the ones already held fail: one write per item instead of a read and a write.
      const held = new Set<number>();
      await db.items.bulkAdd(items).catch(Dexie.BulkError, (error: InstanceType<typeof Dexie.BulkError>) => {
        for (const position of Object.keys(error.failuresByPos)) held.add(Number(position));
      });
      // Items held already keep their first content: the page row keeps only the new ones.
      if (held.size === unique.length) await db.pages.delete(pageId);
      else if (held.size > 0) {
        for (const index of held) records.delete(unique[index]!.summary.itemId);
        await db.pages.put({ id: pageId, scope, subscriptionId, records });
      }
      // Items held already: only a decision the service now reports changes them.
      const reported = unique.filter((d, index) => held.has(index) && d.summary.serverDecision);
      let updated = 0;
      let closed = 0;
      if (reported.length) {
        const stored = await db.items.bulkGet(reported.map((d): ItemKey => [scope, subscriptionId, d.summary.itemId]));
        const changes = stored.flatMap((row, i) => {
          const decision = reported[i]!.summary.serverDecision;
          if (!row || row.serverDecision === decision) return [];
          closed += row.open;
          return [{ ...row, serverDecision: decision, open: 0 as const }];
        });
        if (changes.length) await db.items.bulkPut(changes);
        updated = changes.length;
      }
      const added = unique.length - held.size;
      const addedOpen = items.reduce((sum, item, index) => (held.has(index) ? sum : sum + item.open), 0);
      await writeCounts(db, counted, scope, subscriptionId, added, addedOpen - closed);
      return { added, known: held.size, changed: added + updated, rows: held.size ? items.filter((_, index) => !held.has(index)) : items };
    });
  // The list shows the page while the disk works: waiting for the commit before showing it was most
  // of a pull's answer → items painted (bench:ui). A page the user waits for is written right after
  // the frame that shows it: the write's own work on this thread (copying every record for the
  // disk) then comes after that frame, not before it. A failed write settles `added` (and rejects here).
  // Two frames: the list renders the rows in a task of its own, which may come after the next frame
  // (and a busy machine's frames are long: the timer standing in for them waits longer too).
  const writing = paintFirst ? afterNextPaint(2, 250).then(write) : write();
  const added = writing.then((result) => result.rows);
  added.catch(() => undefined); // Its failure is the caller's to show (this function rejects with it).
  for (const listener of db.owned(inFlightListeners)) listener({ scope, subscriptionId, rows, added });
  const result = await writing;
  // Told once committed: what it names is on disk.
  if (result.changed > 0) db.changes.publish({ scope, table: 'items', ids: [subscriptionId], appended: true, rows: result.rows });
  return { added: result.added, known: result.known + (page.length - unique.length) };
}

/** A subscription's items that arrived after `afterSeq`, in delivery order. */
export async function itemsAfter(db: ConsoleDb, scope: string, subscriptionId: string, afterSeq: number): Promise<StoredItem[]> {
  const index = db.items.where('[scope+subscriptionId+open+seq]');
  const [open, decided] = await Promise.all(
    ([1, 0] as const).map((flag) => index.between([scope, subscriptionId, flag, afterSeq], [scope, subscriptionId, flag, Dexie.maxKey], false, true).toArray()),
  );
  return [...open!, ...decided!].sort((a, b) => a.seq - b.seq);
}

/** Primary-key range of a subscription's rows, or of a whole scope's. */
const subscriptionRange = (scope: string, subscriptionId: string) =>
  [
    [scope, subscriptionId, Dexie.minKey],
    [scope, subscriptionId, Dexie.maxKey],
  ] as const;
// [scope] sorts before every [scope, …] key and [scope, maxKey] after them. (One maxKey only: a key
// holding the same array object twice is refused as if it were a cycle.)
const scopeRange = (scope: string) => [[scope], [scope, Dexie.maxKey]] as const;

/** Changes a subscription's counts (`row`, read in the same transaction), inside the transaction of the write that changed its items. */
async function writeCounts(db: ConsoleDb, row: StoredCount | undefined, scope: string, subscriptionId: string, total: number, open: number): Promise<void> {
  if (total === 0 && open === 0) return;
  const current = row ?? { scope, subscriptionId, total: 0, open: 0 };
  await db.counts.put({ ...current, total: current.total + total, open: current.open + open });
}

/** How many items a scope holds, all subscriptions together (read from the counts, not counted). */
export async function countScope(db: ConsoleDb, scope: string): Promise<number> {
  const [lo, hi] = scopeRange(scope);
  const rows = await db.counts.where('[scope+subscriptionId]').between(lo, hi, true, true).toArray();
  return rows.reduce((sum, row) => sum + row.total, 0);
}

const openRange = (scope: string, subscriptionId: string, open: 0 | 1) =>
  [
    [scope, subscriptionId, open, Dexie.minKey],
    [scope, subscriptionId, open, Dexie.maxKey],
  ] as const;

/** A subscription's items, undecided first, each group in delivery order. */
export async function listItems(db: ConsoleDb, scope: string, subscriptionId: string, offset: number, limit: number): Promise<StoredItem[]> {
  const index = db.items.where('[scope+subscriptionId+open+seq]');
  const [lo, hi] = openRange(scope, subscriptionId, 1);
  const open = await index.between(lo, hi, true, true).offset(offset).limit(limit).toArray();
  if (open.length === limit) return open;
  const openCount = open.length > 0 || offset === 0 ? offset + open.length : await index.between(lo, hi, true, true).count();
  const [dlo, dhi] = openRange(scope, subscriptionId, 0);
  const decided = await index
    .between(dlo, dhi, true, true)
    .offset(Math.max(0, offset - openCount))
    .limit(limit - open.length)
    .toArray();
  return [...open, ...decided];
}

/**
 * The next rows of one group (undecided `open` = 1, or decided 0) after `afterSeq`, in delivery
 * order. Paging by key: an offset makes the database walk (and Dexie read) every row before it,
 * so reading 100,000 rows in chunks by offset was quadratic (24 s).
 */
export async function listGroupAfter(
  db: ConsoleDb,
  scope: string,
  subscriptionId: string,
  open: 0 | 1,
  afterSeq: number,
  limit: number,
): Promise<StoredItem[]> {
  return db.items
    .where('[scope+subscriptionId+open+seq]')
    .between([scope, subscriptionId, open, afterSeq], [scope, subscriptionId, open, Dexie.maxKey], false, true)
    .limit(limit)
    .toArray();
}

/** How many items a subscription holds, and how many are undecided (read from the counts, not counted). */
export async function countItems(db: ConsoleDb, scope: string, subscriptionId: string): Promise<{ total: number; open: number }> {
  const row = await db.counts.get([scope, subscriptionId]);
  return { total: row?.total ?? 0, open: row?.open ?? 0 };
}

/** Which of these items the store holds already. */
export async function heldIds(db: ConsoleDb, scope: string, subscriptionId: string, itemIds: readonly string[]): Promise<Set<string>> {
  const rows = await db.items.bulkGet(itemIds.map((id): ItemKey => [scope, subscriptionId, id]));
  return new Set(rows.flatMap((row) => (row ? [row.itemId] : [])));
}

/**
 * The delivered records of these items, and of the other items written in the same pages (one
 * read brings a page's records, so the list's neighbours come with it).
 */
export async function readPayloads(db: ConsoleDb, scope: string, subscriptionId: string, itemIds: readonly string[]): Promise<Map<string, unknown>> {
  return db.transaction('r', db.items, db.pages, async () => {
    const rows = await db.items.bulkGet(itemIds.map((id): ItemKey => [scope, subscriptionId, id]));
    const pageIds = [...new Set(rows.flatMap((row) => (row?.page === undefined ? [] : [row.page])))];
    const pages = await db.pages.bulkGet(pageIds);
    const records = new Map<string, unknown>();
    for (const page of pages)
      if (page && page.scope === scope && page.subscriptionId === subscriptionId) for (const [id, record] of page.records) records.set(id, record);
    return records;
  });
}

/**
 * Resolves once the next frame is painted (soon after, in a hidden tab or outside a browser, where
 * frames may not come), or as soon as the page is hidden or left: a write that waits for a frame
 * starts then rather than never. `frames`: how many frames to let by (2: the frame after the next,
 * for a change React renders in a task of its own, which may come after the next frame), and
 * `fallbackMs` how long to wait for them at most (a visible page whose frames do not come).
 */
function afterNextPaint(frames = 1, fallbackMs = 100): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame !== 'function' || typeof document === 'undefined' || document.visibilityState !== 'visible') {
      setTimeout(resolve, 0);
      return;
    }
    const done = () => {
      clearTimeout(fallback);
      document.removeEventListener('visibilitychange', done);
      window.removeEventListener('pagehide', done);
      resolve();
    };
    const fallback = setTimeout(done, fallbackMs);
    document.addEventListener('visibilitychange', done);
    window.addEventListener('pagehide', done);
    const frame = (left: number) => requestAnimationFrame(() => (left > 1 ? frame(left - 1) : setTimeout(done, 0)));
    frame(frames);
  });
}

/**
 * An item's "undecided" flag as asked: decided (0), undecided (1), or undecided unless a decision
 * row on it (of the same subscription) still stands when the flag is written ('unless-decided': an
 * undo or a discard, whose item another tab may have decided meanwhile).
 */
export type OpenFlag = 0 | 1 | 'unless-decided';

/** Flags waiting for the next frame, per subscription; the last one asked for an item wins. */
interface OpenFlags {
  scope: string;
  subscriptionId: string;
  flags: Map<string, OpenFlag>;
  /** Whether a decision row's state stands on its item (given with 'unless-decided' flags). */
  stands?: (row: { state: string }) => boolean;
}
/** The flags of a database waiting for the next frame (one batch at a time). */
const waitingFlags = (): { current: { bySubscription: Map<string, OpenFlags>; written: Promise<void> } | null } => ({ current: null });

/**
 * Marks items decided (0) or undecided again (1, after an undo or a discard). The flag only orders
 * the review list (the decision itself is the outbox's, written on its own), so it is written
 * after the next frame is painted: a keypress's transaction (a read and a write) ran before its
 * paint and made `a` and `d` slower than `j` (bench:ui). Flags asked meanwhile share one
 * transaction, in the order they were asked; the promise resolves once they are written.
 */
export function setOpen(
  db: ConsoleDb,
  scope: string,
  subscriptionId: string,
  itemIds: readonly string[],
  open: OpenFlag,
  stands?: (row: { state: string }) => boolean,
): Promise<void> {
  if (itemIds.length === 0) return Promise.resolve();
  const batch = db.owned(waitingFlags);
  let waiting = batch.current;
  if (!waiting) {
    const bySubscription = new Map<string, OpenFlags>();
    const written = afterNextPaint().then(() => {
      // Flags asked from now on wait for the frame after: their transaction starts after this one.
      batch.current = null;
      return writeOpenFlags(db, [...bySubscription.values()]);
    });
    waiting = { bySubscription, written };
    batch.current = waiting;
  }
  const key = JSON.stringify([scope, subscriptionId]);
  const group = waiting.bySubscription.get(key) ?? waiting.bySubscription.set(key, { scope, subscriptionId, flags: new Map() }).get(key)!;
  for (const id of itemIds) group.flags.set(id, open);
  if (stands) group.stands = stands;
  return waiting.written;
}

/** A decision an item is closed for, as the load that found it read it (`closeWhereStanding`). */
export interface StandingDecision {
  itemId: string;
  /** The decision's row (its key in `decisions`). */
  entryId: string;
  /** Its state as read: a row still in it stands as it did, whatever the predicate says of the state. */
  state: string;
}

/**
 * Closes items (flag 0) for decisions another page recorded, but only where that decision's row
 * still stands when the flag is written: read and written in one transaction over the decisions,
 * items and counts. A tab that undoes or discards a decision writes its row first and reopens its
 * item after (outbox `removeEntries`), so whichever of the two transactions comes first, the
 * item ends closed only while a decision stands on it. Written after the next frame, as `setOpen`.
 */
export async function closeWhereStanding(
  db: ConsoleDb,
  scope: string,
  subscriptionId: string,
  decisions: readonly StandingDecision[],
  stands: (row: { state: string }) => boolean,
): Promise<void> {
  if (decisions.length === 0) return;
  await afterNextPaint();
  await db.transaction('rw', db.items, db.counts, db.decisions, async () => {
    const rows = await db.decisions.bulkGet(decisions.map((d) => d.entryId));
    const standing = new Set(
      decisions.flatMap((d, index) => {
        const row = rows[index] as { scope?: string; state: string } | undefined;
        return row && row.scope === scope && (row.state === d.state || stands(row)) ? [d.itemId] : [];
      }),
    );
    if (standing.size === 0) return;
    await writeOpenFlags(db, [{ scope, subscriptionId, flags: new Map([...standing].map((id) => [id, 0 as const])) }]);
  });
}

async function writeOpenFlags(db: ConsoleDb, groups: readonly OpenFlags[]): Promise<void> {
  const checks = groups.some((g) => [...g.flags.values()].includes('unless-decided'));
  // The decisions are read in the same transaction only when a flag depends on them.
  await db.transaction('rw', checks ? [db.items, db.counts, db.decisions] : [db.items, db.counts], async () => {
    for (const { scope, subscriptionId, flags, stands } of groups) {
      // Each item once (a Map's keys): a repeated ID would be counted twice.
      const ids = [...flags.keys()];
      const rows = await db.items.bulkGet(ids.map((id): ItemKey => [scope, subscriptionId, id]));
      const decided = new Set<string>();
      for (const id of ids) {
        if (flags.get(id) !== 'unless-decided') continue;
        const onItem = (await db.decisions.where('[scope+itemId]').equals([scope, id]).toArray()) as { subscriptionId?: string; state: string }[];
        if (onItem.some((d) => d.subscriptionId === subscriptionId && (stands?.(d) ?? true))) decided.add(id);
      }
      const changed = rows.flatMap((row, index) => {
        const id = ids[index]!;
        const asked = flags.get(id)!;
        if (asked === 'unless-decided' && decided.has(id)) return [];
        const open = asked === 'unless-decided' ? 1 : asked;
        return row && row.open !== open && !(open === 1 && row.serverDecision) ? [{ ...row, open }] : [];
      });
      if (changed.length === 0) continue;
      await db.items.bulkPut(changed);
      const opened = changed.reduce((sum, row) => sum + (row.open ? 1 : -1), 0);
      await writeCounts(db, await db.counts.get([scope, subscriptionId]), scope, subscriptionId, 0, opened);
    }
  });
}

/** Forgets a subscription's items (content included) and pull log. Decisions are the outbox's. */
export async function deleteSubscriptionItems(db: ConsoleDb, scope: string, subscriptionId: string): Promise<number> {
  const [lo, hi] = subscriptionRange(scope, subscriptionId);
  return db
    .transaction('rw', [db.items, db.pages, db.counts, db.pulls, db.lots], async () => {
      const count = await db.items.where('[scope+subscriptionId+itemId]').between(lo, hi, true, true).delete();
      await db.counts.delete([scope, subscriptionId]);
      await db.pages.where('[scope+subscriptionId]').equals([scope, subscriptionId]).delete();
      await db.pulls.where('[scope+subscriptionId]').equals([scope, subscriptionId]).delete();
      // A lot names items (its sample): it goes with them.
      await db.lots.where('[scope+subscriptionId]').equals([scope, subscriptionId]).delete();
      return count;
    })
    .finally(() => db.changes.publish({ scope, table: 'items', ids: [subscriptionId] }));
}

/**
 * Forgets everything of a scope: items, content, decisions, pulls and lots. Its settings (reason
 * codes, budgets) are the user's choices, not delivered data: they stay.
 */
export async function deleteScope(db: ConsoleDb, scope: string): Promise<void> {
  const [lo, hi] = scopeRange(scope);
  await db.transaction('rw', [db.items, db.pages, db.counts, db.decisions, db.pulls, db.lots], async () => {
    await db.items.where('[scope+subscriptionId+itemId]').between(lo, hi, true, true).delete();
    await db.counts.where('[scope+subscriptionId]').between(lo, hi, true, true).delete();
    await db.pages.where('[scope+subscriptionId]').between(lo, hi, true, true).delete();
    await db.decisions.where('scope').equals(scope).delete();
    await db.pulls.filter((p) => p.scope === scope).delete();
    await db.lots.where('scope').equals(scope).delete();
  });
  db.changes.publish({ scope, table: 'items' });
}
