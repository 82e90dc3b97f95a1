import { ApiError, NetworkError } from '../../api/errors';
import { BudgetGating } from './budget-gating';
import type { OutboxDeps } from './engine-types';
import { afterFailure, messageOf, stands, withoutError, withoutMark } from './entry-changes';
import { FINAL_STATES, IN_FLIGHT_MS, type OutboxEntry } from './model';
import { classifyFailure } from './retry-policy';
import { lostAnswer, nextWake, pickSendable, promoteDue } from './scheduler';
import { ScopeEntries } from './scope-entries';
import { lastWord, splitRows, TabOwnership } from './tab-ownership';
import { TeamCommands } from './team-commands';
import { teamVotesOf } from './team-votes';
import { move } from './transitions';
import type { Write } from './write-behind';

export type { BudgetGate } from './budget-gating';
export type { OutboxDeps, UnwrittenJournal } from './engine-types';

/** How many queued decisions one in-flight mark write covers (`lease`). */
const LEASE_AHEAD = 128;

/**
 * The decision outbox. A decision is shown at once, written to the local store, and sent only
 * once that write committed and its undo window ended, with bounded concurrency, retried by
 * the retry policy, never sent again once the service confirmed it. This file schedules and
 * sends; the parts: `outbox-memory` (entries, snapshot), `decision-commands` (what the user
 * does), `team-commands` (what a team hub says), `write-behind`, `tab-ownership`, `budget-gating`, `scheduler` (what is due),
 * `retry-policy` (what a failure leads to), `store`. Everything is keyed by scope.
 *
 * Built for runs of 10,000 decisions: entries are indexed (`ScopeEntries`), so a state change is
 * O(1); the scheduler scans only what is in its undo window or queued; changes are written in
 * batches (whatever changed while the previous write ran goes in the next transaction); and the
 * UI is told of the stream of answers at most every 100 ms (notifier.ts), at once of what the user did.
 */
export class OutboxEngine extends TeamCommands {
  private readonly loads = new Map<string, Promise<void>>();
  /** Scopes this tab shows and sends (loading or loaded): `shows`. */
  private readonly scopes = new Set<string>();
  private readonly ownership: TabOwnership;
  private readonly gating: BudgetGating | undefined;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly random: () => number;

  constructor(deps: OutboxDeps) {
    super(deps);
    this.random = deps.random ?? Math.random;
    this.ownership = new TabOwnership({
      tabs: deps.tabs,
      store: deps.store,
      now: this.now,
      canSend: deps.canSend,
      resumesCharged: deps.resumesCharged,
      read: (scope) => this.read(scope),
      left: deps.journal,
      taken: (scope, taken) => this.taken(scope, taken),
      fail: (error) => this.fail(error),
    });
    this.gating = deps.budget
      ? new BudgetGating({
          gate: deps.budget,
          tab: deps.tabs.id,
          now: this.now,
          unwritten: this.writes.has,
          inFlight: (id) => this.inFlight.has(id),
          current: (scope, id) => this.own.get(scope)?.get(id),
          put: (scope, entry, written) => this.change(scope, entry, !written),
          decided: (scope) => {
            deps.tabs.announce(scope);
            this.notify();
          },
          pump: () => this.pump(),
        })
      : undefined;
  }

  /**
   * Loads a scope's decisions once: first those a page left unwritten in the journal (written
   * unless the store holds them already), then the store's. Decisions of tabs that are gone, or of
   * no tab, are taken over; those of open tabs are watched.
   */
  load(scope: string): Promise<void> {
    let loading = this.loads.get(scope);
    if (!loading) {
      loading = this.loadNow(scope);
      this.loads.set(scope, loading);
    }
    return loading;
  }

  private async loadNow(scope: string): Promise<void> {
    this.scopes.add(scope);
    try {
      const left = this.deps.journal?.read(scope) ?? [];
      if (left.length) {
        // The page that left them is gone: those the store lacks are a closed tab's (no owner),
        // taken over below. Those it holds are that page's own rows: their journaled state (an
        // answer not yet written, a mark taken ahead but never sent) is applied when they are
        // taken over (TabOwnership, `left`), and the journal keeps them until then.
        const rows = new Map((await this.deps.store.read(scope)).map((e) => [e.id, e]));
        const missing = left.filter((e) => !rows.has(e.id));
        await this.deps.store.write(
          missing.map((e) => ({ ...e, scope, owner: undefined })),
          [],
        );
        // Rows another tab took over since, or that are final, need nothing from the journal.
        const done = left.filter((e) => {
          const row = rows.get(e.id);
          return !row || row.owner !== e.owner || FINAL_STATES.has(row.state);
        });
        this.deps.journal?.drop(scope, new Set(done.map((e) => e.id)));
      }
      await this.sync(scope);
      this.closeStanding(scope, left);
    } catch (error) {
      this.loads.delete(scope);
      this.scopes.delete(scope);
      this.fail(error);
    }
  }

  /**
   * Repairs the items' "undecided" flag (`open`) that a page which went left behind, once per
   * load. The flag is written after the paint (store `setOpen`, to keep keypresses fast), the
   * decision on its own (write-behind, and the journal for a page left before its write): a page
   * reloaded or closed in between leaves decided items flagged undecided, listed first and counted
   * as undecided (Local data, Items, Disconnect) though no decision was lost. So every decision
   * this load finds standing on its item closes it: earlier pages' and other tabs' rows, and what
   * the journal holds (its word on a row is the latest: a discard not yet written leaves the item
   * open). One batch (one transaction after a paint, off any keypress); a flag already 0 is not
   * rewritten, so a load that finds nothing lost changes nothing, and the counts stay right.
   * This page's own decisions set their flags themselves: one undone meanwhile is not closed again.
   * Each item closes only if its decision's row still stands when the flag is written (store
   * `closeWhereStanding`, one transaction): its owner may undo or discard it meanwhile, and writes
   * that row before it reopens the item (`reopenAfterWrite`).
   * Only closes: a flag left 0 where nothing stands is not reopened here. A conflict's discard, a
   * failed, held or expired decision keep their item closed on purpose, and an undone decision
   * leaves no row to tell by, so no load can tell a lost reopen from a deliberate close.
   */
  private closeStanding(scope: string, left: readonly OutboxEntry[]): void {
    const me = this.deps.tabs.id;
    const journaled = new Map(left.map((e) => [e.id, e]));
    const standing: OutboxEntry[] = [];
    for (const row of [...(this.own.get(scope)?.values() ?? []), ...this.othersOf(scope)]) {
      if (row.owner === me) continue;
      const word = journaled.get(row.id);
      // The journal speaks for its own page's row while that row is unfinished (as a takeover reads it).
      const latest = word && word.owner === row.owner && !FINAL_STATES.has(row.state) ? lastWord(row, word) : row;
      if (stands(latest)) standing.push(latest);
    }
    // Checked again in the flag's own transaction: the owner may undo or discard one meanwhile.
    if (standing.length) this.deps.store.closeWhereStanding(scope, standing).catch(() => undefined);
  }

  /**
   * Reads a scope again (another tab announced a change): confirmed and discarded decisions
   * join the record, other tabs' unfinished ones are shown, and their owners are watched.
   * This tab's own unfinished decisions, and any not yet written, stay as memory holds them.
   * Calls while a read runs share one read after it.
   */
  protected shows = (scope: string): boolean => this.scopes.has(scope);

  sync(scope: string): Promise<void> {
    return this.ownership.sync(scope);
  }

  private async read(scope: string): Promise<void> {
    if (!this.scopes.has(scope)) return;
    const rows = await this.deps.store.read(scope);
    const { entries, others } = splitRows(rows, this.own.get(scope)?.values() ?? [], this.deps.tabs.id, this.writes.has);
    this.own.set(scope, new ScopeEntries(entries));
    this.stale.add(scope);
    this.snapshot = { ...this.snapshot, others: { ...this.snapshot.others, [scope]: others } };
    this.notify(false);
    const settled = this.ownership.watch(scope, new Set(others.map((e) => e.owner)));
    this.pump();
    if (this.snapshot.loaded[scope]) return;
    // Read, once the tabs whose decisions were found are known open, or gone and taken over. Not
    // awaited: reads run one at a time, and a takeover that waits for a connection waits for a
    // later read.
    void settled.then(() => {
      if (!this.scopes.has(scope) || this.snapshot.loaded[scope]) return;
      this.snapshot = { ...this.snapshot, loaded: { ...this.snapshot.loaded, [scope]: true } };
      this.notify(false);
    });
  }

  /** Decisions taken over from a tab that is gone (written by the claim already). */
  private taken(scope: string, taken: readonly OutboxEntry[]): void {
    const ids = new Set(taken.map((e) => e.id));
    this.snapshot = { ...this.snapshot, others: { ...this.snapshot.others, [scope]: this.othersOf(scope).filter((e) => !ids.has(e.id)) } };
    for (const e of taken) this.change(scope, e, false);
    // A tab closed before its flags were written (`closeStanding`): what stands of it closes its items.
    this.markOpen(scope, taken.filter(stands), 0);
    this.notify();
    this.deps.tabs.announce(scope);
    this.pump();
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
    const { [scope]: _loaded, ...loaded } = this.snapshot.loaded;
    const { [scope]: _paused, ...paused } = this.snapshot.paused;
    const { [scope]: _subs, ...pausedSubscriptions } = this.snapshot.pausedSubscriptions;
    this.writes.forget(scope);
    this.deps.journal?.drop(scope, null);
    this.loads.delete(scope);
    this.scopes.delete(scope);
    this.own.delete(scope);
    this.stale.add(scope);
    this.snapshot = { ...this.snapshot, loaded, others, paused, pausedSubscriptions };
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
    await this.writes.settled();
    await this.deps.store.clearErrors(scope);
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
      let lost = false;
      for (const id of own.sending) {
        const e = own.get(id)!;
        if (!this.inFlight.has(id) && (e.inFlightUntil ?? 0) <= now) {
          this.change(scope, lostAnswer(e, now, this.deps.resumesCharged?.(scope)));
          lost = true;
        }
      }
      // Told like any other change: a charged one now waits for the user's "Send and pay".
      if (lost) this.notify(false);
    }
    if (this.gating) for (const [scope, own] of this.own) if (this.gating.due(scope, own)) this.gating.run(scope, own);
    // Nothing new leaves a page being left: its answer would be lost with the page.
    if (this.deps.isOnline() && !this.leaving) {
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
    return this.gating?.gatedIn(scope);
  }

  private *queued(own: ScopeEntries): Generator<OutboxEntry> {
    for (const id of own.queue) yield own.get(id)!;
  }

  private *waiting(own: ScopeEntries, queuedToo: boolean): Generator<OutboxEntry> {
    for (const id of own.grace) yield own.get(id)!;
    if (queuedToo) yield* this.queued(own);
  }

  protected schedule(): void {
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
    if (this.unwritten(entry.id)) await this.writes.settled();
    const marked = this.own.get(scope)?.get(entry.id);
    if (!marked || marked.state !== 'sending' || this.unwritten(entry.id)) {
      // The mark was not written (a storage fault, or the scope was forgotten meanwhile): not sent; it waits as it was.
      if (marked?.state === 'sending') this.change(scope, move(marked, 'not-sent', 'queued', { attempts: Math.max(0, marked.attempts - 1) }), false);
      this.inFlight.delete(entry.id);
      this.notify(false);
      return;
    }
    try {
      const teamVotes = teamVotesOf(await this.deps.send(entry));
      this.update(
        scope,
        entry.id,
        (e) => move(withoutMark(e), 'confirmed', 'sent', { sentAt: this.now(), lastError: undefined, ...(teamVotes ? { teamVotes } : {}) }),
        this.answerWrite(scope),
      );
    } catch (error) {
      if (await this.droppedByLeaving(error)) return;
      this.handleFailure(scope, entry, error, this.answerWrite(scope));
    } finally {
      this.inFlight.delete(entry.id);
      this.notify(false);
      this.pump();
    }
  }

  /**
   * Whether a request without an answer was dropped because the page is being left. The browser
   * aborts a page's requests as it goes, and Chromium does so just before `pagehide`, in the same
   * task: the failure is weighed a task later, once `leave` has run. Such a request may have
   * reached the service, so it is not taken as failed (which would queue it again, and journal it
   * as never sent, for the next page to send at once): it stays on the wire, and the next page
   * (or this one, back from the back/forward cache) sends it again only once its mark has passed.
   */
  private async droppedByLeaving(error: unknown): Promise<boolean> {
    if (!(error instanceof NetworkError)) return false;
    const leaves = this.leaves;
    if (!this.leaving) await new Promise<void>((resolve) => setTimeout(resolve, 0));
    // Left meanwhile counts even if the page is back already (that task waited in the back/forward cache).
    return this.leaving || this.leaves !== leaves;
  }

  /** An answer in a stream (more on their way or waiting) is written with the next batch; a lone one at once. */
  private answerWrite(scope: string): Write {
    return this.inFlight.size > 1 || (this.own.get(scope)?.queue.size ?? 0) > 0 ? 'soon' : true;
  }

  private handleFailure(scope: string, entry: OutboxEntry, error: unknown, write: Write): void {
    const message = messageOf(error);
    const attempts = this.own.get(scope)?.get(entry.id)?.attempts ?? entry.attempts + 1;
    const outcome = classifyFailure(error, { attempts, maxAttempts: this.deps.maxAttempts, baseMs: this.deps.retryBaseMs, random: this.random });
    this.update(scope, entry.id, (e) => afterFailure(e, outcome, message, this.now()), write);
    if (outcome.kind === 'pause-scope') {
      this.snapshot = { ...this.snapshot, paused: { ...this.snapshot.paused, [scope]: message } };
      this.notify();
      if (outcome.refusedKey && error instanceof ApiError) this.deps.onKeyRefused(scope, error);
    } else if (outcome.kind === 'pause-subscription') {
      const subs = { ...this.snapshot.pausedSubscriptions[scope], [entry.subscriptionId]: message };
      this.snapshot = { ...this.snapshot, pausedSubscriptions: { ...this.snapshot.pausedSubscriptions, [scope]: subs } };
      this.notify();
    }
  }
}
