import { regated, releasedPastLimit } from './budget-gating';
import type { EnqueueManyResult } from './engine-types';
import { newEntryId, released, stands } from './entry-changes';
import { CANCELLABLE_STATES, FINAL_STATES, HOLDABLE_STATES, PROBLEM_STATES, type NewDecision, type OutboxEntry } from './model';
import { OutboxMemory } from './outbox-memory';
import { isDiscardableState, move } from './transitions';

/**
 * What the user does with decisions: record (one or a bulk run), undo inside the undo window,
 * retry, confirm a charge, release a budget hold, discard, send now, and pause, resume or cancel
 * a bulk run. Each changes memory (outbox-memory.ts) through the transition table; the engine
 * (engine.ts) schedules and sends what they leave.
 */
export abstract class DecisionCommands extends OutboxMemory {
  /** Loads a scope's decisions once (engine.ts). */
  abstract load(scope: string): Promise<void>;

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
      this.writes.deferWhile(() => {
        for (const e of onItem) if (e.state === 'grace' || PROBLEM_STATES.has(e.state)) this.remove(scope, e.id);
      });
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
      this.writes.deferWhile(() => this.change(scope, entry));
      thisBatch.set(entry.itemId, entry);
      recorded.push(entry);
    }
    this.notify();
    // Shown at the next paint; written, flagged and pumped after it (nothing is sent unwritten).
    this.writes.later(() => {
      this.markOpen(scope, recorded, 0);
      this.pump();
    });
    return { recorded, skipped };
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
    this.writes.runDeferred();
    for (const e of gone) this.remove(scope, e.id);
    this.notify();
    this.reopenAfterWrite(scope, gone);
    this.schedule();
  }

  retry(scope: string, entryId: string): void {
    this.update(scope, entryId, (e) =>
      e.state === 'failed' || e.state === 'conflict' ? move(e, 'retry', 'queued', { attempts: 0, nextAttemptAt: this.now(), recorded: undefined }) : e,
    );
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
      this.update(scope, id, (e) => (e.state === 'held-budget' && ++released ? releasedPastLimit(e, now, this.deps.tabs.id) : e));
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
    this.writes.runDeferred();
    const now = this.now();
    for (const e of dropped) this.change(scope, move(e, 'discard', 'discarded', { discardedAt: now }));
    this.notify();
    // The service holds a decision on a conflicting item: that one stays decided.
    this.reopenAfterWrite(
      scope,
      dropped.filter((e) => e.state !== 'conflict'),
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
}
