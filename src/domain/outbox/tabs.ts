import type { ChangeFeed } from '../store/change-feed';

/**
 * The open tabs of this console. A decision belongs to the tab that recorded it: only that tab
 * sends or undoes it while it is open (its undo window is honoured), and any other open tab of
 * the same organization takes it over once it is gone.
 */
export interface TabRegistry {
  /** This tab's id (one per page load: a duplicated or reloaded tab gets a new one). */
  id: string;
  /** Calls `onGone` once the tab `owner` is no longer open: at once when it is not (or has no id). */
  whenGone(owner: string | undefined, onGone: () => void): void;
  /** Whether the tab `owner` is open now (without waiting for it); absent where that cannot be asked. */
  isOpen?(owner: string | undefined): Promise<boolean>;
  /** The page this tab showed before this one (a reload), if known: its decisions are this page's to carry on. */
  pageBefore?: string | null;
  /** Tells the other tabs that a scope's decisions changed in storage. */
  announce(scope: string): void;
  /** Calls `listener` with each scope another tab announced. */
  onAnnounce(listener: (scope: string) => void): void;
}

const newId = () => globalThis.crypto?.randomUUID?.() ?? `t${Date.now()}${Math.random().toString(36).slice(2)}`;

/** The id of the page this tab showed before this one (kept per tab, across reloads). */
const PAGE_BEFORE = 'dds.outbox.page-before';

function pageBefore(): string | null {
  try {
    return globalThis.sessionStorage?.getItem(PAGE_BEFORE) ?? null;
  } catch {
    return null; // Storage refused (a sandboxed or private context): every tab is asked about as any other.
  }
}

/**
 * Tabs through Web Locks and the local store's change feed. Each tab holds a lock named after it for
 * as long as it is open (the browser releases it when the tab closes or crashes), so asking for
 * another tab's lock is granted exactly when that tab is gone. The feed (one BroadcastChannel for
 * every table) tells open tabs of new and changed decisions as they happen, so they show them live
 * and learn whose to watch.
 * Web Locks need a secure context (https or localhost); without them no tab can be told alive,
 * and every stored decision is resumed as after a reload.
 */
export function browserTabs(feed: ChangeFeed): TabRegistry {
  const id = newId();
  const before = pageBefore();
  // A page being left names itself to the next page in this tab: right after a reload the browser
  // may still hold the old page's lock for a moment, and its decisions are not another tab's.
  globalThis.addEventListener?.('pagehide', () => {
    try {
      globalThis.sessionStorage?.setItem(PAGE_BEFORE, id);
    } catch {
      // Not kept: the next page asks about this one as about any tab.
    }
  });
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  const lockOf = (tab: string) => `dds.outbox.tab.${tab}`;
  // If the browser refuses the lock, other tabs take this tab's decisions over as after a reload.
  locks?.request(lockOf(id), () => new Promise<never>(() => {})).catch(() => undefined);
  return {
    id,
    pageBefore: before,
    whenGone(owner, onGone) {
      if (!owner || !locks) {
        queueMicrotask(onGone);
        return;
      }
      // Refused, the owner cannot be told alive: its decisions are resumed rather than left unsent.
      void locks.request(lockOf(owner), () => onGone()).catch(() => onGone());
    },
    async isOpen(owner) {
      // The page before this one in this tab is leaving or gone, whatever its lock says yet.
      if (!owner || !locks || owner === before) return false;
      // The held locks now; asking for the lock itself would wait for as long as the tab is open.
      const { held = [] } = await locks.query().catch(() => ({ held: [] }));
      return held.some((lock) => lock.name === lockOf(owner));
    },
    announce: (scope) => feed.publish({ scope, table: 'decisions' }),
    // This tab's own writes are in its memory already: only other tabs' are read back.
    onAnnounce: (listener) => void feed.subscribe((change, here) => !here && change.table === 'decisions' && listener(change.scope)),
  };
}
