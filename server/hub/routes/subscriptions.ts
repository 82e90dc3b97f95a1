import { Hono } from 'hono';
import { teamSubscriptionsSchema } from '../../../src/api/contract/hub';
import { validJson } from '../../http/validate';
import { allow } from '../http/auth';
import type { HubContext, HubEnv } from '../http/context';
import { appendAudit } from '../store/audit';
import { listTeamSubscriptions, replaceTeamSubscriptions } from '../store/team-subscriptions';

/**
 * The subscriptions the team reviews, with their kind and label: the console's connection in hub
 * mode is made of them (no connect form, no key). Every member reads them (a token too: a script
 * finds what to pull); only an admin, signed in, changes them, and the change is audited.
 */
export function subscriptionsRouter(ctx: HubContext) {
  const router = new Hono<HubEnv>();

  router.get('/subscriptions', async (c) => {
    allow(c, { token: true });
    return c.json({ subscriptions: await listTeamSubscriptions(ctx.db) });
  });

  router.put('/subscriptions', validJson(teamSubscriptionsSchema), async (c) => {
    const admin = allow(c, { roles: ['admin'] });
    const { subscriptions } = c.req.valid('json');
    await ctx.db.transaction().execute(async (trx) => {
      const before = await listTeamSubscriptions(trx);
      await replaceTeamSubscriptions(trx, subscriptions);
      await appendAudit(trx, {
        actorId: admin.member.id,
        via: admin.via,
        action: 'subscriptions.set',
        target: 'team',
        outcome: 'ok',
        details: { from: JSON.stringify(before.map((s) => s.id)), to: JSON.stringify(subscriptions.map((s) => s.id)) },
      });
    });
    return c.json({ subscriptions: await listTeamSubscriptions(ctx.db) });
  });

  return router;
}
