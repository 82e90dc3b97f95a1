import type { ConsoleDb } from '../store';
import type { TextIndex } from './query';

/**
 * Text search over delivered content. The records live in the local store's `pages` rows, which
 * are never read for a list: so the index is
 * built only when a search is typed, page row by page row, and kept in memory per subscription.
 * Pages get increasing IDs, so a later search reads only the pages written since; deleting a
 * subscription's items forgets its index.
 */

/** Content text kept per item: enough to find an item by what it says, bounded at 100,000 items. */
const TEXT_CAP = 4096;
const PAGE_CHUNK = 20;

/** The lower-cased string and number leaves of a record, newline-separated, at most `cap` characters. */
export function recordText(record: unknown, cap = TEXT_CAP): string {
  let text = '';
  const stack: unknown[] = [record];
  while (stack.length && text.length < cap) {
    const value = stack.pop();
    if (typeof value === 'string') text += `${value}\n`;
    else if (typeof value === 'number') text += `${value}\n`;
    else if (Array.isArray(value)) for (let i = value.length - 1; i >= 0; i--) stack.push(value[i]);
    else if (value && typeof value === 'object') {
      const values = Object.values(value);
      for (let i = values.length - 1; i >= 0; i--) stack.push(values[i]);
    }
  }
  return (text.length > cap ? text.slice(0, cap) : text).toLowerCase();
}

interface Cached {
  index: Map<string, string>;
  /** The highest page ID read. */
  lastPage: number;
  /** The build running (or the last one), so two searches never read the same pages twice. */
  building: Promise<void>;
}

const keyOf = (scope: string, subscriptionId: string) => `${scope}\u0000${subscriptionId}`;

/** A database's indexes by subscription (kept with it: `ConsoleDb.owned`, so a test's own is fresh); deleted items drop theirs. */
function textIndexes(db: ConsoleDb): Map<string, Cached> {
  const created = new Map<string, Cached>();
  db.changes.subscribe((change) => {
    // Appended rows are read from the pages added since; anything else (a deletion) starts over.
    if (change.table !== 'items' || change.appended) return;
    if (change.ids) for (const id of change.ids) created.delete(keyOf(change.scope, id));
    else for (const key of [...created.keys()]) if (key.startsWith(`${change.scope}\u0000`)) created.delete(key);
  });
  return created;
}

/** A built index: the map, and how many items it holds (a new object after every build that read pages). */
export interface BuiltIndex {
  index: TextIndex;
  size: number;
}

/**
 * The content index of a subscription, built on first use and brought up to date with the pages
 * written since the last call.
 */
export async function textIndexOf(db: ConsoleDb, scope: string, subscriptionId: string): Promise<BuiltIndex> {
  const cache = db.owned(textIndexes);
  const key = keyOf(scope, subscriptionId);
  let entry = cache.get(key);
  if (!entry) {
    entry = { index: new Map(), lastPage: 0, building: Promise.resolve() };
    cache.set(key, entry);
  }
  const current = entry;
  current.building = current.building.catch(() => undefined).then(() => update(db, scope, subscriptionId, current));
  await current.building;
  return { index: current.index, size: current.index.size };
}

async function update(db: ConsoleDb, scope: string, subscriptionId: string, entry: Cached): Promise<void> {
  // Keys first (no records read), then only the pages newer than the last one read.
  const ids = (await db.pages.where('[scope+subscriptionId]').equals([scope, subscriptionId]).primaryKeys()).filter((id) => id > entry.lastPage);
  ids.sort((a, b) => a - b);
  for (let at = 0; at < ids.length; at += PAGE_CHUNK) {
    const pages = await db.pages.bulkGet(ids.slice(at, at + PAGE_CHUNK));
    for (const page of pages) {
      if (!page) continue;
      for (const [itemId, record] of page.records) entry.index.set(itemId, recordText(record));
    }
  }
  if (ids.length) entry.lastPage = Math.max(entry.lastPage, ids.at(-1)!);
}
