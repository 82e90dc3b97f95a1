import { Hono } from 'hono';
import { deliveriesQuerySchema, simulatedPullQuerySchema } from '../../src/api/contract';
import { authorizeSubscription, requireKey } from '../http/auth';
import type { AppEnv, ServiceContext } from '../http/context';
import { parseQuery } from '../http/params';
import { ApiError } from '../lib/api-error';
import { decideItem, deliveryItems, itemOwner, listDeliveries, pullSimulated } from '../store/simulated';

/** Simulated data: pull (4.10), adopt and dispute (4.11, 4.12), deliveries (4.13, 4.14). */
export function dataRouter(ctx: ServiceContext) {
  const router = new Hono<AppEnv>();
  const auth = requireKey(ctx);

  router.get('/data/pull', auth, (c) => {
    const query = parseQuery(c, simulatedPullQuerySchema);
    authorizeSubscription(ctx, c.get('key'), query.subscription_id, 'simulated');
    const data = pullSimulated(ctx.db, query.subscription_id, query.limit);
    return c.json({ data, count: data.length }, 200);
  });

  const decide = (action: 'adopt' | 'dispute', status: 'adopted' | 'disputed') =>
    router.post(`/data/items/:itemId/${action}`, auth, (c) => {
      const itemId = c.req.param('itemId');
      const key = c.get('key');
      const owner = itemOwner(ctx.db, itemId);
      // Another organization's item does not exist as far as this key can tell.
      if (!owner || owner.org_id !== key.org_id) throw new ApiError('NOT_FOUND', `item ${itemId} not found`);
      authorizeSubscription(ctx, key, owner.subscription_id, 'simulated');
      decideItem(ctx.db, itemId, key.org_id, status);
      return c.json({ ok: true, item_id: itemId, status }, 200);
    });
  decide('adopt', 'adopted');
  decide('dispute', 'disputed');

  router.get('/data/deliveries', auth, (c) => {
    const { limit } = parseQuery(c, deliveriesQuerySchema);
    const data = listDeliveries(ctx.db, c.get('key').org_id, limit);
    return c.json({ data, count: data.length }, 200);
  });

  router.get('/data/deliveries/:deliveryId/items', auth, (c) => {
    const data = deliveryItems(ctx.db, c.get('key').org_id, c.req.param('deliveryId'));
    return c.json({ data, count: data.length }, 200);
  });

  return router;
}
