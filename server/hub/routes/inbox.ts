import { Hono } from 'hono';
import { inboxQuery, inboxScheduleBody, type InboxItem, type InboxSchedule } from '../../../src/api/contract/hub-inbox';
import { validJson, validQuery } from '../../http/validate';
import { HubError } from '../errors';
import { allow } from '../http/auth';
import type { HubContext, HubEnv, Principal } from '../http/context';
import { appendAudit } from '../store/audit';
import { readInbox } from '../store/inbox';

/*
 * The team's shared inbox (/hub/v1/inbox): every item delivered through the hub, in the order it
 * kept them, paged by seq. Any member (a token of theirs within its subscriptions) reads it; an
 * admin, signed in, sets a subscription's scheduled pull (server/hub/inbox/schedule.ts).
 */

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A token limited to some subscriptions reads only those. */
export function covers(principal: Principal, subscriptionId: string) {
  if (!principal.token) return;
  const covered = JSON.parse(principal.token.subscriptions) as string[];
  if (!covered.includes('*') && !covered.includes(subscriptionId))
    throw new HubError('FORBIDDEN', `this access token does not cover subscription ${subscriptionId}`);
}

async function schedules(ctx: HubContext): Promise<InboxSchedule[]> {
  const rows = await ctx.db
    .selectFrom('team_subscriptions')
    .leftJoin('inbox_pulls', 'inbox_pulls.subscription_id', 'team_subscriptions.id')
    .select(['team_subscriptions.id', 'inbox_pulls.every_minutes', 'inbox_pulls.last_pulled_at'])
    .orderBy('team_subscriptions.position')
    .execute();
  return rows.map((r) => ({
    subscription_id: r.id,
    every_minutes: r.every_minutes === null ? null : Number(r.every_minutes),
    last_pulled_at: iso(r.last_pulled_at === null ? null : Number(r.last_pulled_at)),
  }));
}

export function inboxRouter(ctx: HubContext) {
  const router = new Hono<HubEnv>();

  router.get('/inbox', validQuery(inboxQuery), async (c) => {
    const principal = allow(c, { token: true });
    const { subscription_id: subscriptionId, after, limit } = c.req.valid('query');
    covers(principal, subscriptionId);
    // One more than asked: whether more follow, without a count.
    const rows = await readInbox(ctx.db, subscriptionId, after, limit + 1);
    const items: InboxItem[] = rows.slice(0, limit).map((r) => ({
      family: r.family,
      item_id: r.item_id,
      seq: r.seq,
      item: r.item,
      price_micros: r.price_micros,
      arrived_at: iso(r.arrived_at)!,
      arrived_how: r.arrived_how as InboxItem['arrived_how'],
      arrived_by: r.arrived_by,
    }));
    return c.json({ items, next: items.at(-1)?.seq ?? after, has_more: rows.length > limit });
  });

  router.get('/inbox/schedules', async (c) => {
    allow(c, { token: true });
    return c.json({ schedules: await schedules(ctx) });
  });

  router.put('/inbox/schedules/:subscription_id', validJson(inboxScheduleBody), async (c) => {
    const admin = allow(c, { roles: ['admin'] });
    const subscriptionId = c.req.param('subscription_id');
    const { every_minutes: every } = c.req.valid('json');
    await ctx.db.transaction().execute(async (trx) => {
      const known = await trx.selectFrom('team_subscriptions').select('id').where('id', '=', subscriptionId).executeTakeFirst();
      if (!known) throw new HubError('NOT_FOUND', `subscription ${subscriptionId} is not one of the team's`);
      const before = await trx.selectFrom('inbox_pulls').select('every_minutes').where('subscription_id', '=', subscriptionId).executeTakeFirst();
      await trx
        .insertInto('inbox_pulls')
        .values({ subscription_id: subscriptionId, every_minutes: every })
        .onConflict((oc) => oc.column('subscription_id').doUpdateSet({ every_minutes: every }))
        .execute();
      await appendAudit(trx, {
        actorId: admin.member.id,
        via: admin.via,
        action: 'inbox.schedule',
        target: subscriptionId,
        subscriptionId,
        outcome: 'ok',
        details: { from: before?.every_minutes ?? null, to: every },
      });
    });
    return c.json({ schedules: await schedules(ctx) });
  });

  return router;
}
