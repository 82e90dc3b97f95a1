import { redactSecrets } from '../../lib/redact';
import type { ConsoleDb, OpenFlag } from '../store';
import { FINAL_STATES, outboxEntrySchema, type OutboxEntry } from './model';
import { ENTRY_STATES, standsOnItem, type EntryState } from './transitions';

const isEntryState = (state: string): state is EntryState => (ENTRY_STATES as readonly string[]).includes(state);
/** Whether a stored decision row stands on its item (read by the store's flag transactions). */
const standsNow = (row: { state: string }) => isEntryState(row.state) && standsOnItem(row.state);

/**
 * Where decisions live: the `decisions` table of the durable local store (IndexedDB), one row
 * per decision with its state, for every connection (decisions are not secrets). Rows are kept
 * once confirmed or discarded: they are the record of what was decided, and a confirmed one is
 * never sent, nor offered for payment, again.
 */
export interface DecisionStore {
  /** A scope's decisions, oldest first; damaged rows are skipped. */
  read(scope: string): Promise<OutboxEntry[]>;
  /** Writes entries and removes undone ones, in one transaction. */
  write(puts: readonly OutboxEntry[], deletes: readonly string[]): Promise<void>;
  /**
   * Takes over, atomically, the unfinished decisions of `scope` whose owner is `gone` (no owner
   * when undefined): each row is read and rewritten in one transaction, so when several tabs
   * notice the same closed tab, exactly one gets each decision.
   */
  claim(scope: string, gone: string | undefined, take: (entry: OutboxEntry) => OutboxEntry): Promise<OutboxEntry[]>;
  /**
   * Rewrites, atomically, the rows of `scope` that `change` changes (it returns the row itself
   * when not): each row is read and rewritten in one transaction, whichever tab owns it. Used for
   * decisions a team hub holds, which no tab sends, so any tab may record the hub's news of them.
   */
  settle(scope: string, change: (entry: OutboxEntry) => OutboxEntry): Promise<OutboxEntry[]>;
  /**
   * Keeps the items' "undecided" flag in step with decisions: 'unless-decided' reopens an item only
   * if no decision row on it (of that subscription) stands when the flag is written.
   */
  markOpen(scope: string, subscriptionId: string, itemIds: readonly string[], open: OpenFlag): Promise<void>;
  /**
   * Closes the items of decisions another page recorded, each only if its row still stands (or is
   * as it was read) when the flag is written, in the same transaction: another tab may undo or
   * discard it meanwhile, and its item must not stay closed for a decision that is gone.
   */
  closeWhereStanding(scope: string, entries: readonly OutboxEntry[]): Promise<void>;
  /** Removes the error texts (`lastError`) of every decision of a scope (Disconnect). */
  clearErrors(scope: string): Promise<void>;
}

/**
 * `lastError` holds a server's words: redacted on the way in, and on the way out for rows an
 * earlier version wrote unredacted.
 */
const redacted = (entry: OutboxEntry): OutboxEntry => (entry.lastError === undefined ? entry : { ...entry, lastError: redactSecrets(entry.lastError) });

function parseRow(row: unknown): OutboxEntry[] {
  const parsed = outboxEntrySchema.safeParse(row);
  return parsed.success ? [redacted(parsed.data)] : [];
}

/** A row is the entry itself: its id is the key, its scope, item and state are indexed. */
const toRow = (entry: OutboxEntry) => ({ ...redacted(entry) });

export function indexedDbStore(given?: ConsoleDb): DecisionStore {
  // The local store is loaded on first use, not with the first page (it carries Dexie). The import
  // is asked once: each `import()` goes through the bundler's preload helper (~0.1 ms per decision).
  let loading: Promise<typeof import('../store')> | undefined;
  const localStore = () => (loading ??= import('../store'));
  let opened: ConsoleDb | undefined = given;
  const database = async () => (opened ??= (await localStore()).localDb());
  return {
    async read(scope) {
      const rows = await (await database()).decisions.where('scope').equals(scope).toArray();
      return rows.flatMap(parseRow).sort((a, b) => a.createdAt - b.createdAt);
    },
    async write(puts, deletes) {
      const db = await database();
      const table = db.decisions;
      await db.transaction('rw', table, async () => {
        if (deletes.length) await table.bulkDelete([...deletes]);
        if (puts.length) await table.bulkPut(puts.map(toRow));
      });
    },
    async claim(scope, gone, take) {
      const db = await database();
      const table = db.decisions;
      return db.transaction('rw', table, async () => {
        const rows = (await table.where('scope').equals(scope).toArray()).flatMap(parseRow);
        const taken = rows.filter((e) => e.owner === gone && !FINAL_STATES.has(e.state)).map(take);
        if (taken.length) await table.bulkPut(taken.map(toRow));
        return taken;
      });
    },
    async settle(scope, change) {
      const db = await database();
      const table = db.decisions;
      return db.transaction('rw', table, async () => {
        const rows = (await table.where('scope').equals(scope).toArray()).flatMap(parseRow);
        const changed = rows.flatMap((row) => {
          const next = change(row);
          return next === row ? [] : [next];
        });
        if (changed.length) await table.bulkPut(changed.map(toRow));
        return changed;
      });
    },
    async markOpen(scope, subscriptionId, itemIds, open) {
      await (await localStore()).setOpen(await database(), scope, subscriptionId, itemIds, open, standsNow);
    },
    async closeWhereStanding(scope, entries) {
      const bySubscription = new Map<string, { itemId: string; entryId: string; state: string }[]>();
      for (const e of entries) {
        const group = bySubscription.get(e.subscriptionId) ?? bySubscription.set(e.subscriptionId, []).get(e.subscriptionId)!;
        group.push({ itemId: e.itemId, entryId: e.id, state: e.state });
      }
      const store = await localStore();
      const db = await database();
      for (const [subscriptionId, decisions] of bySubscription) await store.closeWhereStanding(db, scope, subscriptionId, decisions, standsNow);
    },
    async clearErrors(scope) {
      const db = await database();
      await db.decisions
        .where('scope')
        .equals(scope)
        .modify((row) => {
          delete row.lastError;
        });
    },
  };
}
