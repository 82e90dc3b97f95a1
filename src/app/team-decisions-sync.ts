import { teamDecisionsResponse, type TeamDecision } from '../api/contract/hub-decisions';
import { hubCall } from '../api/hub';
import type { TeamDecisionNews } from '../domain/outbox/team-decisions';

/*
 * Hub mode: the team's decisions (GET /hub/v1/inbox/decisions) copied into this browser's outbox,
 * so an item a teammate decided reads decided here (src/domain/outbox/team-decisions.ts). Run by
 * the team inbox's sync after its items (team-inbox-sync.ts: start, focus, its timer, and the
 * live change stream's decision rows). Per subscription, the cursor (the hub's audit seq) is a
 * setting of the scope, written only after the outbox has what came before it; a first read is a
 * snapshot in pages, whose cursor is written once the last page is in.
 */

const PAGE = 500;

const cursorName = (subscriptionId: string) => `team-decisions:${subscriptionId}`;
const parseCursor = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null);

export type ApplyTeamDecisions = (scope: string, news: readonly TeamDecisionNews[], connectionId: string) => Promise<number>;

const newsOf = (subscriptionId: string, row: TeamDecision): TeamDecisionNews => ({
  kind: row.family === 'data' ? 'simulated' : 'live',
  subscriptionId,
  itemId: row.item_id,
  // A teammate's adopt held by the team's budget is not decided yet: the item stays open here (an adopt of it is answered with the same hold).
  decision: row.decision && row.decision.state !== 'held' ? { kind: row.decision.kind, by: row.decision.by.email, at: Date.parse(row.decision.at) } : null,
});

/** Brings one subscription's team decisions up to date; returns how many items' news it read. */
export async function syncTeamDecisions(scope: string, subscriptionId: string, connectionId: string, apply: ApplyTeamDecisions): Promise<number> {
  const { readSetting, writeSetting } = await import('../domain/store');
  const base = `/inbox/decisions?subscription_id=${encodeURIComponent(subscriptionId)}&limit=${PAGE}`;
  const stored = await readSetting(scope, cursorName(subscriptionId), parseCursor);
  let after = stored;
  let written = stored;
  let from: string | null = null;
  let read = 0;
  for (;;) {
    const query: string = after === null ? '' : from === null ? `&after=${after}` : `&after=${after}&snapshot_from=${encodeURIComponent(from)}`;
    const page = await hubCall(teamDecisionsResponse, base + query);
    await apply(
      scope,
      page.decisions.map((row) => newsOf(subscriptionId, row)),
      connectionId,
    );
    read += page.decisions.length;
    from = page.snapshot_from;
    // Mid-snapshot the cursor is not written: a page left unread is read again from the start.
    if (from === null && page.next !== written) {
      await writeSetting(scope, cursorName(subscriptionId), page.next);
      written = page.next;
    }
    after = page.next;
    if (!page.has_more) return read;
  }
}
