import { useEffect, useState } from 'react';
import { localDb, readPayloads, type ConsoleDb } from '../../domain/store';
import type { ReviewItem } from './model';

/**
 * Delivered content of the items around the one on screen. The list holds only small rows (a
 * subscription may hold 100,000 items); content is read from the local store for the focused item
 * and its neighbours ahead of time, so moving on paints from memory, not after a read.
 */
const MAX_ENTRIES = 600;

/** The content a database's items hold, kept in memory with that database (`ConsoleDb.owned`: a test's own starts empty). */
const contentMemory = () => ({
  cache: new Map<string, unknown>(),
  loading: new Map<string, Promise<void>>(),
  /** Why the last read of an item failed; cleared when it is asked for again. */
  failed: new Map<string, string>(),
  listeners: new Set<() => void>(),
});
const memory = () => localDb().owned(contentMemory);

const keyOf = (scope: string, subscriptionId: string, itemId: string) => `${scope}\u0000${subscriptionId}\u0000${itemId}`;

/** The content inside a delivered record: `data` of a live submission, `payload` of a simulated item. */
function contentOf(kind: ReviewItem['kind'], record: unknown): unknown {
  if (!record || typeof record !== 'object') return undefined;
  return kind === 'live' ? (record as { data?: unknown }).data : (record as { payload?: unknown }).payload;
}

function put(cache: Map<string, unknown>, key: string, value: unknown) {
  cache.delete(key);
  cache.set(key, value);
  // Oldest first: a Map iterates in insertion order.
  while (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
}

/** Keeps records that just arrived (a pull's page, to be written to `db`) so they show without a read. */
export function rememberRecords(
  db: ConsoleDb,
  scope: string,
  subscriptionId: string,
  kind: ReviewItem['kind'],
  records: readonly { id: string; record: unknown }[],
) {
  const { cache, listeners } = db.owned(contentMemory);
  for (const { id, record } of records.slice(-MAX_ENTRIES)) put(cache, keyOf(scope, subscriptionId, id), contentOf(kind, record));
  for (const listener of listeners) listener();
}

/** Reads the content of these items into memory (those not there yet). */
export function prefetchContent(items: readonly (ReviewItem | undefined)[]): Promise<void> {
  const db = localDb();
  const { cache, loading, failed, listeners } = db.owned(contentMemory);
  const missing = items.filter(
    (item): item is ReviewItem & { scope: string } =>
      !!item?.scope &&
      item.content === undefined &&
      !cache.has(keyOf(item.scope, item.subscriptionId, item.id)) &&
      !loading.has(keyOf(item.scope, item.subscriptionId, item.id)),
  );
  if (missing.length === 0) return Promise.resolve();
  const bySubscription = new Map<string, (ReviewItem & { scope: string })[]>();
  for (const item of missing) {
    const group = `${item.scope}\u0000${item.subscriptionId}`;
    bySubscription.set(group, [...(bySubscription.get(group) ?? []), item]);
  }
  const reads = [...bySubscription.values()].map(async (group) => {
    const { scope, subscriptionId } = group[0]!;
    const records = await readPayloads(
      db,
      scope,
      subscriptionId,
      group.map((i) => i.id),
    );
    // The other records of the same pages come along: kept too (a subscription's items are all
    // of one kind), before the asked ones so that those stay the most recent.
    const asked = new Set(group.map((i) => i.id));
    for (const [id, record] of records)
      if (!asked.has(id) && !cache.has(keyOf(scope, subscriptionId, id))) put(cache, keyOf(scope, subscriptionId, id), contentOf(group[0]!.kind, record));
    for (const item of group) put(cache, keyOf(scope, subscriptionId, item.id), records.has(item.id) ? contentOf(item.kind, records.get(item.id)) : MISSING);
  });
  // Settled either way: a failed read must not leave its items "loading" for good (nothing would
  // read them again); they show why, with a way to read again (`readContentAgain`).
  const settle = (why?: string) => {
    for (const item of missing) {
      const key = keyOf(item.scope, item.subscriptionId, item.id);
      loading.delete(key);
      if (why !== undefined && !cache.has(key)) failed.set(key, why);
    }
    for (const listener of listeners) listener();
  };
  const done = Promise.all(reads).then(
    () => settle(),
    (error: unknown) => {
      const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      console.error(`Reading delivered content from this browser’s storage failed: ${why}`);
      settle(why);
      throw error;
    },
  );
  for (const item of missing) loading.set(keyOf(item.scope, item.subscriptionId, item.id), done);
  return done;
}

/** Stands for content the store does not hold (deleted meanwhile). */
const MISSING = Symbol('missing content');

export type ContentState = { status: 'ready'; content: unknown } | { status: 'loading' } | { status: 'missing' } | { status: 'failed'; why: string };

function stateOf(item: ReviewItem): ContentState {
  if (item.content !== undefined || !item.scope) return { status: 'ready', content: item.content };
  const { cache, failed } = memory();
  const key = keyOf(item.scope, item.subscriptionId, item.id);
  // Content that arrived since (a pull's records) wins over an earlier failed read.
  if (!cache.has(key)) {
    const why = failed.get(key);
    return why === undefined ? { status: 'loading' } : { status: 'failed', why };
  }
  const content = cache.get(key);
  return content === MISSING ? { status: 'missing' } : { status: 'ready', content };
}

/** The item's content if it is in memory now (no read is started). */
export function contentInMemory(item: ReviewItem): unknown {
  const state = stateOf(item);
  return state.status === 'ready' ? state.content : undefined;
}

/** The item's content: at once when it is in memory, else after one read. */
export function useItemContent(item: ReviewItem): ContentState {
  const [, setVersion] = useState(0);
  const state = stateOf(item);
  useEffect(() => {
    if (state.status === 'ready' || state.status === 'missing') return;
    const listener = () => setVersion((v) => v + 1);
    const { listeners } = memory();
    listeners.add(listener);
    // A read that settled between the render and this subscription told nobody: seen here, or the
    // item would stay "Reading…" for good (its read is done, so none would start again).
    if (stateOf(item).status !== state.status) listener();
    // A failure is kept and shown (stateOf); the item waits for its Try again.
    if (state.status === 'loading') void prefetchContent([item]).catch(() => undefined);
    return () => {
      listeners.delete(listener);
    };
  }, [item, state.status]);
  return state;
}

/** Reads an item whose last read failed again (its Try again). */
export function readContentAgain(item: ReviewItem): void {
  if (!item.scope) return;
  const { failed, listeners } = memory();
  failed.delete(keyOf(item.scope, item.subscriptionId, item.id));
  for (const listener of listeners) listener();
}

/** Forgets content kept in memory (a scope's local data was deleted). */
export function forgetContent(scope?: string) {
  const { cache, failed } = memory();
  for (const kept of [cache, failed]) {
    if (!scope) kept.clear();
    else for (const key of [...kept.keys()]) if (key.startsWith(`${scope}\u0000`)) kept.delete(key);
  }
}
