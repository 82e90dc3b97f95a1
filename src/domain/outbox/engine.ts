import { ApiError } from '../../api/errors';
import { redactSecrets } from '../../lib/redact';
import {
  CANCELLABLE_STATES,
  FINAL_STATES,
  HOLDABLE_STATES,
  IN_FLIGHT_MS,
  isCharged,
  PROBLEM_STATES,
  UNSENT_STATES,
  type NewDecision,
  type OutboxEntry,
} from './model';
import { Notifier } from './notifier';
import { classifyFailure } from './retry-policy';
import { isDiscardableState, move } from './transitions';
import { lostAnswer, nextWake, pickSendable, promoteDue, resumed } from './scheduler';
import { ScopeEntries } from './scope-entries';
import type { DecisionStore } from './store';
import type { TabRegistry } from './tabs';

/**
 * Budgets (budget-gate.ts): a charged decision leaves only once the gate said it fits every limit.
 * The gate decides a batch under a lock shared by the tabs, over every tab's stored decisions,
 * and writes its word in the same transaction, so two tabs cannot together pass a limit.
 */
export interface BudgetGate {
  /** Whether a charged decision of this subscription must wait for the gate (answered from memory: no read). */
  applies(scope: string, subscriptionId: string): boolean;
  /**
   * Decides `candidates` (oldest first) and writes each outcome: cleared (`budget` set, state
   * unchanged or back to 'queued') or 'held-budget' with `heldBy`. Returns the decided entries;
   * one whose stored row no longer matches the candidate is left out.
   */
  decide(scope: string, candidates: readonly OutboxEntry[], tab: string): Promise<OutboxEntry[]>;
  /** Calls `listener` with each scope whose budgets changed (here or in another tab): held decisions are weighed again. */
  onChange(listener: (scope: string) => void): void;
}

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
  /** Runs `fn` once before the next paint (background changes are told to listeners once per frame). */
  nextFrame?: (fn: () => void) => void;
  /**
   * Runs `fn` after the next paint: what a recorded decision needs besides memory (its write, the
   * items' flag, the pump) waits there, off the keypress's frame. Without it, that work runs at once.
   * The decision cannot be sent before its write committed either way (`dirty` holds it).
   */
  afterPaint?: (fn: () => void) => void;
  /** Budgets: without a gate, charged decisions are sent as free ones are. */
  budget?: BudgetGate;
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

/** What `enqueueMany` did: the decisions recorded, and those skipped with the decision that stands on their item. */
export interface EnqueueManyResult {
  recorded: OutboxEntry[];
  skipped: { decision: NewDecision; standing: OutboxEntry }[];
}

const newEntryId = () => globalThis.crypto?.randomUUID?.() ?? `e${Date.now()}${Math.random().toString(36).slice(2)}`;
/** An error's words, redacted: they may come from a server (an echo of the key) and are stored in `lastError`. */
const messageOf = (error: unknown) => redactSecrets(error instanceof Error ? error.message : String(error));
const withoutError = (entry: OutboxEntry): OutboxEntry => {
  if (entry.lastError === undefined) return entry;
  const { lastError: _dropped, ...rest } = entry;
  return rest;
};
const withoutMark = (entry: OutboxEntry): OutboxEntry => {
  if (entry.inFlightUntil === undefined) return entry;
  const { inFlightUntil: _landed, ...rest } = entry;
  return rest;
};
const released = (entry: OutboxEntry): OutboxEntry => {
  const { held: _dropped, ...rest } = entry;
  return rest;
};
const EMPTY: readonly OutboxEntry[] = [];
/**
 * Whether a change is written: at once, with the next batch of a stream's answers ('soon'), with
 * the next batch without holding the entry back from sending ('lazy'), or not (memory only).
 */
type Write = boolean | 'soon' | 'lazy';
const WRITE_BATCH_MS = 100;
/** How many queued decisions one in-flight mark write covers (`lease`). */
const LEASE_AHEAD = 128;
/** After a gate that failed (storage, lock), the next try waits this long rather than spin. */
const GATE_RETRY_MS = 1_000;

/**
 * A charged decision found after a reload, confirmed: what the budget gate cleared in an earlier
 * visit (or day) is weighed again against the limits of now; one the user released stays released,
 * and one already tried stays cleared (the service may hold it: it is sent again, never held back).
 */
function regated(entry: OutboxEntry): OutboxEntry {
  if (!entry.budget || entry.budget.released || entry.attempts > 0) return entry;
  const { budget: _earlier, ...rest } = entry;
  return rest;
}
/** A decision on an item that stands: on its way, waiting for confirmation, or confirmed. */
const stands = (e: OutboxEntry) => UNSENT_STATES.has(e.state) || e.state === 'sent';

/**
 * The decision outbox. A decision is shown at once, written to the local store, and sent only
 * once that write committed and its undo window ended, with bounded concurrency, retried by
 * the retry policy, never sent again once the service confirmed it. The parts: `store`
 * (persistence), `scheduler` (what is due), `retry-policy` (what a failure leads to), `tabs`
 * (who owns what, across tabs). Everything is keyed by scope (organization on a base URL).
 *
 * Built for runs of 10,000 decisions: entries are indexed (`ScopeEntries`), so a state change is
 * O(1); the scheduler scans only what is in its undo window or queued; changes are written in
 * batches (whatever changed while the previous write ran goes in the next transaction); and the
 * UI is told once per frame of the stream of answers, at once of what the user did.
 */
export class OutboxEngine {
  private snapshot: OutboxSnapshot = { entries: {}, others: {}, paused: {}, pausedSubscriptions: {}, writeError: null };
  /** This tab's entries per scope; `snapshot.entries` is rebuilt from them when read after a change. */
  private readonly own = new Map<string, ScopeEntries>();
  private readonly stale = new Set<string>();
  private readonly notifier: Notifier;
  private readonly loads = new Map<string, Promise<void>>();
  /** Reads of a scope: one running, at most one waiting (a burst of announcements costs two reads, not one each). */
  private readonly reads = new Map<string, { running: Promise<void> | null; queued: Promise<void> | null }>();
  /** Scopes this tab shows and sends (loading or loaded). */
  private readonly scopes = new Set<string>();
  private readonly inFlight = new Set<string>();
  /** Entries whose latest state is not yet committed to the store (id -> change mark). */
  /** `holds`: the entry may not be sent before this write (false for a write that only records progress). */
  private readonly dirty = new Map<string, { scope: string; holds: boolean }>();
  private flushChain: Promise<void> = Promise.resolve();
  private flushQueued = false;
  /** Work a recorded decision left for after the paint (`afterPaint`), run in order. */
  private deferred: (() => void)[] = [];
  /** While set, flushes asked for are left for after the paint (a decision being recorded). */
  private deferringWrites = false;
  private soonTimer: ReturnType<typeof setTimeout> | null = null;
  /** "<scope> <tab>" pairs whose tab this engine waits on to take over its decisions. */
  private readonly watching = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly now: () => number;
  private readonly random: () => number;
  /** Scopes with a budget gate running: one batch at a time per scope (its end pumps again for what came due meanwhile). */
  private readonly gating = new Set<string>();
  /** Scopes whose budgets changed: their held decisions go through the gate again. */
  private readonly recheck = new Set<string>();
  /** Cleared decisions not yet sent that the gate is weighing again (a limit changed): not picked meanwhile. */
  private readonly regating = new Set<string>();
  /** Scopes whose last gate failed, with when to try again. */
  private readonly gateBackoff = new Map<string, number>();

  constructor(private readonly deps: OutboxDeps) {
    this.now = deps.now ?? Date.now;
    this.random = deps.random ?? Math.random;
    this.notifier = new Notifier(deps.nextFrame);
    deps.tabs.onAnnounce((scope) => void this.sync(scope).catch((error: unknown) => this.fail(error)));
    deps.budget?.onChange((scope) => {
      this.recheck.add(scope);
      this.pump();
    });
  }

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
   * Calls while a read runs share one read after it.
   */
  sync(scope: string): Promise<void> {
    let reads = this.reads.get(scope);
    if (!reads) this.reads.set(scope, (reads = { running: null, queued: null }));
    const r = reads;
    if (r.queued) return r.queued;
    const start = (): Promise<void> => {
      const run: Promise<void> = this.syncNow(scope).finally(() => {
        if (r.running === run) r.running = null;
      });
      r.running = run;
      return run;
    };
    if (!r.running) return start();
    r.queued = r.running
      .catch(() => undefined)
      .then(() => {
        r.queued = null;
        return start();
      });
    return r.queued;
  }

  private async syncNow(scope: string): Promise<void> {
    if (!this.scopes.has(scope)) return;
    const rows = await this.deps.store.read(scope);
    const me = this.deps.tabs.id;
    const kept: OutboxEntry[] = [];
    const keptIds = new Set<string>();
    for (const e of this.own.get(scope)?.values() ?? []) {
      if (this.dirty.has(e.id) || (e.owner === me && !FINAL_STATES.has(e.state))) {
        kept.push(e);
        keptIds.add(e.id);
      }
    }
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
    this.own.set(scope, new ScopeEntries(entries));
    this.stale.add(scope);
    this.snapshot = { ...this.snapshot, others: { ...this.snapshot.others, [scope]: others } };
    this.notify(false);
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
      // Written by the claim already.
      for (const e of taken) this.change(scope, e, false);
      this.notify();
      this.deps.tabs.announce(scope);
      this.pump();
    } catch (error) {
      this.fail(error);
    }
  }

  /** Records a decision: shown at once, written before it can be sent, sent after its undo window. */
  enqueue(scope: string, decision: NewDecision, group?: string, connectionId = ''): OutboxEntry {
    const { recorded, skipped } = this.enqueueMany(scope, [decision], group, connectionId);
    return recorded[0] ?? skipped[0]!.standing;
  }

  /**
   * Records many decisions at once (a bulk decision by query), with the rules of `enqueue`: a
   * decision standing on an item (another tab's, or one of this tab's on its way or confirmed)
   * is kept and the new one skipped; one in its undo window or failed is replaced. All are
   * written in one transaction (`whenWritten`) before any can be sent; one undo takes back the group.
   */
  enqueueMany(scope: string, decisions: readonly NewDecision[], group?: string, connectionId = ''): EnqueueManyResult {
    void this.load(scope);
    const own = this.scopeEntries(scope);
    const othersStanding = new Map<string, OutboxEntry>();
    for (const e of this.othersOf(scope)) if (stands(e) && !othersStanding.has(e.itemId)) othersStanding.set(e.itemId, e);
    const now = this.now();
    const graceMs = this.deps.graceMs();
    const recorded: OutboxEntry[] = [];
    const skipped: EnqueueManyResult['skipped'] = [];
    const thisBatch = new Map<string, OutboxEntry>();
    for (const decision of decisions) {
      const onItem = own.onItem(decision.itemId);
      // Another tab's decision on the item, or one already on its way or confirmed, stands; so does the first of a repeated item.
      const standing = othersStanding.get(decision.itemId) ?? thisBatch.get(decision.itemId) ?? onItem.find((e) => stands(e) && e.state !== 'grace');
      if (standing) {
        skipped.push({ decision, standing });
        continue;
      }
      // A new decision on an item still in its undo window (or failed) replaces the old one.
      this.deferringWrites = true;
      try {
        for (const e of onItem) if (e.state === 'grace' || PROBLEM_STATES.has(e.state)) this.remove(scope, e.id);
      } finally {
        this.deferringWrites = false;
      }
      const entry: OutboxEntry = {
        ...decision,
        id: newEntryId(),
        scope,
        connectionId,
        owner: this.deps.tabs.id,
        ...(group ? { group } : {}),
        createdAt: now,
        sendAfter: now + graceMs,
        state: 'grace',
        attempts: 0,
        nextAttemptAt: now + graceMs,
      };
      this.deferringWrites = true;
      try {
        this.change(scope, entry);
      } finally {
        this.deferringWrites = false;
      }
      thisBatch.set(entry.itemId, entry);
      recorded.push(entry);
    }
    this.notify();
    // Shown at the next paint; written, flagged and pumped after it (nothing is sent unwritten).
    this.later(() => {
      this.markOpen(scope, recorded, 0);
      this.pump();
    });
    return { recorded, skipped };
  }

  /** Resolves once every change made so far is written (false when a write failed). */
  async whenWritten(): Promise<boolean> {
    this.runDeferred();
    if (this.soonTimer) this.requestFlush();
    await this.flushChain;
    return this.snapshot.writeError === null;
  }

  /** Undoes the newest decision still inside its undo window; null when there is none. */
  undoLast(scope: string): OutboxEntry | null {
    return this.undoLatest(scope).at(-1) ?? null;
  }

  /** Undoes the newest decision in its undo window with those recorded with it; oldest first. */
  undoLatest(scope: string): OutboxEntry[] {
    const candidates = this.inWindow(scope);
    const last = candidates.reduce<OutboxEntry | null>((a, b) => (a && a.createdAt > b.createdAt ? a : b), null);
    if (!last) return [];
    const undone = last.group ? candidates.filter((e) => e.group === last.group) : [last];
    this.removeEntries(scope, undone);
    return undone;
  }

  /** Undoes a group's decisions still in their undo window (a bulk run's Undo); oldest first. */
  undoGroup(scope: string, group: string): OutboxEntry[] {
    const undone = this.inWindow(scope).filter((e) => e.group === group);
    if (undone.length) this.removeEntries(scope, undone);
    return undone;
  }

  private inWindow(scope: string): OutboxEntry[] {
    const own = this.own.get(scope);
    if (!own) return [];
    const now = this.now();
    const found: OutboxEntry[] = [];
    for (const id of own.grace) {
      const e = own.get(id)!;
      if (e.sendAfter > now) found.push(e);
    }
    return found.sort((a, b) => a.createdAt - b.createdAt);
  }

  undo(scope: string, entryId: string): boolean {
    const entry = this.own.get(scope)?.get(entryId);
    if (!entry || entry.state !== 'grace') return false;
    this.removeEntries(scope, [entry]);
    return true;
  }

  private removeEntries(scope: string, gone: readonly OutboxEntry[]): void {
    // What a decision left for after the paint goes first: its item's flag must not be set after this one.
    this.runDeferred();
    for (const e of gone) this.remove(scope, e.id);
    this.notify();
    this.markOpen(scope, gone, 1);
    this.schedule();
  }

  retry(scope: string, entryId: string): void {
    this.update(scope, entryId, (e) => (e.state === 'failed' ? move(e, 'retry', 'queued', { attempts: 0, nextAttemptAt: this.now() }) : e));
    this.notify();
    this.pump();
  }

  /** Sends charged decisions found after a reload or taken over, once the user confirmed their total. */
  confirm(scope: string, entryIds: readonly string[]): void {
    for (const id of entryIds) {
      this.update(scope, id, (e) => (e.state === 'needs-confirmation' ? move(regated(e), 'confirm', 'queued', { nextAttemptAt: this.now() }) : e));
    }
    this.notify();
    this.pump();
  }

  /**
   * Sends decisions the budget held, past their limit, once the user confirmed their total: they
   * count as spend from now and are never held again.
   */
  releaseBudget(scope: string, entryIds: readonly string[]): number {
    let released = 0;
    const now = this.now();
    for (const id of entryIds) {
      this.update(scope, id, (e) => {
        if (e.state !== 'held-budget') return e;
        released++;
        const { heldBy: _dropped, heldClock: _doubt, ...rest } = e;
        return move(rest, 'release', 'queued', { nextAttemptAt: now, budget: { at: now, tab: this.deps.tabs.id, released: true } });
      });
    }
    this.notify();
    this.pump();
    return released;
  }

  /** What the user may discard: a decision that failed, conflicts, waits for confirmation or a budget, expired, or is stuck behind a refusal. */
  isDiscardable(scope: string, entry: OutboxEntry): boolean {
    if (isDiscardableState(entry.state)) return true;
    const stuck = this.snapshot.paused[scope] !== undefined || this.snapshot.pausedSubscriptions[scope]?.[entry.subscriptionId] !== undefined;
    return stuck && (entry.state === 'queued' || entry.state === 'grace') && !this.inFlight.has(entry.id);
  }

  /** Marks decisions discarded: never sent, kept and listed as discarded; their items are undecided again. */
  discard(scope: string, entryIds: readonly string[]): void {
    const own = this.own.get(scope);
    const chosen: OutboxEntry[] = [];
    for (const id of entryIds) {
      const e = own?.get(id);
      if (e && this.isDiscardable(scope, e)) chosen.push(e);
    }
    this.discardEntries(scope, chosen);
  }

  private discardEntries(scope: string, dropped: readonly OutboxEntry[]): number {
    if (dropped.length === 0) return 0;
    this.runDeferred();
    const now = this.now();
    for (const e of dropped) this.change(scope, move(e, 'discard', 'discarded', { discardedAt: now }));
    this.notify();
    // The service holds a decision on a conflicting item: that one stays decided.
    this.markOpen(
      scope,
      dropped.filter((e) => e.state !== 'conflict'),
      1,
    );
    this.schedule();
    return dropped.length;
  }

  /** Sends a scope's unsent decisions now (undo windows, confirmations and retry waits end). */
  sendNow(scope: string): void {
    const now = this.now();
    for (const e of [...(this.own.get(scope)?.values() ?? [])]) {
      if (e.state === 'grace' || e.state === 'needs-confirmation' || e.state === 'queued') {
        // Asked to send everything, a paused run is sent too.
        this.change(
          scope,
          move(released(e.state === 'needs-confirmation' ? regated(e) : e), 'send-now', 'queued', {
            sendAfter: Math.min(e.sendAfter, now),
            nextAttemptAt: now,
          }),
        );
      }
    }
    this.notify();
    this.pump();
  }

  /** Discards every unsent decision of this tab in a scope (its connection is being removed), not one in flight. */
  discardAll(scope: string): void {
    const dropped = [...(this.own.get(scope)?.values() ?? [])].filter((e) => !FINAL_STATES.has(e.state) && !this.inFlight.has(e.id) && e.state !== 'sending');
    this.discardEntries(scope, dropped);
  }

  /** Pauses a group (a bulk run): its decisions not yet on their way are not picked until `releaseGroup`. */
  holdGroup(scope: string, group: string): number {
    return this.changeGroup(scope, group, (e) => (HOLDABLE_STATES.has(e.state) && !e.held ? { ...e, held: true } : e));
  }

  /** Resumes a paused group. */
  releaseGroup(scope: string, group: string): number {
    const changed = this.changeGroup(scope, group, (e) => (e.held ? released(e) : e));
    this.pump();
    return changed;
  }

  /** Cancels a group: every decision of it not sent and not on its way is discarded (kept, never sent). Returns how many. */
  cancelGroup(scope: string, group: string): number {
    const dropped = [...(this.own.get(scope)?.values() ?? [])].filter((e) => e.group === group && CANCELLABLE_STATES.has(e.state) && !this.inFlight.has(e.id));
    return this.discardEntries(scope, dropped);
  }

  private changeGroup(scope: string, group: string, change: (e: OutboxEntry) => OutboxEntry): number {
    let changed = 0;
    for (const e of [...(this.own.get(scope)?.values() ?? [])]) {
      if (e.group !== group) continue;
      const next = change(e);
      if (next === e) continue;
      this.change(scope, next);
      changed++;
    }
    this.notify();
    this.schedule();
    return changed;
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
    const { [scope]: _others, ...others } = this.snapshot.others;
    const { [scope]: _paused, ...paused } = this.snapshot.paused;
    const { [scope]: _subs, ...pausedSubscriptions } = this.snapshot.pausedSubscriptions;
    for (const [id, mark] of this.dirty) if (mark.scope === scope) this.dirty.delete(id);
    this.loads.delete(scope);
    this.scopes.delete(scope);
    this.own.delete(scope);
    this.stale.add(scope);
    this.snapshot = { ...this.snapshot, others, paused, pausedSubscriptions };
    this.notify();
    this.schedule();
  }

  /**
   * Forgets the error texts of a scope's decisions, in memory and in every stored row, other
   * tabs' included (Disconnect: a server's words are not kept once the key is gone). The decisions
   * themselves stay.
   */
  async clearErrors(scope: string): Promise<void> {
    const others = this.othersOf(scope);
    // In memory first, unwritten: a write already queued then writes the entry without its text.
    for (const e of [...(this.own.get(scope)?.values() ?? [])]) if (e.lastError !== undefined) this.change(scope, withoutError(e), false);
    if (others.some((e) => e.lastError !== undefined)) {
      this.snapshot = { ...this.snapshot, others: { ...this.snapshot.others, [scope]: others.map(withoutError) } };
    }
    this.notify();
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
    for (const [scope, own] of this.own) {
      if (own.grace.size === 0) continue;
      const windows = [...own.grace].map((id) => own.get(id)!);
      const promoted = promoteDue(windows, now);
      if (promoted === windows) continue;
      // Written with the next batch without holding the decisions back: a stored decision past its
      // window is resumed as a queued one would be, so 10,000 windows ending need not wait for
      // 10,000 rows rewritten before the first is sent.
      promoted.forEach((e, i) => e !== windows[i] && this.change(scope, e, 'lazy'));
      this.notify(false);
    }
    // Left 'sending' by a page that went: once the in-flight mark has passed, the answer is lost.
    for (const [scope, own] of this.own) {
      for (const id of own.sending) {
        const e = own.get(id)!;
        if (!this.inFlight.has(id) && (e.inFlightUntil ?? 0) <= now) this.change(scope, lostAnswer(e, now));
      }
    }
    if (this.deps.budget) for (const [scope, own] of this.own) if (own.ungated.size > 0 || this.recheck.has(scope)) this.gate(scope, own);
    if (this.deps.isOnline()) {
      const limit = this.deps.concurrency ?? 4;
      for (const [scope, own] of this.own) {
        if (this.inFlight.size >= limit) break;
        const picked = pickSendable(this.queued(own), now, limit - this.inFlight.size, {
          scopePaused: this.snapshot.paused[scope] !== undefined,
          pausedSubscriptions: this.snapshot.pausedSubscriptions[scope] ?? {},
          unwritten: this.unwritten,
          inFlight: (id) => this.inFlight.has(id),
          gated: this.gatedIn(scope),
        });
        this.lease(scope, own, picked, now);
        for (const entry of picked) void this.sendOne(scope, entry);
      }
    }
    this.schedule();
  };

  /** Charged decisions of a scope that may not leave before the budget gate cleared them. */
  private gatedIn(scope: string): ((entry: OutboxEntry) => boolean) | undefined {
    const gate = this.deps.budget;
    if (!gate) return undefined;
    return (e) => this.regating.has(e.id) || (!e.budget && isCharged(e) && gate.applies(scope, e.subscriptionId));
  }

  /**
   * Puts a batch of a scope's charged decisions through the budget gate: every one due and
   * written (the gate compares it with its stored row), and, after a budget changed, every
   * held one and every cleared one never sent yet (a lowered limit holds it; one the user
   * released stays released). One batch at a time per scope; what becomes due meanwhile goes in
   * the next.
   */
  private gate(scope: string, own: ScopeEntries): void {
    const gate = this.deps.budget!;
    if (this.gating.has(scope) || (this.gateBackoff.get(scope) ?? 0) > this.now()) return;
    const candidates: OutboxEntry[] = [];
    for (const id of own.ungated) {
      const e = own.get(id)!;
      if (!this.dirty.has(id) && !this.inFlight.has(id) && gate.applies(scope, e.subscriptionId)) candidates.push(e);
    }
    if (this.recheck.delete(scope)) {
      for (const e of own.values()) {
        const waiting = e.state === 'queued' && e.budget !== undefined && !e.budget.released && e.attempts === 0 && !this.inFlight.has(e.id);
        if (e.state !== 'held-budget' && !waiting) continue;
        if (this.dirty.has(e.id)) this.recheck.add(scope);
        else {
          candidates.push(e);
          if (waiting) this.regating.add(e.id);
        }
      }
    }
    if (candidates.length === 0) return;
    candidates.sort((a, b) => a.createdAt - b.createdAt);
    this.gating.add(scope);
    gate
      .decide(scope, candidates, this.deps.tabs.id)
      .then((decided) => {
        const byId = new Map(candidates.map((e) => [e.id, e]));
        const done = new Set<string>();
        for (const next of decided) {
          done.add(next.id);
          const current = this.own.get(scope)?.get(next.id);
          const candidate = byId.get(next.id);
          if (!current || !candidate) continue;
          // Unchanged meanwhile: the gate wrote exactly this. Changed (discarded, paused): that change stands.
          if (current === candidate) this.change(scope, next, false);
        }
        // Left out: its stored row differed from memory; written again, it is weighed with the next batch.
        for (const candidate of candidates) {
          if (!done.has(candidate.id) && this.own.get(scope)?.get(candidate.id) === candidate) this.change(scope, candidate);
        }
        this.gateBackoff.delete(scope);
        if (decided.length) {
          this.deps.tabs.announce(scope);
          this.notify();
        }
      })
      .catch(() => {
        // Nothing charged leaves while the gate cannot answer; it is asked again shortly.
        this.gateBackoff.set(scope, this.now() + GATE_RETRY_MS);
        // The timer ends the wait itself: one that fires a millisecond early must not find it still on and give up.
        setTimeout(() => {
          this.gateBackoff.delete(scope);
          this.pump();
        }, GATE_RETRY_MS);
      })
      .finally(() => {
        for (const e of candidates) this.regating.delete(e.id);
        this.gating.delete(scope);
        this.pump();
      });
  }

  private *queued(own: ScopeEntries): Generator<OutboxEntry> {
    for (const id of own.queue) yield own.get(id)!;
  }
  private *waiting(own: ScopeEntries, queuedToo: boolean): Generator<OutboxEntry> {
    for (const id of own.grace) yield own.get(id)!;
    if (queuedToo) yield* this.queued(own);
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    let next = Infinity;
    const canSend = this.deps.isOnline() && this.inFlight.size < (this.deps.concurrency ?? 4);
    for (const [scope, own] of this.own) {
      next = Math.min(
        next,
        nextWake(this.waiting(own, canSend), {
          scopePaused: this.snapshot.paused[scope] !== undefined,
          pausedSubscriptions: this.snapshot.pausedSubscriptions[scope] ?? {},
          unwritten: this.unwritten,
          canSend,
          gated: this.gatedIn(scope),
        }),
      );
    }
    for (const own of this.own.values()) {
      for (const id of own.sending) if (!this.inFlight.has(id)) next = Math.min(next, own.get(id)!.inFlightUntil ?? 0);
    }
    if (next === Infinity) return;
    this.timer = setTimeout(this.pump, Math.max(0, next - this.now()));
  }

  /**
   * Writes the in-flight mark (`inFlightUntil`) of the decisions about to be sent before any of
   * them leaves: a page load, a closed tab or another tab that finds one marked does not send it
   * again before the mark has passed. The mark is taken ahead for the next LEASE_AHEAD queued
   * decisions of the scope at once, so a run of 10,000 costs a handful of extra writes, not one
   * per decision; a mark is renewed when less than one request's time is left on it.
   */
  private lease(scope: string, own: ScopeEntries, picked: readonly OutboxEntry[], now: number): void {
    const valid = (e: OutboxEntry) => (e.inFlightUntil ?? 0) >= now + IN_FLIGHT_MS;
    if (picked.every(valid)) return;
    const until = now + 2 * IN_FLIGHT_MS;
    // Not one the budget gate has yet to decide: its verdict is written to the same row.
    const gated = this.gatedIn(scope);
    const ahead = [...picked];
    for (const id of own.queue) {
      if (ahead.length >= LEASE_AHEAD) break;
      const e = own.get(id)!;
      if (!picked.includes(e) && !valid(e) && !this.inFlight.has(id) && !gated?.(e)) ahead.push(e);
    }
    for (const e of ahead) if (!valid(e)) this.change(scope, { ...e, inFlightUntil: until });
  }

  private async sendOne(scope: string, entry: OutboxEntry): Promise<void> {
    this.inFlight.add(entry.id);
    // The 'sending' state itself is not written: the stored mark (`lease`) says the same to any
    // other page, and one write per decision instead of two halves the writes of a long run.
    this.update(scope, entry.id, (e) => move(e, 'send', 'sending', { attempts: e.attempts + 1 }), false);
    this.notify(false);
    if (this.unwritten(entry.id)) await this.flushChain;
    const marked = this.own.get(scope)?.get(entry.id);
    if (!marked || marked.state !== 'sending' || this.unwritten(entry.id)) {
      // The mark was not written (a storage fault, or the scope was forgotten meanwhile): not sent; it waits as it was.
      if (marked?.state === 'sending') this.change(scope, move(marked, 'not-sent', 'queued', { attempts: Math.max(0, marked.attempts - 1) }), false);
      this.inFlight.delete(entry.id);
      this.notify(false);
      return;
    }
    try {
      await this.deps.send(entry);
      this.update(scope, entry.id, (e) => move(withoutMark(e), 'confirmed', 'sent', { sentAt: this.now(), lastError: undefined }), this.answerWrite(scope));
    } catch (error) {
      this.handleFailure(scope, entry, error, this.answerWrite(scope));
    } finally {
      this.inFlight.delete(entry.id);
      this.notify(false);
      this.pump();
    }
  }

  /** An answer in a stream (more on their way or waiting) is written with the next batch; a lone one at once. */
  private answerWrite(scope: string): Write {
    return this.inFlight.size > 1 || (this.own.get(scope)?.queue.size ?? 0) > 0 ? 'soon' : true;
  }

  private handleFailure(scope: string, entry: OutboxEntry, error: unknown, write: Write): void {
    const message = messageOf(error);
    const attempts = this.own.get(scope)?.get(entry.id)?.attempts ?? entry.attempts + 1;
    const outcome = classifyFailure(error, { attempts, maxAttempts: this.deps.maxAttempts, baseMs: this.deps.retryBaseMs, random: this.random });
    // A refusal is not the decision's fault: it waits, its attempt uncounted, until the key is fixed.
    const wait = (e: OutboxEntry): OutboxEntry =>
      move(withoutMark(e), 'retry-later', 'queued', { attempts: Math.max(0, e.attempts - 1), nextAttemptAt: this.now(), lastError: message });
    switch (outcome.kind) {
      case 'conflict':
        this.update(scope, entry.id, (e) => move(withoutMark(e), 'conflict', 'conflict', { recorded: outcome.recorded, lastError: message }), write);
        return;
      case 'pause-scope':
        this.update(scope, entry.id, wait, write);
        this.snapshot = { ...this.snapshot, paused: { ...this.snapshot.paused, [scope]: message } };
        this.notify();
        if (outcome.refusedKey && error instanceof ApiError) this.deps.onKeyRefused(scope, error);
        return;
      case 'pause-subscription': {
        this.update(scope, entry.id, wait, write);
        const subs = { ...this.snapshot.pausedSubscriptions[scope], [entry.subscriptionId]: message };
        this.snapshot = { ...this.snapshot, pausedSubscriptions: { ...this.snapshot.pausedSubscriptions, [scope]: subs } };
        this.notify();
        return;
      }
      case 'retry':
        this.update(
          scope,
          entry.id,
          (e) => move(withoutMark(e), 'retry-later', 'queued', { nextAttemptAt: this.now() + outcome.delayMs, lastError: message }),
          write,
        );
        return;
      case 'failed':
        this.update(scope, entry.id, (e) => move(withoutMark(e), 'gave-up', 'failed', { lastError: message }), write);
    }
  }

  /** Whether an entry's latest state that it must not be sent without is still unwritten. */
  private readonly unwritten = (id: string): boolean => this.dirty.get(id)?.holds === true;

  private scopeEntries(scope: string): ScopeEntries {
    let own = this.own.get(scope);
    if (!own) this.own.set(scope, (own = new ScopeEntries()));
    return own;
  }

  /** Changes one entry in memory (O(1)); the caller tells listeners. */
  private update(scope: string, entryId: string, change: (entry: OutboxEntry) => OutboxEntry, write: Write = true): void {
    const current = this.own.get(scope)?.get(entryId);
    if (!current) return;
    const next = change(current);
    if (next !== current) this.change(scope, next, write);
  }

  /**
   * Puts an entry in memory (painted at the next notification) and, unless `write` is false,
   * marks it for writing. Entries are replaced, never mutated.
   */
  private change(scope: string, entry: OutboxEntry, write: Write = true): void {
    this.scopeEntries(scope).put(entry);
    this.stale.add(scope);
    if (!write) return;
    // A write the entry waits for stays one until it is done, whatever is recorded after it.
    if (write !== 'lazy' || !this.dirty.get(entry.id)?.holds) this.dirty.set(entry.id, { scope, holds: write !== 'lazy' });
    if (write === true) this.requestFlush();
    else this.requestFlushSoon();
  }

  /**
   * The answers of a stream are written together, a few times a second rather than once or twice
   * per answer: each transaction costs the page a few milliseconds however small. A lost write
   * of a confirmation only means a repeat the service takes as a no-op.
   */
  private requestFlushSoon(): void {
    if (this.flushQueued || this.soonTimer) return;
    this.soonTimer = setTimeout(() => {
      this.soonTimer = null;
      this.requestFlush();
    }, WRITE_BATCH_MS);
  }

  private remove(scope: string, entryId: string): void {
    if (!this.own.get(scope)?.remove(entryId)) return;
    this.stale.add(scope);
    this.dirty.set(entryId, { scope, holds: true });
    this.requestFlush();
  }

  /** Runs `fn` after the next paint (`afterPaint`), or at once without one. */
  private later(fn: () => void): void {
    if (!this.deps.afterPaint) return fn();
    this.deferred.push(fn);
    if (this.deferred.length === 1) this.deps.afterPaint(this.runDeferred);
  }

  /** Runs what was left for after the paint now (also when the page is hidden or closed, or `whenWritten` waits). */
  readonly runDeferred = (): void => {
    const work = this.deferred;
    this.deferred = [];
    for (const fn of work) fn();
  };

  private requestFlush(): void {
    if (this.deferringWrites && this.deps.afterPaint) {
      this.later(() => this.requestFlush());
      return;
    }
    if (this.soonTimer) clearTimeout(this.soonTimer);
    this.soonTimer = null;
    if (this.flushQueued) return;
    this.flushQueued = true;
    this.flushChain = this.flushChain.then(() => {
      this.flushQueued = false;
      return this.flush();
    });
  }

  /** Writes the current state of every changed entry in one transaction; an entry changed again meanwhile stays marked. */
  private async flush(): Promise<void> {
    if (this.dirty.size === 0 || this.snapshot.writeError) return;
    const batch = [...this.dirty.entries()];
    const puts: OutboxEntry[] = [];
    const deletes: string[] = [];
    for (const [id, { scope }] of batch) {
      const current = this.own.get(scope)?.get(id);
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
    for (const e of entries) {
      let ids = bySubscription.get(e.subscriptionId);
      if (!ids) bySubscription.set(e.subscriptionId, (ids = []));
      ids.push(e.itemId);
    }
    // The items' "undecided" flag only orders the review list: a failure there loses no decision.
    for (const [subscriptionId, itemIds] of bySubscription) this.deps.store.markOpen(scope, subscriptionId, itemIds, open).catch(() => undefined);
  }

  /** Tells listeners: urgent (what the user did) before the next paint, the rest once a frame (notifier.ts). */
  private notify(urgent = true): void {
    this.notifier.notify(urgent);
  }
}
