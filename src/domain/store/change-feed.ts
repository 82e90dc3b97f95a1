import type { StoredItem } from './stored-item';

/**
 * One channel for changes to the local store: this tab's listeners hear a change at once, the
 * other tabs of the origin through one BroadcastChannel, so what one tab writes shows in every tab.
 * Every change has one shape, `{ scope, table, ids? }`; readers re-read what it names (queries by
 * their key, `localKey`, invalidated in one place: src/app/local-invalidation.ts).
 *
 * Created by the app (src/app/local-store.ts), never at import; a test makes its own.
 */
const LOCAL_TABLES = ['items', 'lots', 'settings', 'decisions'] as const;
export type LocalTable = (typeof LOCAL_TABLES)[number];

export interface LocalChange {
  /** Whose data: the organization on a base URL (docs/architecture.md, "Words"). */
  scope: string;
  table: LocalTable;
  /**
   * Which rows, absent for "any of the scope": subscription IDs for `items`, lot IDs for `lots`,
   * setting names for `settings`, decision IDs for `decisions`.
   */
  ids?: readonly string[];
  /**
   * `items` only: rows were added and nothing else changed, so a list may read only the rows after
   * its last one instead of reading everything again (a deletion is a change without it).
   */
  appended?: boolean;
}

/** A change as this tab's listeners hear it: the tab that wrote the items also hands over the rows it added. */
export interface LocalChangeHere extends LocalChange {
  /** This tab only, never posted: the rows a write added, committed, so a list shows them without reading them back. */
  rows?: readonly StoredItem[];
}

/** `here`: the change was made in this tab (a listener that applied it already may skip it: the outbox's tab sync). */
type LocalChangeListener = (change: LocalChangeHere, here: boolean) => void;

export interface ChangeFeed {
  /** Tells this tab's listeners (with `rows`) and the other tabs (without). Call once the write committed. */
  publish(change: LocalChangeHere): void;
  /** Returns the unsubscribe. */
  subscribe(listener: LocalChangeListener): () => void;
  close(): void;
}

const isChange = (data: unknown): data is LocalChange => {
  const c = data as Partial<LocalChange> | null;
  return (
    typeof c?.scope === 'string' &&
    (LOCAL_TABLES as readonly unknown[]).includes(c.table) &&
    (c.ids === undefined || (Array.isArray(c.ids) && c.ids.every((id) => typeof id === 'string')))
  );
};

/**
 * A feed over the BroadcastChannel `channelName` (null: this tab only, as tests want). The
 * channel is opened on first use, so a feed nobody uses costs nothing.
 */
export function createChangeFeed(channelName: string | null): ChangeFeed {
  const listeners = new Set<LocalChangeListener>();
  let channel: BroadcastChannel | null | undefined;
  const open = (): BroadcastChannel | null => {
    if (channel !== undefined) return channel;
    channel = channelName === null || typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(channelName);
    channel?.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (!isChange(event.data)) return;
      const { scope, table, ids, appended } = event.data;
      const change: LocalChange = { scope, table, ...(ids ? { ids } : {}), ...(appended ? { appended } : {}) };
      for (const listener of listeners) listener(change, false);
    });
    return channel;
  };
  return {
    publish(change) {
      for (const listener of listeners) listener(change, true);
      const { rows: _rows, ...told } = change;
      open()?.postMessage(told);
    },
    subscribe(listener) {
      open();
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      listeners.clear();
      channel?.close();
      channel = null;
    },
  };
}

/** Whether a change concerns the row `id` of `table` in `scope` (any row when `id` is absent). */
export function touches(change: LocalChange, scope: string | null, table: LocalTable, id?: string): boolean {
  return change.scope === scope && change.table === table && (id === undefined || !change.ids || change.ids.includes(id));
}

/**
 * The query key of a read of the local store: `['dds', 'local', scope, table, id?, …what else the
 * read depends on]`. A change invalidates the reads of its table in its scope, only those of its
 * rows when it names them (`changedKeys`).
 */
export const localKey = (scope: string | null, table: LocalTable, id?: string | readonly string[]) =>
  id === undefined ? (['dds', 'local', scope, table] as const) : (['dds', 'local', scope, table, id] as const);

/** Whether a query key (`localKey`) reads what a change names. */
export function readsChange(queryKey: readonly unknown[], change: LocalChange): boolean {
  if (queryKey[0] !== 'dds' || queryKey[1] !== 'local' || queryKey[2] !== change.scope || queryKey[3] !== change.table) return false;
  const read = queryKey[4];
  if (!change.ids || read === undefined) return true;
  const readIds: readonly unknown[] = Array.isArray(read) ? read : [read];
  return readIds.some((id) => change.ids!.includes(id as string));
}

// The feed the app created (src/app/local-store.ts), for code outside React that writes or listens.
let installed: ChangeFeed | null = null;

/** The app hands its feed over once, at start (tests may hand their own, or null to forget it). */
export function installLocalChanges(feed: ChangeFeed | null): void {
  installed = feed;
}

/** The app's feed; until the app installed one (a unit test), one of this tab only. */
export function localChanges(): ChangeFeed {
  return (installed ??= createChangeFeed(null));
}
