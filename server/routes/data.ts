import { Hono } from 'hono';
import { deliveriesQuerySchema, simulatedPullQuerySchema } from '../../src/api/contract';
import { authorizeSubscription, requireKey } from '../http/auth';
import type { AppEnv, ServiceContext } from '../http/context';
import { validQuery } from '../http/validate';
import { ServiceError } from '../lib/service-error';
import { decideItem, deliveryItems, deliverySubscription, itemOwner, listDeliveries, pullSimulated, type Decision } from '../store/simulated';
import { deliveryItemToWire, itemToWire } from './wire';

/** Simulated data: pull (4.10), adopt and dispute (4.11, 4.12), deliveries (4.13, 4.14). */
export function dataRouter(ctx: ServiceContext) {
  const router = new Hono<AppEnv>();
  const auth = requireKey(ctx);

  router.get('/data/pull', auth, validQuery(simulatedPullQuerySchema), (c) => {
    const query = c.req.valid('query');
    authorizeSubscription(ctx, c.get('key'), query.subscription_id, 'simulated');
    const data = pullSimulated(ctx.db, query.subscription_id, query.limit).map(itemToWire);
    return c.json({ data, count: data.length }, 200);
  });

  const decide = (action: 'adopt' | 'dispute', status: Decision) =>
    router.post(`/data/items/:itemId/${action}`, auth, (c) => {
      const itemId = c.req.param('itemId');
      const key = c.get('key');
      const owner = itemOwner(ctx.db, itemId);
      // Another organization's item does not exist as far as this key can tell.
      if (!owner || owner.org_id !== key.org_id) throw new ServiceError('NOT_FOUND', `item ${itemId} not found`);
      authorizeSubscription(ctx, key, owner.subscription_id, 'simulated');
      const result = decideItem(ctx.db, itemId, key.org_id, status);
      if (!result) throw new ServiceError('NOT_FOUND', `item ${itemId} not found`);
      if ('conflict' in result) {
        throw new ServiceError('FEEDBACK_CONFLICT', `item ${itemId} is already ${result.conflict}`, { recorded: result.conflict });
      }
      return c.json({ ok: true, item_id: itemId, status }, 200);
    });
  decide('adopt', 'adopted');
  decide('dispute', 'disputed');

  router.get('/data/deliveries', auth, validQuery(deliveriesQuerySchema), (c) => {
    const data = listDeliveries(ctx.db, c.get('key').org_id, c.req.valid('query').limit);
    return c.json({ data, count: data.length }, 200);
  });

  router.get('/data/deliveries/:deliveryId/items', auth, (c) => {
    const deliveryId = c.req.param('deliveryId');
    const key = c.get('key');
    // The list of deliveries is organization-wide, their payloads are data: the items need a key
    // with data access that covers the delivery's subscription, as a pull would.
    const subscriptionId = deliverySubscription(ctx.db, key.org_id, deliveryId);
    if (!subscriptionId) throw new ServiceError('NOT_FOUND', `delivery ${deliveryId} not found`);
    authorizeSubscription(ctx, key, subscriptionId, 'simulated');
    const items = deliveryItems(ctx.db, key.org_id, deliveryId);
    if (!items) throw new ServiceError('NOT_FOUND', `delivery ${deliveryId} not found`);
    const data = items.map(deliveryItemToWire);
    return c.json({ data, count: data.length }, 200);
  });

  return router;
}
