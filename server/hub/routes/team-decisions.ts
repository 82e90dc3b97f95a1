import { Hono } from 'hono';
import { teamDecisionsQuery, type TeamDecision } from '../../../src/api/contract/hub-decisions';
import { validQuery } from '../../http/validate';
import { HubError } from '../errors';
import { allow } from '../http/auth';
import type { HubContext, HubEnv } from '../http/context';
import { decisionChanges, decisionSnapshot, type TeamDecisionRow } from '../store/team-decisions';
import { covers } from './inbox';

/*
 * GET /hub/v1/inbox/decisions: the team's decisions on a subscription's items, so every console
 * shows what a teammate decided (store/team-decisions.ts says how the cursor never skips a change).
 * Any member reads it; a token within its subscriptions.
 */

const wire = (row: TeamDecisionRow): TeamDecision => ({
  family: row.family,
  item_id: row.item_id,
  decision: row.decision && {
    kind: row.decision.kind,
    state: row.decision.state,
    by: { id: row.decision.member_id, email: row.decision.email },
    at: new Date(row.decision.at).toISOString(),
  },
  votes: row.votes,
});

export function teamDecisionsRouter(ctx: HubContext) {
  const router = new Hono<HubEnv>();

  router.get('/inbox/decisions', validQuery(teamDecisionsQuery), async (c) => {
    const principal = allow(c, { token: true });
    const { subscription_id: subscriptionId, after, snapshot_from: from, limit } = c.req.valid('query');
    covers(principal, subscriptionId);
    if (from !== undefined && after === undefined)
      throw new HubError('INVALID_PARAMETER', 'snapshot_from continues a snapshot: send it with the `next` of the page before as `after`');
    const page =
      after === undefined || from !== undefined
        ? await decisionSnapshot(ctx.db, ctx.engine, subscriptionId, { head: after ?? null, from: from ?? null, limit })
        : await decisionChanges(ctx.db, subscriptionId, after, limit);
    return c.json({ decisions: page.rows.map(wire), next: page.next, snapshot_from: page.snapshotFrom, has_more: page.hasMore });
  });

  return router;
}
