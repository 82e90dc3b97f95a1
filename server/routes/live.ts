import { Hono } from 'hono';
import {
  liveAdoptBodySchema,
  liveDisputeBodySchema,
  livePullQuerySchema,
  usageQuerySchema,
  type LiveFeedback,
} from '../../src/api/contract';
import { authorizeSubscription, requireKey } from '../http/auth';
import type { AppEnv, ServiceContext } from '../http/context';
import { parseJsonBody, parseQuery } from '../http/params';
import { pullLive, recordLiveFeedback } from '../store/live';
import { listReceipts } from '../store/receipts';

/** Live data: pull (4.6), usage (4.7), adopt and dispute (4.8, 4.9). */
export function liveRouter(ctx: ServiceContext) {
  const router = new Hono<AppEnv>();
  const auth = requireKey(ctx);

  router.get('/live/pull', auth, (c) => {
    const query = parseQuery(c, livePullQuerySchema);
    const key = c.get('key');
    const subscription = authorizeSubscription(ctx, key, query.subscription_id, 'live');
    const page = pullLive(ctx.db, {
      orgId: key.org_id,
      subscription,
      limit: query.limit,
      from: query.from,
      cursor: query.cursor,
      taskIds: query.task_ids,
      campaignIds: query.campaign_ids,
      cursorSecret: ctx.cursorSecret,
    });
    // Items arrive as wire JSON text (see store/live.ts); the rest is serialised here.
    const items = `[${page.items.join(',')}]`;
    const paging = JSON.stringify({
      count: page.items.length,
      has_more: page.has_more,
      next_cursor: page.next_cursor,
      receipt: page.receipt ?? {},
    }).slice(1, -1);
    const body =
      ctx.livePullForm === 'flat'
        ? `{"success":true,"data":${items},${paging}}`
        : `{"success":true,"errorCode":null,"errorMessage":null,"data":{"items":${items},${paging}}}`;
    return c.body(body, 200, { 'Content-Type': 'application/json' });
  });

  router.get('/live/usage', auth, (c) => {
    const { limit } = parseQuery(c, usageQuerySchema);
    const data = listReceipts(ctx.db, c.get('key').org_id, limit);
    return c.json({ data, count: data.length }, 200);
  });

  const feedback = (kind: LiveFeedback) =>
    router.post(`/live/items/:submissionId/${kind}`, auth, async (c) => {
      const submissionId = c.req.param('submissionId');
      const body: { subscription_id: string; reason?: string } = await parseJsonBody(
        c,
        kind === 'adopt' ? liveAdoptBodySchema : liveDisputeBodySchema,
      );
      const key = c.get('key');
      const subscription = authorizeSubscription(ctx, key, body.subscription_id, 'live');
      recordLiveFeedback(ctx.db, {
        orgId: key.org_id,
        subscription,
        submissionId,
        feedback: kind,
        reason: body.reason,
      });
      return c.json({ ok: true, submission_id: submissionId, feedback: kind }, 200);
    });
  feedback('adopt');
  feedback('dispute');

  return router;
}
