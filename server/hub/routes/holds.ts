import { Hono } from 'hono';
import { holdsListQuery } from '../../../src/api/contract/hub-budgets';
import { validQuery } from '../../http/validate';
import { deliver } from '../decisions/deliver';
import { HubError } from '../errors';
import { allow } from '../http/auth';
import type { HubContext, HubEnv, Principal } from '../http/context';
import { appendAudit } from '../store/audit';
import { lockLedger } from '../store/budgets';
import { CLAIM_MS, findDecision } from '../store/decisions';
import { holdsQuery, resolveHold, type HoldDetail } from '../store/holds';

/*
 * Adopts held by a budget, kept on the hub. GET /hub/v1/holds: a reviewer sees their own, an
 * admin or viewer every one (a token may read). Release (admin, in person): the adopt is sent, its
 * spend counted from now, past the limit by the admin's decision. Drop (admin, or the reviewer who
 * made it, in person): never sent, and the item is free to be decided again.
 */

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const holdView = (h: HoldDetail) => ({
  id: h.id,
  decision_id: h.decision_id,
  item_id: h.item_id,
  family: h.family,
  kind: h.kind,
  subscription_id: h.subscription_id,
  price_micros: h.price_micros,
  member: { id: h.member_id, email: h.email },
  limit: h.limit_name,
  created_at: iso(h.created_at),
  state: h.resolution ?? 'open',
  resolved_at: iso(h.resolved_at),
  resolved_by: h.resolved_by,
  resolved_by_email: h.resolved_by_email,
  /** The decision's own state: held, or after a release queued, sending, sent or refused; dropped. */
  decision_state: h.state,
  outcome: h.outcome,
});

export function holdsRouter(ctx: HubContext) {
  const router = new Hono<HubEnv>();
  const clock = ctx.clock ?? Date.now;
  const detail = (id: string) => holdsQuery(ctx.db).where('holds.id', '=', id).executeTakeFirst();

  router.get('/holds', validQuery(holdsListQuery), async (c) => {
    const principal = allow(c, { token: true, everySubscription: true });
    let query = holdsQuery(ctx.db).orderBy('holds.created_at', 'desc').orderBy('holds.id');
    if (c.req.valid('query').state !== 'all') query = query.where('holds.resolution', 'is', null);
    if (principal.member.role === 'reviewer') query = query.where('decisions.member_id', '=', principal.member.id);
    return c.json({ holds: (await query.execute()).map(holdView) });
  });

  /** Resolves an open hold in one transaction under the ledger lock; the hold as it was, or the refusal. */
  async function resolve(principal: Principal, id: string, resolution: 'released' | 'dropped') {
    const now = Date.now();
    return ctx.db.transaction().execute(async (trx) => {
      await lockLedger(trx, ctx.engine);
      const hold = await holdsQuery(trx).where('holds.id', '=', id).executeTakeFirst();
      // Another reviewer's hold is "not found": its existence is not theirs to learn.
      if (!hold || (principal.member.role !== 'admin' && hold.member_id !== principal.member.id)) throw new HubError('NOT_FOUND', 'no such hold');
      if (hold.resolution !== null || !(await resolveHold(trx, id, resolution, principal.member.id, now)))
        throw new HubError('HOLD_RESOLVED', `this hold was already ${hold.resolution ?? 'resolved'}`);
      await trx
        .updateTable('decisions')
        .set(
          resolution === 'released'
            ? { state: 'sending', claimed_until: now + CLAIM_MS, counted_at: clock(), updated_at: now }
            : { state: 'dropped', updated_at: now },
        )
        .where('id', '=', hold.decision_id)
        .where('state', '=', 'held')
        .execute();
      await appendAudit(
        trx,
        {
          actorId: principal.member.id,
          via: principal.via,
          action: resolution === 'released' ? 'hold.release' : 'hold.drop',
          target: id,
          subscriptionId: hold.subscription_id,
          itemId: hold.item_id,
          amountMicros: hold.price_micros,
          outcome: 'ok',
          details: { decision_id: hold.decision_id, limit: hold.limit_name, member: hold.member_id },
        },
        now,
      );
      return hold;
    });
  }

  router.post('/holds/:id/release', async (c) => {
    const admin = allow(c, { roles: ['admin'] });
    const hold = await resolve(admin, c.req.param('id'), 'released');
    // Sent now, as a fresh adopt is; the queue delivers it if the vendor cannot be reached.
    const row = await findDecision(ctx.db, hold.decision_id);
    if (row?.state === 'sending') await deliver(ctx, row);
    return c.json({ hold: holdView((await detail(hold.id))!) });
  });

  router.delete('/holds/:id', async (c) => {
    const principal = allow(c, { roles: ['admin', 'reviewer'] });
    const hold = await resolve(principal, c.req.param('id'), 'dropped');
    return c.json({ hold: holdView((await detail(hold.id))!) });
  });

  return router;
}
