import Dexie from 'dexie';
import type { ConsoleDb, DeliveryVia, ItemKey, StoredItem, StoredPayload } from './db';
import { announceItems } from './changes';
import type { ItemSummary } from './summary';

export interface Delivered {
  summary: ItemSummary;
  /** The record exactly as the service sent it. */
  record: unknown;
}

export interface SaveResult {
  /** Items the store did not hold before. */
  added: number;
  /** Items it already held (their first arrival is kept). */
  known: number;
}

/**
 * Writes a page of delivered items in one transaction, before anything shows them. An item the
 * store already holds keeps its first arrival and content; only a decision the service now
 * reports for it is taken over.
 */
export async function saveDelivered(
  db: ConsoleDb,
  scope: string,
  subscriptionId: string,
  via: DeliveryVia,
  page: readonly Delivered[],
  now = Date.now(),
): Promise<SaveResult> {
  if (page.length === 0) return { added: 0, known: 0 };
  const result = await db.transaction('rw', db.items, db.payloads, async () => {
    const keys = page.map((d): ItemKey => [scope, subscriptionId, d.summary.itemId]);
    const existing = await db.items.bulkGet(keys);
    const items: StoredItem[] = [];
    const payloads: StoredPayload[] = [];
    const updates: StoredItem[] = [];
    const seen = new Set<string>();
    page.forEach((delivered, index) => {
      const { summary } = delivered;
      if (seen.has(summary.itemId)) return;
      seen.add(summary.itemId);
      const held = existing[index];
      if (held) {
        if (summary.serverDecision && held.serverDecision !== summary.serverDecision) updates.push({ ...held, serverDecision: summary.serverDecision, open: 0 });
        return;
      }
      items.push({ ...summary, scope, subscriptionId, seq: now * 1000 + index, receivedAt: now, via, open: summary.serverDecision ? 0 : 1 });
      payloads.push({ scope, subscriptionId, itemId: summary.itemId, record: delivered.record });
    });
    await db.items.bulkAdd(items);
    await db.payloads.bulkAdd(payloads);
    if (updates.length) await db.items.bulkPut(updates);
    return { added: items.length, known: page.length - items.length, changed: items.length + updates.length };
  });
  if (result.changed > 0) announceItems({ scope, subscriptionId });
  return { added: result.added, known: result.known };
}

/** A subscription's items that arrived after `afterSeq`, in delivery order. */
export async function itemsAfter(db: ConsoleDb, scope: string, subscriptionId: string, afterSeq: number): Promise<StoredItem[]> {
  return db.items.where('[scope+subscriptionId+seq]').between([scope, subscriptionId, afterSeq], [scope, subscriptionId, Dexie.maxKey], false, true).toArray();
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

export async function countItems(db: ConsoleDb, scope: string, subscriptionId: string): Promise<{ total: number; open: number }> {
  const index = db.items.where('[scope+subscriptionId+open+seq]');
  const [lo, hi] = openRange(scope, subscriptionId, 1);
  const [open, total] = await Promise.all([
    index.between(lo, hi, true, true).count(),
    db.items.where('[scope+subscriptionId+seq]').between([scope, subscriptionId, Dexie.minKey], [scope, subscriptionId, Dexie.maxKey], true, true).count(),
  ]);
  return { total, open };
}

export async function hasItem(db: ConsoleDb, scope: string, subscriptionId: string, itemId: string): Promise<boolean> {
  return (await db.items.get([scope, subscriptionId, itemId])) !== undefined;
}

/** Which of these items the store holds already. */
export async function heldIds(db: ConsoleDb, scope: string, subscriptionId: string, itemIds: readonly string[]): Promise<Set<string>> {
  const rows = await db.items.bulkGet(itemIds.map((id): ItemKey => [scope, subscriptionId, id]));
  return new Set(rows.flatMap((row) => (row ? [row.itemId] : [])));
}

export async function readPayloads(db: ConsoleDb, scope: string, subscriptionId: string, itemIds: readonly string[]): Promise<Map<string, unknown>> {
  const rows = await db.payloads.bulkGet(itemIds.map((id): ItemKey => [scope, subscriptionId, id]));
  return new Map(rows.flatMap((row) => (row ? [[row.itemId, row.record] as const] : [])));
}

/** Marks items decided (0) or undecided again (1, after an undo or a discard). */
export async function setOpen(db: ConsoleDb, scope: string, subscriptionId: string, itemIds: readonly string[], open: 0 | 1): Promise<void> {
  if (itemIds.length === 0) return;
  await db.transaction('rw', db.items, async () => {
    const rows = await db.items.bulkGet(itemIds.map((id): ItemKey => [scope, subscriptionId, id]));
    const changed = rows.flatMap((row) => (row && row.open !== open && !(open === 1 && row.serverDecision) ? [{ ...row, open }] : []));
    if (changed.length) await db.items.bulkPut(changed);
  });
}

/** Forgets a subscription's items (content included) and pull log. Decisions are the outbox's. */
export async function deleteSubscriptionItems(db: ConsoleDb, scope: string, subscriptionId: string): Promise<number> {
  return db.transaction('rw', db.items, db.payloads, db.pulls, async () => {
    const range = [
      [scope, subscriptionId, Dexie.minKey],
      [scope, subscriptionId, Dexie.maxKey],
    ] as const;
    const count = await db.items.where('[scope+subscriptionId+seq]').between(range[0], range[1], true, true).delete();
    await db.payloads.where('[scope+subscriptionId+itemId]').between(range[0], range[1], true, true).delete();
    await db.pulls.where('[scope+subscriptionId]').equals([scope, subscriptionId]).delete();
    return count;
  }).finally(() => announceItems({ scope, subscriptionId, kind: 'deleted' }));
}

/** Forgets everything of a scope: items, content, decisions and pulls. */
export async function deleteScope(db: ConsoleDb, scope: string): Promise<void> {
  await db.transaction('rw', [db.items, db.payloads, db.decisions, db.pulls], async () => {
    await db.items.where('scope').equals(scope).delete();
    await db.payloads.where('scope').equals(scope).delete();
    await db.decisions.where('scope').equals(scope).delete();
    await db.pulls.filter((p) => p.scope === scope).delete();
  });
  announceItems({ scope, subscriptionId: '*', kind: 'deleted' });
}
