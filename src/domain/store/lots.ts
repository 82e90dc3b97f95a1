import { localDb, type StoredLot } from './db';

/**
 * Sampling lots, kept with the scope (the organization on a base URL) like items and decisions,
 * so a reload, another tab or another key of the organization finds them. The sampling feature
 * owns what `value` holds and checks it on every read. Every write is told on the change feed
 * (table `lots`), so this tab and the others read the lot again.
 */
/** A scope's lots, newest first. */
export async function listLots(scope: string): Promise<StoredLot[]> {
  const rows = await localDb().lots.where('scope').equals(scope).toArray();
  return rows.sort((a, b) => b.createdAt - a.createdAt);
}

/** One lot, only if it belongs to the scope (an ID from another organization's URL finds nothing). */
export async function readLot(scope: string, id: string): Promise<StoredLot | null> {
  const row = await localDb().lots.get(id);
  return row && row.scope === scope ? row : null;
}

/** Writes a new lot whole; resolves once it is committed. */
export async function createLot(lot: StoredLot): Promise<void> {
  const db = localDb();
  await db.lots.add(lot);
  db.changes.publish({ scope: lot.scope, table: 'lots', ids: [lot.id] });
}

/**
 * Reads and rewrites a lot's value in one IndexedDB transaction, so two tabs extending the sample
 * or recording an outcome at once are serialised and neither loses the other's change. Null when
 * the lot is gone.
 */
export async function updateLot(scope: string, id: string, change: (value: unknown) => unknown): Promise<StoredLot | null> {
  const db = localDb();
  const next = await db.transaction('rw', db.lots, async () => {
    const row = await db.lots.get(id);
    if (!row || row.scope !== scope) return null;
    const updated = { ...row, value: change(row.value) };
    await db.lots.put(updated);
    return updated;
  });
  if (next) db.changes.publish({ scope, table: 'lots', ids: [id] });
  return next;
}
