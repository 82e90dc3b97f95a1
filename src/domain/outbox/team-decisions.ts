import type { OutboxEntry } from './model';
import { move, standsOnItem } from './transitions';

/*
 * Teammates' decisions in this browser (docs/hub.md, "The team's decisions in every browser"): the
 * hub's feed (`GET /hub/v1/inbox/decisions`) says, per item, the team's decision standing on it or
 * that it is undecided again. Each becomes one outbox entry `decided-team` (one id per item, so
 * every tab writes the same row), unless this browser has its own decision standing on the item;
 * undecided again, that entry goes. Pure: the engine writes what this returns.
 */

/** One item's news from the feed, as the console reads it. */
export interface TeamDecisionNews {
  kind: 'live' | 'simulated';
  subscriptionId: string;
  itemId: string;
  /** The team's decision standing on the item (who: their email; at: ms), or null: undecided again. */
  decision: { kind: 'adopt' | 'dispute'; by: string; at: number } | null;
}

const teamEntryId = (subscriptionId: string, itemId: string) => `team:${subscriptionId}:${itemId}`;

export interface TeamDecisionChanges {
  /** New or changed `decided-team` entries. */
  puts: OutboxEntry[];
  /** `decided-team` entries to remove (undecided again on the hub, or this browser's own decision stands). */
  deletes: OutboxEntry[];
}

/**
 * What the news changes, given each item's entries (this tab's and other tabs'). `connectionId` is
 * the hub connection's (informational). An unchanged entry is left as it is.
 */
export function teamDecisionChanges(
  scope: string,
  news: readonly TeamDecisionNews[],
  onItem: (itemId: string) => readonly OutboxEntry[],
  connectionId = '',
): TeamDecisionChanges {
  const puts: OutboxEntry[] = [];
  const deletes: OutboxEntry[] = [];
  for (const n of news) {
    const entries = onItem(n.itemId).filter((e) => e.subscriptionId === n.subscriptionId);
    const id = teamEntryId(n.subscriptionId, n.itemId);
    const team = entries.find((e) => e.id === id);
    const mine = entries.filter((e) => e.id !== id);
    // This browser's own decision on its way or confirmed is the one shown; the hub answers it with the team's anyway.
    if (!n.decision || mine.some((e) => standsOnItem(e.state))) {
      if (team) deletes.push(team);
      continue;
    }
    const { kind, by, at } = n.decision;
    if (team) {
      if (team.decision !== kind || team.decidedBy !== by) puts.push(move(team, 'team-decided', 'decided-team', { decision: kind, decidedBy: by }));
      continue;
    }
    // Newer than any of this browser's (failed, discarded) entries on the item: the latest entry is the item's word.
    const createdAt = Math.max(at, ...mine.map((e) => e.createdAt + 1));
    puts.push({
      id,
      scope,
      connectionId,
      kind: n.kind,
      itemId: n.itemId,
      subscriptionId: n.subscriptionId,
      decision: kind,
      priceMicros: null,
      createdAt,
      sendAfter: createdAt,
      state: 'decided-team',
      attempts: 0,
      nextAttemptAt: createdAt,
      decidedBy: by,
    });
  }
  return { puts, deletes };
}
