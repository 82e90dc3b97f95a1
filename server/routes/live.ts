import { Hono } from 'hono';
import { liveAdoptBodySchema, liveDisputeBodySchema, livePullQuerySchema, usageQuerySchema, type LiveFeedback } from '../../src/api/contract';
import { authorizeSubscription, requireKey } from '../http/auth';
import type { AppEnv, ServiceContext } from '../http/context';
import { validJson, validQuery } from '../http/validate';
import { ServiceError } from '../lib/service-error';
import { pullLive, recordLiveFeedback } from '../store/live';
import { listReceipts } from '../store/receipts';
import { livePageJson, receiptToWire } from './wire';

/** Live data: pull (4.6), usage (4.7), adopt and dispute (4.8, 4.9). */
export function liveRouter(ctx: ServiceContext) {
  const router = new Hono<AppEnv>();
  const auth = requireKey(ctx);

  router.get('/live/pull', auth, validQuery(livePullQuerySchema), (c) => {
    const query = c.req.valid('query');
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
    if ('invalid' in page) {
      throw page.invalid === 'cursor'
        ? new ServiceError('INVALID_CURSOR', 'cursor is not valid for this subscription and these filters: send next_cursor back unchanged')
        : new ServiceError('INVALID_PARAMETER', 'task_ids and campaign_ids narrow re-reads only: send them with from=beginning');
    }
    // Items are spliced as JSON text (see wire.ts), so the body is written, not c.json'd.
    return c.body(livePageJson(page, ctx.livePullForm), 200, { 'Content-Type': 'application/json' });
  });

  router.get('/live/usage', auth, validQuery(usageQuerySchema), (c) => {
    const data = listReceipts(ctx.db, c.get('key').org_id, c.req.valid('query').limit).map(receiptToWire);
    return c.json({ data, count: data.length }, 200);
  });

  const feedback = (kind: LiveFeedback) =>
    router.post(`/live/items/:submissionId/${kind}`, auth, validJson(kind === 'adopt' ? liveAdoptBodySchema : liveDisputeBodySchema), (c) => {
      const submissionId = c.req.param('submissionId');
      const body: { subscription_id: string; reason?: string } = c.req.valid('json');
      const key = c.get('key');
      const subscription = authorizeSubscription(ctx, key, body.subscription_id, 'live');
      const result = recordLiveFeedback(ctx.db, {
        orgId: key.org_id,
        subscription,
        submissionId,
        feedback: kind,
        reason: body.reason,
      });
      if (!result) {
        throw new ServiceError('NOT_FOUND', `submission ${submissionId} is not readable under ${subscription.subscription_id}`);
      }
      if ('conflict' in result) {
        throw new ServiceError('FEEDBACK_CONFLICT', `submission ${submissionId} already has feedback ${result.conflict}`, {
          recorded: result.conflict,
        });
      }
      return c.json({ ok: true, submission_id: submissionId, feedback: kind }, 200);
    });
  feedback('adopt');
  feedback('dispute');

  return router;
}
