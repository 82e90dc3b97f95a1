import type { OutboxEntry } from './model';
import { isHubOwned, move } from './transitions';

/**
 * What became of adopts a team hub holds (docs/hub.md, "Decisions, budgets and holds"): an entry
 * `held-team` (or `accepted-team`) is moved by the hold the hub reports for it, never by this
 * browser's sending. Pure: the watcher (src/app/team-holds-watcher.ts) reads the holds, the engine
 * writes what this returns.
 */

/** What the console reads of a hold (`GET /hub/v1/holds?state=all`). */
export interface TeamHold {
  id: string;
  item_id: string;
  kind: string;
  /** open | released | dropped */
  state: string;
  resolved_at: string | null;
  /** Who resolved it: their email when the hub names it, else their member id. */
  resolved_by: string | null;
  resolved_by_email?: string | null;
  /** The adopt's own state on the hub: held, queued, sending, sent, refused, dropped. */
  decision_state: string;
  outcome: string | null;
}

const timeOf = (iso: string | null, fallback: number): number => {
  const ms = iso === null ? NaN : Date.parse(iso);
  return Number.isFinite(ms) ? ms : fallback;
};

/**
 * The hold an entry is kept under: by its id (the 409's `hold_id`), or, for an entry recorded
 * before the id was kept, the newest hold of an adopt of the same item (the holds come newest first).
 */
export function holdOf(entry: Pick<OutboxEntry, 'holdId' | 'itemId' | 'decision'>, holds: readonly TeamHold[]): TeamHold | undefined {
  if (entry.holdId !== undefined) return holds.find((h) => h.id === entry.holdId);
  return holds.find((h) => h.item_id === entry.itemId && h.kind === entry.decision);
}

/** The entry after its hold's news; the entry itself when nothing changed (or it is not the hub's). */
export function settleTeamHold(entry: OutboxEntry, hold: TeamHold | undefined, now: number): OutboxEntry {
  if (!hold || !isHubOwned(entry.state)) return entry;
  const withHold = entry.holdId === undefined ? { holdId: hold.id } : {};
  if (hold.state === 'dropped') {
    if (entry.state !== 'held-team') return entry;
    const by = hold.resolved_by_email ?? hold.resolved_by;
    return move(entry, 'hub-dropped', 'dropped-team', { ...withHold, discardedAt: timeOf(hold.resolved_at, now), ...(by ? { droppedBy: by } : {}) });
  }
  if (hold.state !== 'released') return entry;
  switch (hold.decision_state) {
    case 'sent':
      return move(entry, 'hub-sent', 'sent', { ...withHold, sentAt: now, lastError: undefined });
    case 'refused':
      return move(entry, 'hub-refused', 'failed', {
        ...withHold,
        lastError: `The vendor refused the released adopt${hold.outcome ? ` (${hold.outcome})` : ''}.`,
      });
    default:
      // Released, and queued or on its way on the hub: the hub delivers it.
      return entry.state === 'held-team' ? move(entry, 'hub-accepted', 'accepted-team', { ...withHold, lastError: undefined }) : entry;
  }
}

/** Every entry the hub's holds move: the changed entries only. */
export function settleTeamHolds(entries: Iterable<OutboxEntry>, holds: readonly TeamHold[], now: number): OutboxEntry[] {
  const changed: OutboxEntry[] = [];
  for (const e of entries) {
    if (!isHubOwned(e.state)) continue;
    const next = settleTeamHold(e, holdOf(e, holds), now);
    if (next !== e) changed.push(next);
  }
  return changed;
}
