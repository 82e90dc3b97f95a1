import { Hono } from 'hono';
import {
  heldByOthersQuery,
  LEASE_LIMITS,
  leaseSettingsBody,
  leaseSettingsQuery,
  leasesQuery,
  queueCountsQuery,
  releaseBody,
  renewBody,
  takeBatchBody,
  type LeaseBatch,
} from '../../../src/api/contract/hub-leases';
import { validJson, validQuery } from '../../http/validate';
import { HubError } from '../errors';
import { allow } from '../http/auth';
import type { HubContext, HubEnv, Principal } from '../http/context';
import { appendAudit } from '../store/audit';
import {
  batchLeases,
  endLeases,
  expireLeases,
  heldBy,
  heldByOthers,
  idleMsOf,
  isLive,
  liveHolders,
  MEMBER_HOLD_CAP,
  renewBatch,
  setIdleMs,
  takeItems,
} from '../store/leases';
import { queueCounts } from '../store/queue-counts';
import { covers } from './inbox';
import { listTeamSubscriptions } from '../store/team-subscriptions';

/*
 * The team queue (/hub/v1/queue, /hub/v1/leases): a reviewer or admin, signed in, takes the next
 * batch of a subscription's undecided items that nobody holds (under the items view's filters),
 * renews it while working and releases it; the lease ends by itself after the subscription's idle
 * time. Admins (and viewers, read-only) see who holds what; an admin takes a batch back. Takes,
 * releases, expiries and take-backs are audited (lease.take, lease.release, lease.expire,
 * lease.revoke); a renewal is not (it changes only an expiry, every half minute of work).
 */

const iso = (ms: number) => new Date(ms).toISOString();

export function leasesRouter(ctx: HubContext) {
  const router = new Hono<HubEnv>();
  const clock = ctx.clock ?? Date.now;
  const cap = ctx.memberHoldCap ?? MEMBER_HOLD_CAP;

  async function teamSubscription(id: string) {
    if (!(await listTeamSubscriptions(ctx.db)).some((s) => s.id === id)) throw new HubError('NOT_FOUND', `subscription ${id} is not one the team reviews`);
  }

  const auditOf = (principal: Principal) => ({ actorId: principal.member.id, via: principal.via });

  router.post('/queue/take', validJson(takeBatchBody), async (c) => {
    const principal = allow(c, { roles: ['admin', 'reviewer'] });
    const body = c.req.valid('json');
    await teamSubscription(body.subscription_id);
    const now = clock();
    const size = body.size ?? LEASE_LIMITS.batchDefault;
    const filters = body.filters ?? {};
    const result = await ctx.db.transaction().execute(async (trx) => {
      const expired = await expireLeases(trx, ctx.engine, body.subscription_id, now);
      for (const batch of expired)
        await appendAudit(
          trx,
          {
            actorId: null,
            via: 'system',
            action: 'lease.expire',
            target: batch.batch_id,
            subscriptionId: body.subscription_id,
            outcome: 'ok',
            details: { member: batch.member_id, items: batch.item_ids.length },
          },
          now,
        );
      const idleMs = await idleMsOf(trx, body.subscription_id);
      // One member holds at most MEMBER_HOLD_CAP undecided items of a subscription: a take past it
      // gets what is left under it, and none when the hand is full.
      const held = await heldBy(trx, ctx.engine, body.subscription_id, principal.member.id, now);
      if (held >= cap) {
        throw new HubError(
          'LEASE_CAP_REACHED',
          `you hold ${held} undecided items of subscription ${body.subscription_id}, the most one member may hold at once (${cap}): decide or release some, then take again`,
        );
      }
      const room = Math.min(size, cap - held);
      const taken = await takeItems(trx, ctx.engine, { subscriptionId: body.subscription_id, memberId: principal.member.id, size: room, filters, idleMs, now });
      if (taken.items.length > 0)
        await appendAudit(
          trx,
          {
            ...auditOf(principal),
            action: 'lease.take',
            target: taken.batchId,
            subscriptionId: body.subscription_id,
            outcome: 'ok',
            details: { items: taken.items.length, asked: size, filters: JSON.stringify(filters), ...(room < size ? { capped: cap } : {}) },
          },
          now,
        );
      return { ...taken, idleMs, held: held + taken.items.length };
    });
    const batch: LeaseBatch = {
      id: result.batchId,
      subscription_id: body.subscription_id,
      member: { id: principal.member.id, email: principal.member.email },
      taken_at: iso(now),
      expires_at: iso(now + result.idleMs),
      idle_seconds: Math.round(result.idleMs / 1000),
      hold: { held: result.held, limit: cap },
      items: result.items.map((i) => ({
        family: i.family,
        item_id: i.item_id,
        seq: Number(i.seq),
        payload: JSON.parse(i.payload),
        price_micros: i.price_micros,
      })),
    };
    return c.json({ batch });
  });

  /**
   * The member's own batch, or 404 (another's batch is not theirs to learn about). A batch whose
   * every item was leased again since reads as empty: its rows now name the new batch.
   */
  async function ownBatch(principal: Principal, batchId: string) {
    const leases = await batchLeases(ctx.db, batchId);
    if (leases.length > 0 && leases[0]!.member_id !== principal.member.id) throw new HubError('NOT_FOUND', 'no such batch of yours');
    return leases;
  }

  router.post('/queue/renew', validJson(renewBody), async (c) => {
    const principal = allow(c, { roles: ['admin', 'reviewer'] });
    const { batch_id } = c.req.valid('json');
    const before = await ownBatch(principal, batch_id);
    const now = clock();
    if (before.length === 0) return c.json({ batch_id, expires_at: null, held: [], lost: [] });
    const idleMs = await idleMsOf(ctx.db, before[0]!.subscription_id);
    await renewBatch(ctx.db, batch_id, principal.member.id, idleMs, now);
    const after = await batchLeases(ctx.db, batch_id);
    const held = after.filter((l) => l.member_id === principal.member.id && isLive(l, now));
    // Items the batch had that are now held under another batch (re-leased) count as lost too; those
    // this member let go (a release, a vote under overlap) are not lost.
    const lost = before.filter(
      (b) => !(b.state === 'released' && b.member_id === principal.member.id) && !held.some((h) => h.family === b.family && h.item_id === b.item_id),
    );
    return c.json({
      batch_id,
      expires_at: held.length ? iso(Math.max(...held.map((l) => l.expires_at))) : null,
      held: held.map((l) => ({ family: l.family, item_id: l.item_id })),
      lost: lost.map((l) => ({ family: l.family, item_id: l.item_id })),
    });
  });

  router.post('/queue/release', validJson(releaseBody), async (c) => {
    const principal = allow(c, { roles: ['admin', 'reviewer'] });
    const body = c.req.valid('json');
    const leases = await ownBatch(principal, body.batch_id);
    const now = clock();
    if (leases.length === 0) return c.json({ batch_id: body.batch_id, released: 0 });
    const released = await ctx.db.transaction().execute(async (trx) => {
      const ended = await endLeases(trx, body.batch_id, 'released', now, { memberId: principal.member.id, items: body.items });
      if (ended.length > 0)
        await appendAudit(
          trx,
          {
            ...auditOf(principal),
            action: 'lease.release',
            target: body.batch_id,
            subscriptionId: leases[0]!.subscription_id,
            outcome: 'ok',
            details: { items: ended.length },
          },
          now,
        );
      return ended.length;
    });
    return c.json({ batch_id: body.batch_id, released });
  });

  router.get('/queue/counts', validQuery(queueCountsQuery), async (c) => {
    const principal = allow(c, { token: true });
    const { subscription_id, ...filters } = c.req.valid('query');
    covers(principal, subscription_id);
    await teamSubscription(subscription_id);
    const counts = await queueCounts(ctx.db, ctx.engine, subscription_id, filters, clock());
    return c.json({ subscription_id, ...counts, idle_seconds: Math.round((await idleMsOf(ctx.db, subscription_id)) / 1000) });
  });

  // What a bulk decision would meet 409 ITEM_LEASED on: told before it is confirmed (reviewers and admins decide; a viewer does not).
  router.get('/queue/held', validQuery(heldByOthersQuery), async (c) => {
    const principal = allow(c, { roles: ['admin', 'reviewer'], token: true });
    const { subscription_id } = c.req.valid('query');
    covers(principal, subscription_id);
    await teamSubscription(subscription_id);
    const rows = await heldByOthers(ctx.db, subscription_id, principal.member.id, clock());
    return c.json({ subscription_id, items: rows.map((r) => ({ family: r.family, item_id: r.item_id, member: { email: r.email } })) });
  });

  router.get('/leases', validQuery(leasesQuery), async (c) => {
    const { subscription_id } = c.req.valid('query');
    // Of one subscription, within a token's; of all of them, a token for all.
    const principal = allow(c, { roles: ['admin', 'viewer'], token: true, everySubscription: subscription_id === undefined });
    if (subscription_id !== undefined) covers(principal, subscription_id);
    const holders = await liveHolders(ctx.db, subscription_id, clock());
    return c.json({
      leases: holders.map((h) => ({
        batch_id: h.batch_id,
        subscription_id: h.subscription_id,
        member: { id: h.member_id, email: h.email },
        items: h.item_ids.length,
        item_ids: h.item_ids,
        taken_at: iso(h.taken_at),
        renewed_at: iso(h.renewed_at),
        expires_at: iso(h.expires_at),
      })),
    });
  });

  router.delete('/leases/:id', async (c) => {
    const admin = allow(c, { roles: ['admin'] });
    const batchId = c.req.param('id');
    const now = clock();
    const revoked = await ctx.db.transaction().execute(async (trx) => {
      const ended = await endLeases(trx, batchId, 'revoked', now);
      if (ended.length === 0) throw new HubError('NOT_FOUND', 'no batch held under that id');
      await appendAudit(
        trx,
        {
          ...auditOf(admin),
          action: 'lease.revoke',
          target: batchId,
          subscriptionId: ended[0]!.subscription_id,
          outcome: 'ok',
          details: { member: ended[0]!.member_id, items: ended.length },
        },
        now,
      );
      return ended.length;
    });
    return c.json({ batch_id: batchId, revoked });
  });

  router.get('/queue/settings', validQuery(leaseSettingsQuery), async (c) => {
    allow(c, { token: true, everySubscription: true });
    const { subscription_id } = c.req.valid('query');
    await teamSubscription(subscription_id);
    return c.json({ subscription_id, idle_seconds: Math.round((await idleMsOf(ctx.db, subscription_id)) / 1000) });
  });

  router.put('/queue/settings', validJson(leaseSettingsBody), async (c) => {
    const admin = allow(c, { roles: ['admin'] });
    const body = c.req.valid('json');
    await teamSubscription(body.subscription_id);
    const now = clock();
    await ctx.db.transaction().execute(async (trx) => {
      await setIdleMs(trx, body.subscription_id, body.idle_seconds * 1000, admin.member.id, now);
      await appendAudit(
        trx,
        {
          ...auditOf(admin),
          action: 'lease.settings',
          target: body.subscription_id,
          subscriptionId: body.subscription_id,
          outcome: 'ok',
          details: { idle_seconds: body.idle_seconds },
        },
        now,
      );
    });
    return c.json({ subscription_id: body.subscription_id, idle_seconds: body.idle_seconds });
  });

  return router;
}
