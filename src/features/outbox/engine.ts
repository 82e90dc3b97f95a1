import { ApiError, ConnectionBlockedError, ContractError, NetworkError } from '../../api/errors';
import { DAY_MS, isCharged, PROBLEM_STATES, UNSENT_STATES, type NewDecision, type OutboxEntry } from './model';
import { readEntries, removeEntry, removeLegacy, writeEntry } from './storage';

/**
 * The open tabs of this console that share storage (a remembered connection's outbox is in
 * localStorage). A decision belongs to the tab that recorded it: only that tab sends it or
 * undoes it while it is open, and another tab takes it over once it is gone.
 */
export interface TabRegistry {
  /** This tab's id. */
  id: string;
  /** Calls `onGone` once the tab `owner` is no longer open: at once when it is not. */
  whenGone(owner: string, onGone: () => void): void;
}

export interface OutboxDeps {
  storageFor: (connectionId: string) => Storage | null;
  send: (entry: OutboxEntry) => Promise<unknown>;
  /** A 401 or 403: the key must be fixed; the engine pauses that connection. */
  onKeyRefused: (connectionId: string, error: ApiError) => void;
  isOnline: () => boolean;
  graceMs: () => number;
  now?: () => number;
  random?: () => number;
  concurrency?: number;
  maxAttempts?: number;
  retryBaseMs?: number;
  /** Without it (no Web Locks), every stored decision is this tab's to resume, as after a reload. */
  tabs?: TabRegistry;
}

export interface OutboxSnapshot {
  entries: Readonly<Record<string, readonly OutboxEntry[]>>;
  paused: Readonly<Record<string, string>>;
  /**
   * Decisions other open tabs recorded in shared storage (a remembered connection), read when
   * storage changes: shown, never sent or undone here. Those that leave storage after
   * `sending` were confirmed; they stay as `sent` for the rest of this visit.
   */
  others: Readonly<Record<string, readonly OutboxEntry[]>>;
}

/** What a user may drop: never a decision in flight or one the server confirmed. */
const DISCARDABLE: ReadonlySet<OutboxEntry['state']> = new Set(['failed', 'conflict', 'needs-confirmation', 'expired']);

const newEntryId = () => globalThis.crypto?.randomUUID?.() ?? `e${Date.now()}${Math.random().toString(36).slice(2)}`;

/**
 * The decision outbox: every decision is persisted first, sent after its grace window with
 * bounded concurrency, retried on network errors, 5xx and 429 with jittered backoff, and
 * never sent again once the server confirmed it. A 409 stops with the server's decision;
 * a 401/403 pauses the connection's outbox until its key is fixed.
 */
export class OutboxEngine {
  private snapshot: OutboxSnapshot = { entries: {}, paused: {}, others: {} };
  private readonly listeners = new Set<() => void>();
  private readonly loaded = new Set<string>();
  private readonly inFlight = new Set<string>();
  /** "<connection> <tab>" pairs whose tab this engine waits on to take over its decisions. */
  private readonly watching = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly now: () => number;
  private readonly random: () => number;

  constructor(private readonly deps: OutboxDeps) {
    this.now = deps.now ?? Date.now;
    this.random = deps.random ?? Math.random;
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  getSnapshot = () => this.snapshot;

  entriesOf(connectionId: string): readonly OutboxEntry[] {
    return this.snapshot.entries[connectionId] ?? [];
  }

  /**
   * Loads a connection's persisted outbox once. After a reload, free decisions resume by
   * themselves; charged ones wait for confirmation; anything unsent older than 24 h expires.
   * Decisions another open tab recorded stay with that tab until it closes.
   */
  load(connectionId: string): void {
    if (this.loaded.has(connectionId)) return;
    this.loaded.add(connectionId);
    const stored = readEntries(this.deps.storageFor(connectionId), connectionId);
    const { mine, others } = this.splitByOwner(stored);
    // Every loaded entry is new to this engine, so commit writes each under its own key (now owned by this tab).
    this.commit(connectionId, mine.flatMap((entry) => this.resumed(entry)));
    removeLegacy(this.deps.storageFor(connectionId), connectionId);
    this.watchOwners(connectionId, others);
    this.syncOthers(connectionId);
    this.pump();
  }

  /** What a stored decision becomes when this tab takes it over (after a reload, or from a closed tab). */
  private resumed(entry: OutboxEntry): OutboxEntry[] {
    const now = this.now();
    const owner = this.deps.tabs?.id;
    if (entry.state === 'sent') return [];
    if (entry.state === 'expired') return [{ ...entry, owner }];
    if (UNSENT_STATES.has(entry.state) && now - entry.createdAt >= DAY_MS) return [{ ...entry, state: 'expired', owner }];
    if (entry.state === 'grace' || entry.state === 'queued' || entry.state === 'sending') {
      return [isCharged(entry) ? { ...entry, state: 'needs-confirmation', owner } : { ...entry, state: 'queued', nextAttemptAt: now, owner }];
    }
    return [{ ...entry, owner }];
  }

  /** Entries of other tabs (by owner), and those without a living owner to take over now. */
  private splitByOwner(entries: readonly OutboxEntry[]): { mine: OutboxEntry[]; others: Set<string> } {
    const tabs = this.deps.tabs;
    const others = new Set<string>();
    const mine = entries.filter((entry) => {
      if (!tabs || !entry.owner || entry.owner === tabs.id) return true;
      others.add(entry.owner);
      return false;
    });
    return { mine, others };
  }

  /** Takes over each other tab's decisions once that tab is gone. */
  private watchOwners(connectionId: string, owners: ReadonlySet<string>): void {
    for (const owner of owners) {
      const watch = `${connectionId} ${owner}`;
      if (this.watching.has(watch)) continue;
      this.watching.add(watch);
      this.deps.tabs?.whenGone(owner, () => {
        this.watching.delete(watch);
        this.takeOver(connectionId, owner);
      });
    }
  }

  private takeOver(connectionId: string, gone: string): void {
    const current = this.entriesOf(connectionId);
    const known = new Set(current.map((e) => e.id));
    // Read again: the closed tab sent or undid some before it went, and a third tab may have taken them first.
    const stored = readEntries(this.deps.storageFor(connectionId), connectionId).filter((e) => !known.has(e.id));
    const taken = stored.filter((e) => e.owner === gone).flatMap((e) => this.resumed(e));
    this.watchOwners(connectionId, this.splitByOwner(stored.filter((e) => e.owner !== gone)).others);
    if (taken.length === 0) return;
    const takenIds = new Set(taken.map((e) => e.id));
    this.snapshot = { ...this.snapshot, others: { ...this.snapshot.others, [connectionId]: this.othersOf(connectionId).filter((e) => !takenIds.has(e.id)) } };
    this.commit(connectionId, [...current, ...taken]);
    this.pump();
  }

  /** Records a decision (persisted before this returns) and schedules it after the grace window. */
  enqueue(connectionId: string, decision: NewDecision, group?: string): OutboxEntry {
    this.load(connectionId);
    const current = this.entriesOf(connectionId);
    const existing = current.find((e) => e.itemId === decision.itemId && e.state !== 'grace' && e.state !== 'expired');
    if (existing && (UNSENT_STATES.has(existing.state) || existing.state === 'sent')) return existing;
    const now = this.now();
    const entry: OutboxEntry = {
      ...decision,
      id: newEntryId(),
      owner: this.deps.tabs?.id,
      ...(group ? { group } : {}),
      connectionId,
      createdAt: now,
      sendAfter: now + this.deps.graceMs(),
      state: 'grace',
      attempts: 0,
      nextAttemptAt: now + this.deps.graceMs(),
    };
    // A new decision on an item still in its grace window replaces the old one.
    const kept = current.filter((e) => e.itemId !== decision.itemId || (e.state !== 'grace' && !PROBLEM_STATES.has(e.state)));
    this.commit(connectionId, [...kept, entry]);
    this.pump();
    return entry;
  }

  /** Undoes the newest decision still inside its grace window; null when there is none. */
  undoLast(connectionId: string): OutboxEntry | null {
    return this.undoLatest(connectionId).at(-1) ?? null;
  }

  /**
   * Undoes the newest decision still inside its grace window, with the decisions recorded
   * together with it (a bulk decision is one undo); oldest first, empty when there is none.
   */
  undoLatest(connectionId: string): OutboxEntry[] {
    const candidates = this.entriesOf(connectionId).filter((e) => e.state === 'grace' && e.sendAfter > this.now());
    const last = candidates.reduce<OutboxEntry | null>((a, b) => (a && a.createdAt > b.createdAt ? a : b), null);
    if (!last) return [];
    const undone = last.group ? candidates.filter((e) => e.group === last.group) : [last];
    const ids = new Set(undone.map((e) => e.id));
    this.commit(connectionId, this.entriesOf(connectionId).filter((e) => !ids.has(e.id)));
    this.schedule();
    return undone;
  }

  /** Other tabs' decisions on a connection (see `OutboxSnapshot.others`). */
  othersOf(connectionId: string): readonly OutboxEntry[] {
    return this.snapshot.others[connectionId] ?? [];
  }

  /**
   * Reads again what other tabs keep in shared storage: call when storage changed in another tab.
   * An entry that left storage after `sending` was confirmed; one that left in its grace window was undone.
   */
  syncOthers(connectionId: string): void {
    if (!this.loaded.has(connectionId)) return;
    const mine = new Set(this.entriesOf(connectionId).map((e) => e.id));
    const stored = readEntries(this.deps.storageFor(connectionId), connectionId).filter((e) => !mine.has(e.id));
    const storedIds = new Set(stored.map((e) => e.id));
    const gone = this.othersOf(connectionId).filter((e) => !storedIds.has(e.id));
    // Only a decision on its way leaves storage by being confirmed (undo and discard take other states).
    const confirmed = gone.filter((e) => e.state === 'sent' || e.state === 'sending' || e.state === 'queued').map((e) => (e.state === 'sent' ? e : { ...e, state: 'sent' as const, sentAt: this.now() }));
    this.snapshot = { ...this.snapshot, others: { ...this.snapshot.others, [connectionId]: [...confirmed, ...stored] } };
    this.notify();
  }

  undo(connectionId: string, entryId: string): boolean {
    const entry = this.entriesOf(connectionId).find((e) => e.id === entryId);
    if (!entry || entry.state !== 'grace') return false;
    this.remove(connectionId, entryId);
    return true;
  }

  retry(connectionId: string, entryId: string): void {
    this.update(connectionId, entryId, (e) => (e.state === 'failed' ? { ...e, state: 'queued', attempts: 0, nextAttemptAt: this.now() } : e));
    this.pump();
  }

  /** Sends charged decisions found after a reload, once the user confirmed their total. */
  confirm(connectionId: string, entryIds: readonly string[]): void {
    const ids = new Set(entryIds);
    this.commit(
      connectionId,
      this.entriesOf(connectionId).map((e) => (ids.has(e.id) && e.state === 'needs-confirmation' ? { ...e, state: 'queued', nextAttemptAt: this.now() } : e)),
    );
    this.pump();
  }

  /** Drops entries the user chose not to send (failed, conflicting, unconfirmed or expired). */
  discard(connectionId: string, entryIds: readonly string[]): void {
    const ids = new Set(entryIds);
    this.commit(connectionId, this.entriesOf(connectionId).filter((e) => !(ids.has(e.id) && DISCARDABLE.has(e.state))));
  }

  /**
   * Sends a connection's unsent decisions now: those in their undo window, charged ones waiting
   * for confirmation and those waiting for a retry (the user asked, e.g. before removing it).
   */
  sendNow(connectionId: string): void {
    const now = this.now();
    this.commit(
      connectionId,
      this.entriesOf(connectionId).map((e) =>
        e.state === 'grace' || e.state === 'needs-confirmation' || e.state === 'queued'
          ? { ...e, state: 'queued', sendAfter: Math.min(e.sendAfter, now), nextAttemptAt: now }
          : e,
      ),
    );
    this.pump();
  }

  /** Forgets a connection's decisions (it is being removed), but not one already in flight. */
  discardAll(connectionId: string): void {
    this.commit(connectionId, this.entriesOf(connectionId).filter((e) => e.state === 'sending'));
    this.schedule();
  }

  isPaused(connectionId: string): string | null {
    return this.snapshot.paused[connectionId] ?? null;
  }

  resume(connectionId: string): void {
    if (!this.snapshot.paused[connectionId]) return;
    const { [connectionId]: _resumed, ...paused } = this.snapshot.paused;
    this.snapshot = { ...this.snapshot, paused };
    this.notify();
    this.pump();
  }

  /** Re-examines due work: call on timers, on `online`, after a resume. */
  pump = (): void => {
    const now = this.now();
    for (const [connectionId, entries] of Object.entries(this.snapshot.entries)) {
      if (entries.some((e) => e.state === 'grace' && e.sendAfter <= now)) {
        this.commit(
          connectionId,
          entries.map((e) => (e.state === 'grace' && e.sendAfter <= now ? { ...e, state: 'queued', nextAttemptAt: now } : e)),
        );
      }
    }
    if (this.deps.isOnline()) {
      const limit = this.deps.concurrency ?? 4;
      for (const [connectionId, entries] of Object.entries(this.snapshot.entries)) {
        if (this.snapshot.paused[connectionId]) continue;
        for (const entry of entries) {
          if (this.inFlight.size >= limit) break;
          if (entry.state === 'queued' && entry.nextAttemptAt <= now && !this.inFlight.has(entry.id)) void this.sendOne(entry);
        }
      }
    }
    this.schedule();
  };

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    let next = Infinity;
    for (const [connectionId, entries] of Object.entries(this.snapshot.entries)) {
      for (const e of entries) {
        if (e.state === 'grace') next = Math.min(next, e.sendAfter);
        if (e.state === 'queued' && !this.snapshot.paused[connectionId]) next = Math.min(next, e.nextAttemptAt);
      }
    }
    if (next === Infinity) return;
    this.timer = setTimeout(this.pump, Math.max(0, next - this.now()));
  }

  private async sendOne(entry: OutboxEntry): Promise<void> {
    const { connectionId } = entry;
    this.inFlight.add(entry.id);
    this.update(connectionId, entry.id, (e) => ({ ...e, state: 'sending', attempts: e.attempts + 1 }));
    try {
      await this.deps.send(entry);
      this.update(connectionId, entry.id, (e) => ({ ...e, state: 'sent', sentAt: this.now(), lastError: undefined }));
    } catch (error) {
      this.handleFailure(entry, error);
    } finally {
      this.inFlight.delete(entry.id);
      this.pump();
    }
  }

  private handleFailure(entry: OutboxEntry, error: unknown): void {
    const { connectionId } = entry;
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof ApiError && error.status === 409) {
      this.update(connectionId, entry.id, (e) => ({ ...e, state: 'conflict', recorded: error.recorded, lastError: message }));
      return;
    }
    if ((error instanceof ApiError && (error.status === 401 || error.status === 403)) || error instanceof ConnectionBlockedError) {
      // Nothing is lost: the entry waits in the queue until the key is fixed.
      this.update(connectionId, entry.id, (e) => ({ ...e, state: 'queued', attempts: Math.max(0, e.attempts - 1), nextAttemptAt: this.now(), lastError: message }));
      this.snapshot = { ...this.snapshot, paused: { ...this.snapshot.paused, [connectionId]: message } };
      this.notify();
      if (error instanceof ApiError) this.deps.onKeyRefused(connectionId, error);
      return;
    }
    const retryable =
      error instanceof NetworkError || (error instanceof ApiError && (error.status >= 500 || error.status === 429)) || error instanceof ContractError || !(error instanceof ApiError);
    const attempts = this.entriesOf(connectionId).find((e) => e.id === entry.id)?.attempts ?? entry.attempts + 1;
    if (retryable && attempts < (this.deps.maxAttempts ?? 8)) {
      const base = this.deps.retryBaseMs ?? 500;
      const delay = Math.min(30_000, base * 2 ** (attempts - 1)) * (0.5 + this.random() / 2);
      this.update(connectionId, entry.id, (e) => ({ ...e, state: 'queued', nextAttemptAt: this.now() + delay, lastError: message }));
      return;
    }
    this.update(connectionId, entry.id, (e) => ({ ...e, state: 'failed', lastError: message }));
  }

  private remove(connectionId: string, entryId: string): void {
    this.commit(connectionId, this.entriesOf(connectionId).filter((e) => e.id !== entryId));
    this.schedule();
  }

  private update(connectionId: string, entryId: string, change: (entry: OutboxEntry) => OutboxEntry): void {
    this.commit(connectionId, this.entriesOf(connectionId).map((e) => (e.id === entryId ? change(e) : e)));
  }

  /**
   * Updates a connection's entries and writes what changed to storage before returning: the
   * entries that are new or changed, each under its own key. Confirmed decisions stay in
   * memory for this visit only: once the service confirmed a decision it leaves storage, so
   * no reload can ever send it again, and storage holds only the backlog, not the visit's history.
   */
  private commit(connectionId: string, entries: OutboxEntry[]): void {
    const before = this.snapshot.entries[connectionId] ?? [];
    this.snapshot = { ...this.snapshot, entries: { ...this.snapshot.entries, [connectionId]: entries } };
    this.persistChanges(connectionId, before, entries);
    this.notify();
  }

  private persistChanges(connectionId: string, before: readonly OutboxEntry[], after: readonly OutboxEntry[]): void {
    const storage = this.deps.storageFor(connectionId);
    if (!storage) return;
    const stored = new Map(before.filter((e) => e.state !== 'sent').map((e) => [e.id, e]));
    for (const entry of after) {
      const previous = stored.get(entry.id);
      stored.delete(entry.id);
      // Entries are replaced, never mutated: the same object means nothing changed.
      if (previous === entry) continue;
      if (entry.state === 'sent') {
        if (previous) removeEntry(storage, connectionId, entry.id);
      } else writeEntry(storage, entry);
    }
    for (const gone of stored.keys()) removeEntry(storage, connectionId, gone);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
