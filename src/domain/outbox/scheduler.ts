import { DAY_MS, isCharged, type OutboxEntry } from './model';
import { isFinal, isUnsent, move, type EntryEvent } from './transitions';

/**
 * When things are due: pure functions over entries and a clock, so the grace window, the
 * 24-hour expiry, what a taken-over decision becomes and what may be sent now are tested
 * without timers or storage.
 */

/** Grace windows that ended become queued (the same array when nothing changed). */
export function promoteDue(entries: readonly OutboxEntry[], now: number): readonly OutboxEntry[] {
  if (!entries.some((e) => e.state === 'grace' && e.sendAfter <= now)) return entries;
  return entries.map((e) => (e.state === 'grace' && e.sendAfter <= now ? move(e, 'window-ended', 'queued', { nextAttemptAt: now }) : e));
}

export interface SendFilter {
  /** The scope cannot send at all (401, disconnected). */
  scopePaused: boolean;
  /** Subscriptions refused for this key (403): their decisions wait. */
  pausedSubscriptions: Readonly<Record<string, string>>;
  /** Entries whose latest state is not yet written to storage: never sent before it is. */
  unwritten: (id: string) => boolean;
  inFlight: (id: string) => boolean;
  /** Charged decisions that wait for the budget gate's word (none when no budget applies). */
  gated?: (entry: OutboxEntry) => boolean;
}

/** Entries that may be sent now, oldest first, at most `slots`; held ones (a paused bulk run) wait. */
export function pickSendable(entries: Iterable<OutboxEntry>, now: number, slots: number, filter: SendFilter): OutboxEntry[] {
  if (filter.scopePaused || slots <= 0) return [];
  const picked: OutboxEntry[] = [];
  for (const e of entries) {
    if (picked.length >= slots) break;
    if (e.state !== 'queued' || e.held || e.nextAttemptAt > now) continue;
    if (filter.pausedSubscriptions[e.subscriptionId] !== undefined || filter.unwritten(e.id) || filter.inFlight(e.id) || filter.gated?.(e)) continue;
    picked.push(e);
  }
  return picked;
}

/**
 * The next time something becomes due (a grace window ends, a retry is due); Infinity when none.
 * A queued decision wakes nobody while it could not be sent anyway (offline, every slot busy, its
 * latest state not yet written): the `online` event, a finished send and a finished write each
 * re-examine the queue, so a timer then would only spin (it did, ~250 times a second offline).
 */
export function nextWake(
  entries: Iterable<OutboxEntry>,
  filter: Pick<SendFilter, 'scopePaused' | 'pausedSubscriptions' | 'unwritten' | 'gated'> & { canSend: boolean },
): number {
  let next = Infinity;
  for (const e of entries) {
    if (e.state === 'grace') next = Math.min(next, e.sendAfter);
    if (
      e.state === 'queued' &&
      !e.held &&
      filter.canSend &&
      !filter.scopePaused &&
      filter.pausedSubscriptions[e.subscriptionId] === undefined &&
      !filter.unwritten(e.id) &&
      // The gate's answer wakes the outbox; a timer meanwhile would only spin.
      !filter.gated?.(e)
    ) {
      next = Math.min(next, e.nextAttemptAt);
    }
  }
  return next;
}

/**
 * What a stored decision becomes when a tab takes it over (after a reload, or from a closed or
 * crashed tab): free decisions on their way are sent at once (the user left them standing when
 * the window closed); charged ones wait for the user's confirmation of the amount, unless
 * `sendCharged` (a team hub's scope: the hub keeps one decision per item and answers a repeat with
 * what stands, and its budgets hold every adopt, so asking again only strands an adopt the hub
 * had already sent); anything unsent older than 24 h expires. Final and problem states stay.
 */
export function resumed(entry: OutboxEntry, owner: string | undefined, now: number, event: EntryEvent = 'take-over', sendCharged = false): OutboxEntry {
  if (isFinal(entry.state)) return entry;
  // Marked in flight by the tab or page that went (the 'sending' state itself is not written): its
  // request may still be on the wire. It stays 'sending' until the mark has passed (`lostAnswer`).
  // A paused one (`held`) was not on the wire: Pause takes only decisions not on their way.
  if ((entry.state === 'sending' || (entry.state === 'queued' && !entry.held)) && entry.inFlightUntil !== undefined && entry.inFlightUntil > now) {
    return move(entry, event, 'sending', { owner });
  }
  if (isUnsent(entry.state) && now - entry.createdAt >= DAY_MS) return move(entry, event, 'expired', { owner });
  if (entry.state === 'grace' || entry.state === 'queued' || entry.state === 'sending') {
    return isCharged(entry) && !sendCharged ? move(entry, event, 'needs-confirmation', { owner }) : move(entry, event, 'queued', { nextAttemptAt: now, owner });
  }
  return { ...entry, owner };
}

/** A decision whose in-flight mark has passed without an answer (the page that sent it went): resumed as after a reload. */
export function lostAnswer(entry: OutboxEntry, now: number, sendCharged = false): OutboxEntry {
  const { inFlightUntil: _passed, ...rest } = entry;
  return resumed(rest, entry.owner, now, 'answer-lost', sendCharged);
}
