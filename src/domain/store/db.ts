import Dexie, { type Table } from 'dexie';
import { installLocalChanges, localChanges, type ChangeFeed } from './change-feed';

/**
 * The console's durable local store (IndexedDB, through Dexie). Everything in it belongs to a
 * scope: one organization on one base URL (see scope.ts), never to a key or a browser tab, so a
 * rotated key, a new tab or a crash finds it all again.
 *
 * - `items`: one row per delivered item, small and flat (what lists, filters and sorts need),
 *   in delivery order (`seq`). `open` is 1 until a decision is recorded, so "undecided first"
 *   is an index range, not a scan.
 * - `pages`: the delivered records exactly as received, one row per page written (the items it
 *   added), read only for the items on screen. One row per item was half the cost of a page write
 *   at 100,000 items (bench/idb-floor.ts: ~45 ms with a row per record, ~24 ms with one per page).
 * - `counts`: how many items each subscription holds and how many are undecided, kept in the
 *   transaction of every write that changes them. Counting 100,000 rows on every change made the
 *   next page's write wait behind the scan (~660 ms instead of ~85 ms on disk, bench/idb-floor.ts).
 * - `decisions`: the outbox (every decision with its state); decisions are not secrets.
 * - `pulls`: what each pull did, including answers that were lost.
 * - `settings`: small per-scope documents the user keeps with the organization, not the tab
 *   (dispute reason codes, budgets), by name; read and written whole (`settings.ts`).
 * - `lots`: sampling lots (plan, sample, outcome), one row each, kept with the scope.
 */
export type { DeliveryVia, StoredItem } from './stored-item';
import type { DeliveryVia, StoredItem } from './stored-item';

/** The records one page write added, by item ID. */
export interface StoredPage {
  id?: number;
  scope: string;
  subscriptionId: string;
  records: Map<string, unknown>;
}

export interface StoredCount {
  scope: string;
  subscriptionId: string;
  total: number;
  open: number;
}

export interface PullRecord {
  id?: number;
  scope: string;
  subscriptionId: string;
  at: number;
  mode: DeliveryVia;
  outcome: 'ok' | 'lost' | 'failed' | 'not-stored';
  count: number;
  note?: string;
}

/** A decision as stored: the outbox entry plus its scope (the entry's own shape lives with the outbox). */
export interface StoredDecision {
  id: string;
  scope: string;
  itemId: string;
  state: string;
  createdAt: number;
  [field: string]: unknown;
}

/** A per-scope document (`settings.ts`): its name says what it holds; `value` is checked by its owner. */
export interface StoredSetting {
  scope: string;
  name: string;
  value: unknown;
  updatedAt: number;
}

/** A sampling lot: its owner (the sampling feature) checks `value`. */
export interface StoredLot {
  id: string;
  scope: string;
  subscriptionId: string;
  createdAt: number;
  value: unknown;
}

export type ItemKey = [scope: string, subscriptionId: string, itemId: string];

export class ConsoleDb extends Dexie {
  items!: Table<StoredItem, ItemKey>;
  pages!: Table<StoredPage, number>;
  counts!: Table<StoredCount, [scope: string, subscriptionId: string]>;
  decisions!: Table<StoredDecision, string>;
  pulls!: Table<PullRecord, number>;
  settings!: Table<StoredSetting, [scope: string, name: string]>;
  lots!: Table<StoredLot, string>;

  /** Where writes are told (change-feed.ts): the app's feed unless a test hands its own. */
  readonly changes: ChangeFeed;

  /** What other modules keep in memory over this database (`owned`), by the function that made it. */
  private readonly parts = new Map<(db: ConsoleDb) => unknown, unknown>();

  constructor(name = 'dds-console', changes: ChangeFeed = localChanges()) {
    // No live queries here: Dexie's cache would clone every written row for nothing.
    super(name, { cache: 'disabled' });
    this.changes = changes;
    // One version: the store has no data of an earlier schema to upgrade (issue 24).
    this.version(1).stores({
      // Few indexes on purpose: each one is written for every item of every page (a 200-item page
      // took ~70 ms with four, ~35 ms with two). Scope and subscription ranges use the primary key.
      items: '[scope+subscriptionId+itemId], [scope+subscriptionId+open+seq]',
      // A page's ID comes from the database, so two tabs (or two writes in one millisecond) never share one.
      pages: '++id, [scope+subscriptionId]',
      counts: '[scope+subscriptionId]',
      decisions: 'id, scope, [scope+itemId], [scope+state]',
      pulls: '++id, [scope+subscriptionId]',
      settings: '[scope+name]',
      lots: 'id, scope, [scope+subscriptionId]',
    });
  }

  /**
   * The one object `create` makes for this database, made on first use: what a module keeps in
   * memory over the store (the flags waiting for a frame, the text indexes) lives with the database
   * it is about, so a test's own database starts with none of it.
   */
  owned<T>(create: (db: ConsoleDb) => T): T {
    if (!this.parts.has(create)) this.parts.set(create, create(this));
    return this.parts.get(create) as T;
  }
}

let instance: ConsoleDb | null = null;

/** The console's one database, opened on first use. */
export function localDb(): ConsoleDb {
  return (instance ??= new ConsoleDb());
}

/** For tests: use another database (a fresh name per test) and its change feed; null forgets both. */
export function setDatabaseForTests(db: ConsoleDb | null): void {
  instance = db;
  installLocalChanges(db?.changes ?? null);
}
