import { ApiError } from '../../api/errors';
import { redactSecrets } from '../../lib/redact';
import { FINAL_STATES, PROBLEM_STATES, UNSENT_STATES, type NewDecision, type OutboxEntry } from './model';
import { classifyFailure } from './retry-policy';
import { nextWake, pickSendable, promoteDue, resumed } from './scheduler';
import type { DecisionStore } from './store';
import type { TabRegistry } from './tabs';

export interface OutboxDeps {
  store: DecisionStore;
  send: (entry: OutboxEntry) => Promise<unknown>;
  /** A 401: the key must be replaced; the engine pauses the scope. */
  onKeyRefused: (scope: string, error: ApiError) => void;
  isOnline: () => boolean;
  graceMs: () => number;
  tabs: TabRegistry;
  /** Whether this tab can send a scope's decisions now (a connected key): a tab that cannot leaves a closed tab's decisions to one that can. */
  canSend?: (scope: string) => boolean;
  now?: () => number;
  random?: () => number;
  concurrency?: number;
  maxAttempts?: number;
  retryBaseMs?: number;
}

export interface OutboxSnapshot {
  /** Per scope: this tab's decisions, and every confirmed or discarded one (the record). */
  entries: Readonly<Record<string, readonly OutboxEntry[]>>;
  /** Per scope: unfinished decisions other open tabs own: shown here, never sent or undone here. */
  others: Readonly<Record<string, readonly OutboxEntry[]>>;
  /** Scopes that cannot send at all (key refused, disconnected), with why. */
  paused: Readonly<Record<string, string>>;
  /** Per scope, subscriptions the key may not use (403), with the service's words. */
  pausedSubscriptions: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** A decision could not be written to this device: nothing unwritten is sent. */
  writeError: string | null;
}

const newEntryId = () => globalThis.crypto?.randomUUID?.() ?? `e${Date.now()}${Math.random().toString(36).slice(2)}`;
/** An error's words, redacted: they may come from a server (an echo of the key) and are stored in `lastError`. */
const messageOf = (error: unknown) => redactSecrets(error instanceof Error ? error.message : String(error));
const withoutError = (entry: OutboxEntry): OutboxEntry => {
  if (entry.lastError === undefined) return entry;
  const { lastError: _dropped, ...rest } = entry;
  return rest;
};
const EMPTY: readonly OutboxEntry[] = [];

/**
 * The decision outbox. A decision is shown at once, written to the local store, and sent only
 * once that write committed and its undo window ended, with bounded concurrency, retried by
 * the retry policy, never sent again once the service confirmed it. The parts: `store`
 * (persistence), `scheduler` (what is due), `retry-policy` (what a failure leads to), `tabs`
 * (who owns what, across tabs). Everything is keyed by scope (organization on a base URL).
 */
export class OutboxEngine {
  private snapshot: OutboxSnapshot = { entries: {}, others: {}, paused: {}, pausedSubscriptions: {}, writeError: null };
  private readonly listeners = new Set<() => void>();
  private readonly loads = new Map<string, Promise<void>>();
  /** Scopes this tab shows and sends (loading or loaded). */
  private readonly scopes = new Set<string>();
  private readonly inFlight = new Set<string>();
  /** Entries whose latest state is not yet committed to the store (id -> change mark). */
  private readonly dirty = new Map<string, { scope: string }>();
  private flushChain: Promise<void> = Promise.resolve();
  private flushQueued = false;
  /** "<scope> <tab>" pairs whose tab this engine waits on to take over its decisions. */
  private readonly watching = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly now: () => number;
  private readonly random: () => number;

  constructor(private readonly deps: OutboxDeps) {
    this.now = deps.now ?? Date.now;
    this.random = deps.random ?? Math.random;
    deps.tabs.onAnnounce((scope) => void this.sync(scope).catch((error: unknown) => this.fail(error)));
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  getSnapshot = () => this.snapshot;

  entriesOf(scope: string): readonly OutboxEntry[] {
    return this.snapshot.entries[scope] ?? EMPTY;
  }
  othersOf(scope: string): readonly OutboxEntry[] {
    return this.snapshot.others[scope] ?? EMPTY;
  }

  /**
   * Loads a scope's decisions once (`imported`: entries found in an older storage, written
   * first unless the store holds them already). Decisions of tabs that are gone, or of no tab,
   * are taken over; those of open tabs are watched.
   */
  load(scope: string, imported: readonly OutboxEntry[] = []): Promise<void> {
    let loading = this.loads.get(scope);
    if (!loading) {
      loading = this.loadNow(scope, imported);
      this.loads.set(scope, loading);
    }
    return loading;
  }

  private async loadNow(scope: string, imported: readonly OutboxEntry[]): Promise<void> {
    this.scopes.add(scope);
    try {
      if (imported.length) {
        const held = new Set((await this.deps.store.read(scope)).map((e) => e.id));
        await this.deps.store.write(
          imported.filter((e) => !held.has(e.id)).map((e) => ({ ...e, scope, owner: undefined })),
          [],
        );
      }
      await this.sync(scope);
    } catch (error) {
      this.loads.delete(scope);
      this.scopes.delete(scope);
      this.fail(error);
    }
  }

  /**
   * Reads a scope again (another tab announced a change): confirmed and discarded decisions
   * join the record, other tabs' unfinished ones are shown, and their owners are watched.
   * This tab's own unfinished decisions, and any not yet written, stay as memory holds them.
   */
  async sync(scope: string): Promise<void> {
    if (!this.scopes.has(scope)) return;
    const rows = await this.deps.store.read(scope);
    const me = this.deps.tabs.id;
    const kept = this.entriesOf(scope).filter((e) => this.dirty.has(e.id) || (e.owner === me && !FINAL_STATES.has(e.state)));
    const keptIds = new Set(kept.map((e) => e.id));
    const finals: OutboxEntry[] = [];
    const others: OutboxEntry[] = [];
    for (const row of rows) {
      // Held in memory, or changed here and not yet written (an undo not yet written must not come back).
      if (keptIds.has(row.id) || this.dirty.has(row.id)) continue;
      if (FINAL_STATES.has(row.state)) finals.push(row);
      else if (row.owner === me) kept.push(row);
      else others.push(row);
    }
    const entries = [...finals, ...kept].sort((a, b) => a.createdAt - b.createdAt);
    this.snapshot = { ...this.snapshot, entries: { ...this.snapshot.entries, [scope]: entries }, others: { ...this.snapshot.others, [scope]: others } };
    this.notify();
    this.watchOwners(scope, new Set(others.map((e) => e.owner)));
    this.pump();
  }

  /** Takes over each other tab's decisions once that tab is gone. */
  private watchOwners(scope: string, owners: ReadonlySet<string | undefined>): void {
    for (const owner of owners) {
      const watch = `${scope} ${owner ?? ''}`;
      if (this.watching.has(watch)) continue;
      this.watching.add(watch);
      this.deps.tabs.whenGone(owner, () => {
        this.watching.delete(watch);
        void this.takeOver(scope, owner);
      });
    }
  }

  private async takeOver(scope: string, gone: string | undefined): Promise<void> {
    // Not watched any more: the next read of the scope (a broadcast, a resume) tries again.
    if (this.deps.canSend && !this.deps.canSend(scope)) return;
    try {
      const taken = await this.deps.store.claim(scope, gone, (e) => resumed(e, this.deps.tabs.id, this.now()));
      if (taken.length === 0) return;
      const ids = new Set(taken.map((e) => e.id));
      this.snapshot = { ...this.snapshot, others: { ...this.snapshot.others, [scope]: this.othersOf(scope).filter((e) => !ids.has(e.id)) } };
      this.commit(scope, [...this.entriesOf(scope).filter((e) => !ids.has(e.id)), ...taken], false);
      this.deps.tabs.announce(scope);
      this.pump();
    } catch (error) {
      this.fail(error);
    }
  }

  /** Records a decision: shown at once, written before it can be sent, sent after its undo window. */
  enqueue(scope: string, decision: NewDecision, group?: string, connectionId = ''): OutboxEntry {
    void this.load(scope);
    const current = this.entriesOf(scope);
    const standing = (e: OutboxEntry) => e.itemId === decision.itemId && (UNSENT_STATES.has(e.state) || e.state === 'sent');
    // Another tab's decision on the item, or one already on its way or confirmed, stands.
    const existing = this.othersOf(scope).find(standing) ?? current.find((e) => standing(e) && e.state !== 'grace');
    if (existing) return existing;
    const now = this.now();
    const entry: OutboxEntry = {
      ...decision,
      id: newEntryId(),
      scope,
      connectionId,
      owner: this.deps.tabs.id,
      ...(group ? { group } : {}),
      createdAt: now,
      sendAfter: now + this.deps.graceMs(),
      state: 'grace',
      attempts: 0,
      nextAttemptAt: now + this.deps.graceMs(),
    };
    // A new decision on an item still in its undo window (or failed) replaces the old one.
    const kept = current.filter((e) => e.itemId !== decision.itemId || (e.state !== 'grace' && !PROBLEM_STATES.has(e.state)));
    this.commit(scope, [...kept, entry]);
    this.markOpen(scope, [entry], 0);
    this.pump();
    return entry;
  }

  /** Undoes the newest decision still inside its undo window; null when there is none. */
  undoLast(scope: string): OutboxEntry | null {
    return this.undoLatest(scope).at(-1) ?? null;
  }

  /** Undoes the newest decision in its undo window with those recorded with it; oldest first. */
  undoLatest(scope: string): OutboxEntry[] {
    const candidates = this.entriesOf(scope).filter((e) => e.state === 'grace' && e.sendAfter > this.now());
    const last = candidates.reduce<OutboxEntry | null>((a, b) => (a && a.createdAt > b.createdAt ? a : b), null);
    if (!last) return [];
    const undone = last.group ? candidates.filter((e) => e.group === last.group) : [last];
    this.removeEntries(scope, undone);
    return undone;
  }

  undo(scope: string, entryId: string): boolean {
    const entry = this.entriesOf(scope).find((e) => e.id === entryId);
    if (!entry || entry.state !== 'grace') return false;
    this.removeEntries(scope, [entry]);
    return true;
  }

  private removeEntries(scope: string, gone: readonly OutboxEntry[]): void {
    const ids = new Set(gone.map((e) => e.id));
    this.commit(
      scope,
      this.entriesOf(scope).filter((e) => !ids.has(e.id)),
    );
    this.markOpen(scope, gone, 1);
    this.schedule();
  }

  retry(scope: string, entryId: string): void {
    this.update(scope, entryId, (e) => (e.state === 'failed' ? { ...e, state: 'queued', attempts: 0, nextAttemptAt: this.now() } : e));
    this.pump();
  }

  /** Sends charged decisions found after a reload or taken over, once the user confirmed their total. */
  confirm(scope: string, entryIds: readonly string[]): void {
    const ids = new Set(entryIds);
    this.commit(
      scope,
      this.entriesOf(scope).map((e) => (ids.has(e.id) && e.state === 'needs-confirmation' ? { ...e, state: 'queued', nextAttemptAt: this.now() } : e)),
    );
    this.pump();
  }

  /** What the user may discard: a decision that failed, conflicts, waits for confirmation, expired, or is stuck behind a refusal. */
  isDiscardable(scope: string, entry: OutboxEntry): boolean {
    if (entry.state === 'failed' || entry.state === 'conflict' || entry.state === 'needs-confirmation' || entry.state === 'expired') return true;
    const stuck = this.snapshot.paused[scope] !== undefined || this.snapshot.pausedSubscriptions[scope]?.[entry.subscriptionId] !== undefined;
    return stuck && (entry.state === 'queued' || entry.state === 'grace') && !this.inFlight.has(entry.id);
  }

  /** Marks decisions discarded: never sent, kept and listed as discarded; their items are undecided again. */
  discard(scope: string, entryIds: readonly string[]): void {
    const ids = new Set(entryIds);
    const now = this.now();
    const dropped: OutboxEntry[] = [];
    const next = this.entriesOf(scope).map((e) => {
      if (!ids.has(e.id) || !this.isDiscardable(scope, e)) return e;
      dropped.push(e);
      return { ...e, state: 'discarded' as const, discardedAt: now };
    });
    if (dropped.length === 0) return;
    this.commit(scope, next);
    // The service holds a decision on a conflicting item: that one stays decided.
    this.markOpen(
      scope,
      dropped.filter((e) => e.state !== 'conflict'),
      1,
    );
    this.schedule();
  }

  /** Sends a scope's unsent decisions now (undo windows, confirmations and retry waits end). */
  sendNow(scope: string): void {
    const now = this.now();
    this.commit(
      scope,
      this.entriesOf(scope).map((e) =>
        e.state === 'grace' || e.state === 'needs-confirmation' || e.state === 'queued'
          ? { ...e, state: 'queued', sendAfter: Math.min(e.sendAfter, now), nextAttemptAt: now }
          : e,
      ),
    );
    this.pump();
  }

  /** Discards every unsent decision of this tab in a scope (its connection is being removed), not one in flight. */
  discardAll(scope: string): void {
    const now = this.now();
    const dropped: OutboxEntry[] = [];
    const next = this.entriesOf(scope).map((e) => {
      if (FINAL_STATES.has(e.state) || this.inFlight.has(e.id) || e.state === 'sending') return e;
      dropped.push(e);
      return { ...e, state: 'discarded' as const, discardedAt: now };
    });
    this.commit(scope, next);
    this.markOpen(
      scope,
      dropped.filter((e) => e.state !== 'conflict'),
      1,
    );
    this.schedule();
  }

  /** Moves a scope's decisions to another (a connection's organization became known). */
  async rescope(from: string, to: string): Promise<void> {
    if (from === to) return;
    await this.flushChain;
    await this.deps.store.rescope(from, to);
    const { [from]: _entries, ...entries } = this.snapshot.entries;
    const { [from]: _others, ...others } = this.snapshot.others;
    this.snapshot = { ...this.snapshot, entries, others };
    this.loads.delete(from);
    this.scopes.delete(from);
    this.loads.delete(to);
    await this.load(to);
  }

  isPaused(scope: string): string | null {
    return this.snapshot.paused[scope] ?? null;
  }

  /** Sends again after the key was fixed: lifts the scope's pause and its subscriptions' pauses. */
  resume(scope: string, subscriptionsToo = true): void {
    const paused = { ...this.snapshot.paused };
    const pausedSubscriptions = { ...this.snapshot.pausedSubscriptions };
    const had = paused[scope] !== undefined || (subscriptionsToo && pausedSubscriptions[scope] !== undefined);
    if (!had) {
      if (subscriptionsToo) void this.sync(scope).catch((error: unknown) => this.fail(error));
      return;
    }
    delete paused[scope];
    if (subscriptionsToo) delete pausedSubscriptions[scope];
    this.snapshot = { ...this.snapshot, paused, pausedSubscriptions };
    this.notify();
    this.pump();
    // Decisions of closed tabs left alone while this tab could not send are taken over now.
    void this.sync(scope).catch((error: unknown) => this.fail(error));
  }

  /** Forgets a scope in memory (its local data was deleted): nothing is written. */
  forget(scope: string): void {
    const { [scope]: _entries, ...entries } = this.snapshot.entries;
    const { [scope]: _others, ...others } = this.snapshot.others;
    const { [scope]: _paused, ...paused } = this.snapshot.paused;
    const { [scope]: _subs, ...pausedSubscriptions } = this.snapshot.pausedSubscriptions;
    for (const [id, mark] of this.dirty) if (mark.scope === scope) this.dirty.delete(id);
    this.loads.delete(scope);
    this.scopes.delete(scope);
    this.snapshot = { ...this.snapshot, entries, others, paused, pausedSubscriptions };
    this.notify();
    this.schedule();
  }

  /**
   * Forgets the error texts of a scope's decisions, in memory and in every stored row, other
   * tabs' included (Disconnect: a server's words are not kept once the key is gone). The decisions
   * themselves stay.
   */
  async clearErrors(scope: string): Promise<void> {
    const entries = this.entriesOf(scope);
    const others = this.othersOf(scope);
    // In memory first, unwritten: a write already queued then writes the entry without its text.
    if (entries.some((e) => e.lastError !== undefined)) this.commit(scope, entries.map(withoutError), false);
    if (others.some((e) => e.lastError !== undefined)) {
      this.snapshot = { ...this.snapshot, others: { ...this.snapshot.others, [scope]: others.map(withoutError) } };
      this.notify();
    }
    await this.flushChain;
    await this.deps.store.clearErrors(scope);
  }

  /** Writes again what could not be written (after a storage fault). */
  retryWrites(): void {
    this.snapshot = { ...this.snapshot, writeError: null };
    this.notify();
    this.requestFlush();
  }

  /** Re-examines due work: call on timers, on `online`, after a resume. */
  pump = (): void => {
    const now = this.now();
    for (const [scope, entries] of Object.entries(this.snapshot.entries)) {
      const promoted = promoteDue(entries, now);
      if (promoted !== entries) this.commit(scope, [...promoted]);
    }
    if (this.deps.isOnline()) {
      const limit = this.deps.concurrency ?? 4;
      for (const [scope, entries] of Object.entries(this.snapshot.entries)) {
        const picked = pickSendable(entries, now, limit - this.inFlight.size, {
          scopePaused: this.snapshot.paused[scope] !== undefined,
          pausedSubscriptions: this.snapshot.pausedSubscriptions[scope] ?? {},
          unwritten: (id) => this.dirty.has(id),
          inFlight: (id) => this.inFlight.has(id),
        });
        for (const entry of picked) void this.sendOne(scope, entry);
      }
    }
    this.schedule();
  };

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    let next = Infinity;
    const canSend = this.deps.isOnline() && this.inFlight.size < (this.deps.concurrency ?? 4);
    for (const [scope, entries] of Object.entries(this.snapshot.entries)) {
      next = Math.min(
        next,
        nextWake(entries, {
          scopePaused: this.snapshot.paused[scope] !== undefined,
          pausedSubscriptions: this.snapshot.pausedSubscriptions[scope] ?? {},
          unwritten: (id) => this.dirty.has(id),
          canSend,
        }),
      );
    }
    if (next === Infinity) return;
    this.timer = setTimeout(this.pump, Math.max(0, next - this.now()));
  }

  private async sendOne(scope: string, entry: OutboxEntry): Promise<void> {
    this.inFlight.add(entry.id);
    this.update(scope, entry.id, (e) => ({ ...e, state: 'sending', attempts: e.attempts + 1 }));
    try {
      await this.deps.send(entry);
      this.update(scope, entry.id, (e) => ({ ...e, state: 'sent', sentAt: this.now(), lastError: undefined }));
    } catch (error) {
      this.handleFailure(scope, entry, error);
    } finally {
      this.inFlight.delete(entry.id);
      this.pump();
    }
  }

  private handleFailure(scope: string, entry: OutboxEntry, error: unknown): void {
    const message = messageOf(error);
    const attempts = this.entriesOf(scope).find((e) => e.id === entry.id)?.attempts ?? entry.attempts + 1;
    const outcome = classifyFailure(error, { attempts, maxAttempts: this.deps.maxAttempts, baseMs: this.deps.retryBaseMs, random: this.random });
    // A refusal is not the decision's fault: it waits, its attempt uncounted, until the key is fixed.
    const wait = (e: OutboxEntry): OutboxEntry => ({
      ...e,
      state: 'queued',
      attempts: Math.max(0, e.attempts - 1),
      nextAttemptAt: this.now(),
      lastError: message,
    });
    switch (outcome.kind) {
      case 'conflict':
        this.update(scope, entry.id, (e) => ({ ...e, state: 'conflict', recorded: outcome.recorded, lastError: message }));
        return;
      case 'pause-scope':
        this.update(scope, entry.id, wait);
        this.snapshot = { ...this.snapshot, paused: { ...this.snapshot.paused, [scope]: message } };
        this.notify();
        if (outcome.refusedKey && error instanceof ApiError) this.deps.onKeyRefused(scope, error);
        return;
      case 'pause-subscription': {
        this.update(scope, entry.id, wait);
        const subs = { ...this.snapshot.pausedSubscriptions[scope], [entry.subscriptionId]: message };
        this.snapshot = { ...this.snapshot, pausedSubscriptions: { ...this.snapshot.pausedSubscriptions, [scope]: subs } };
        this.notify();
        return;
      }
      case 'retry':
        this.update(scope, entry.id, (e) => ({ ...e, state: 'queued', nextAttemptAt: this.now() + outcome.delayMs, lastError: message }));
        return;
      case 'failed':
        this.update(scope, entry.id, (e) => ({ ...e, state: 'failed', lastError: message }));
    }
  }

  private update(scope: string, entryId: string, change: (entry: OutboxEntry) => OutboxEntry): void {
    this.commit(
      scope,
      this.entriesOf(scope).map((e) => (e.id === entryId ? change(e) : e)),
    );
  }

  /**
   * Replaces a scope's entries in memory (painted at once) and marks what changed for writing.
   * Entries are replaced, never mutated: the same object means nothing changed.
   */
  private commit(scope: string, entries: OutboxEntry[], write = true): void {
    const before = this.entriesOf(scope);
    this.snapshot = { ...this.snapshot, entries: { ...this.snapshot.entries, [scope]: entries } };
    if (write) {
      const afterIds = new Set(entries.map((e) => e.id));
      const previous = new Set(before);
      for (const e of entries) if (!previous.has(e)) this.dirty.set(e.id, { scope });
      for (const e of before) if (!afterIds.has(e.id)) this.dirty.set(e.id, { scope });
      this.requestFlush();
    }
    this.notify();
  }

  private requestFlush(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    this.flushChain = this.flushChain.then(() => {
      this.flushQueued = false;
      return this.flush();
    });
  }

  /** Writes the current state of every changed entry; an entry changed again meanwhile stays marked. */
  private async flush(): Promise<void> {
    if (this.dirty.size === 0 || this.snapshot.writeError) return;
    const batch = [...this.dirty.entries()];
    const puts: OutboxEntry[] = [];
    const deletes: string[] = [];
    for (const [id, { scope }] of batch) {
      const current = this.entriesOf(scope).find((e) => e.id === id);
      if (current) puts.push(current);
      else deletes.push(id);
    }
    try {
      await this.deps.store.write(puts, deletes);
    } catch (error) {
      this.fail(error);
      return;
    }
    for (const [id, mark] of batch) if (this.dirty.get(id) === mark) this.dirty.delete(id);
    for (const scope of new Set(batch.map(([, mark]) => mark.scope))) this.deps.tabs.announce(scope);
    this.pump();
  }

  /** A storage fault is loud: the UI shows a blocking notice until the user writes again. */
  private fail(error: unknown): void {
    this.snapshot = { ...this.snapshot, writeError: `Decisions could not be saved on this device (${messageOf(error)}).` };
    this.notify();
  }

  private markOpen(scope: string, entries: readonly OutboxEntry[], open: 0 | 1): void {
    const bySubscription = new Map<string, string[]>();
    for (const e of entries) bySubscription.set(e.subscriptionId, [...(bySubscription.get(e.subscriptionId) ?? []), e.itemId]);
    // The items' "undecided" flag only orders the review list: a failure there loses no decision.
    for (const [subscriptionId, itemIds] of bySubscription) this.deps.store.markOpen(scope, subscriptionId, itemIds, open).catch(() => undefined);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
