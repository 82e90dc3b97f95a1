import type { OutboxDeps, OutboxSnapshot } from './engine-types';
import type { OpenFlag } from '../store';
import { messageOf, stands, withoutMark } from './entry-changes';
import type { OutboxEntry } from './model';
import { Notifier } from './notifier';
import { ScopeEntries } from './scope-entries';
import { WriteBehind, type Write } from './write-behind';

const EMPTY: readonly OutboxEntry[] = [];

/**
 * What the outbox holds in memory, and the one way it changes: an entry is replaced (never
 * mutated) in its scope's index, painted at the next notification, and marked for the
 * write-behind (write-behind.ts). The commands (decision-commands.ts) and the engine (engine.ts:
 * scheduling and sending) build on it.
 */
export abstract class OutboxMemory {
  protected snapshot: OutboxSnapshot = { entries: {}, loaded: {}, others: {}, paused: {}, pausedSubscriptions: {}, writeError: null };
  /** This tab's entries per scope; `snapshot.entries` is rebuilt from them when read after a change. */
  protected readonly own = new Map<string, ScopeEntries>();
  protected readonly stale = new Set<string>();
  private readonly notifier: Notifier;
  /** Ids on the wire from this tab. */
  protected readonly inFlight = new Set<string>();
  /** The page is being left (`leave`), until it is shown again from the back/forward cache (`returned`). */
  protected leaving = false;
  /** How many times the page was left: a failure weighed across a stay in the back/forward cache still knows it. */
  protected leaves = 0;
  protected readonly writes: WriteBehind;
  protected readonly now: () => number;

  constructor(protected readonly deps: OutboxDeps) {
    this.now = deps.now ?? Date.now;
    this.notifier = new Notifier(deps.nextFrame);
    this.writes = new WriteBehind({
      store: deps.store,
      current: (scope, id) => this.own.get(scope)?.get(id),
      blocked: () => this.snapshot.writeError !== null,
      written: (scopes) => {
        for (const scope of scopes) deps.tabs.announce(scope);
        this.reopenWritten();
        this.pump();
      },
      fail: (error) => this.fail(error),
      afterPaint: deps.afterPaint,
    });
  }

  /** Re-examines due work (engine.ts). */
  abstract pump: () => void;
  /** Sets the timer for the next due work (engine.ts). */
  protected abstract schedule(): void;

  subscribe = (listener: () => void) => this.notifier.subscribe(listener);

  getSnapshot = () => {
    if (this.stale.size) {
      const entries = { ...this.snapshot.entries };
      for (const scope of this.stale) {
        const own = this.own.get(scope);
        if (own) entries[scope] = own.toArray();
        else delete entries[scope];
      }
      this.stale.clear();
      this.snapshot = { ...this.snapshot, entries };
    }
    return this.snapshot;
  };

  entriesOf(scope: string): readonly OutboxEntry[] {
    return this.own.get(scope)?.toArray() ?? EMPTY;
  }

  othersOf(scope: string): readonly OutboxEntry[] {
    return this.snapshot.others[scope] ?? EMPTY;
  }

  /** Resolves once every change made so far is written (false when a write failed). */
  async whenWritten(): Promise<boolean> {
    await this.writes.flushNow();
    return this.snapshot.writeError === null;
  }

  /** Runs what was left for after the paint now (also when the page is hidden or closed, or `whenWritten` waits). */
  readonly runDeferred = (): void => this.writes.runDeferred();

  /**
   * The page is being left: its writes start now, and the decisions not yet written also go to
   * the journal (engine-types.ts, `UnwrittenJournal`), which keeps them if the page ends first.
   */
  readonly leave = (): void => {
    this.leaving = true;
    this.leaves++;
    this.writes.runDeferred();
    const left = new Map<string, OutboxEntry>();
    for (const { scope, id } of this.writes.marked()) {
      const entry = this.own.get(scope)?.get(id);
      if (entry) left.set(id, entry);
    }
    // Queued ones carry the in-flight mark taken ahead for them (`lease`), which a page that finds
    // it must take for a request on the wire. This page knows they never left: the next need not
    // wait the mark out, nor ask again to pay for them as for an answer lost.
    for (const own of this.own.values()) {
      for (const id of own.queue) {
        const entry = own.get(id)!;
        if (entry.inFlightUntil !== undefined) left.set(id, withoutMark(entry));
      }
    }
    this.deps.journal?.save([...left.values()]);
  };

  /**
   * The page came back from the back/forward cache: it sends again. A request the browser dropped
   * as the page was left is not known to have failed: it waits out its in-flight mark (engine.ts).
   */
  readonly returned = (): void => {
    this.leaving = false;
    this.pump();
  };

  /** Writes again what could not be written (after a storage fault). */
  retryWrites(): void {
    this.snapshot = { ...this.snapshot, writeError: null };
    this.notify();
    this.writes.request();
  }

  /** Whether an entry's latest state that it must not be sent without is still unwritten. */
  protected readonly unwritten = (id: string): boolean => this.writes.unwritten(id);

  protected scopeEntries(scope: string): ScopeEntries {
    let own = this.own.get(scope);
    if (!own) this.own.set(scope, (own = new ScopeEntries()));
    return own;
  }

  /** Changes one entry in memory (O(1)); the caller tells listeners. */
  protected update(scope: string, entryId: string, change: (entry: OutboxEntry) => OutboxEntry, write: Write = true): void {
    const current = this.own.get(scope)?.get(entryId);
    if (!current) return;
    const next = change(current);
    if (next !== current) this.change(scope, next, write);
  }

  /**
   * Puts an entry in memory (painted at the next notification) and, unless `write` is false,
   * marks it for writing. Entries are replaced, never mutated.
   */
  protected change(scope: string, entry: OutboxEntry, write: Write = true): void {
    this.scopeEntries(scope).put(entry);
    this.stale.add(scope);
    if (write) this.writes.mark(scope, entry.id, write);
  }

  protected remove(scope: string, entryId: string): void {
    if (!this.own.get(scope)?.remove(entryId)) return;
    this.stale.add(scope);
    this.writes.markRemoved(scope, entryId);
  }

  /** A storage fault is loud: the UI shows a blocking notice until the user writes again. */
  protected fail(error: unknown): void {
    this.snapshot = { ...this.snapshot, writeError: `Decisions could not be saved on this device (${messageOf(error)}).` };
    this.notify();
  }

  protected markOpen(scope: string, entries: readonly OutboxEntry[], open: OpenFlag): void {
    const bySubscription = new Map<string, string[]>();
    for (const e of entries) {
      let ids = bySubscription.get(e.subscriptionId);
      if (!ids) bySubscription.set(e.subscriptionId, (ids = []));
      ids.push(e.itemId);
    }
    // The items' "undecided" flag only orders the review list: a failure there loses no decision.
    for (const [subscriptionId, itemIds] of bySubscription) this.deps.store.markOpen(scope, subscriptionId, itemIds, open).catch(() => undefined);
  }

  /**
   * Marks the items of undone or discarded decisions undecided again once their rows' change is
   * written: another tab's load closes items only where a decision's row still stands (engine
   * `closeStanding`), so a reopen written before the row's change could be undone by that close,
   * leaving the item closed for good. A change not written (a write failed: it waits for "Save
   * decisions again") waits with it. The flag is 'unless-decided': the store reopens the item only
   * if no decision row on it stands then (another tab's), and one this tab holds in memory,
   * recorded again meanwhile and maybe not written yet, keeps it closed here.
   */
  protected reopenAfterWrite(scope: string, gone: readonly OutboxEntry[]): void {
    if (gone.length === 0) return;
    this.reopening.push({ scope, entries: gone });
    void this.writes.settled().then(() => this.reopenWritten());
  }

  private reopening: { scope: string; entries: readonly OutboxEntry[] }[] = [];

  private reopenWritten(): void {
    const jobs = this.reopening;
    this.reopening = [];
    for (const { scope, entries } of jobs) {
      const waiting = entries.filter((e) => this.writes.has(e.id));
      if (waiting.length) this.reopening.push({ scope, entries: waiting });
      const written = entries.filter((e) => !this.writes.has(e.id));
      const others = this.othersOf(scope);
      const reopened = written.filter((e) => {
        const onItem = [...(this.own.get(scope)?.onItem(e.itemId) ?? []), ...others.filter((o) => o.itemId === e.itemId)];
        return !onItem.some((o) => o.id !== e.id && o.subscriptionId === e.subscriptionId && stands(o));
      });
      this.markOpen(scope, reopened, 'unless-decided');
    }
  }

  /** Tells listeners: urgent (what the user did) before the next paint, the rest at most every 100 ms (notifier.ts). */
  protected notify(urgent = true): void {
    this.notifier.notify(urgent);
  }
}
