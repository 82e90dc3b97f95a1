import { Hono } from 'hono';
import { lotUpdateBody, newLotBody, type HubLot, type LotValue } from '../../../src/api/contract/hub-lots';
import { validJson } from '../../http/validate';
import { HubError } from '../errors';
import { allow } from '../http/auth';
import type { HubContext, HubEnv } from '../http/context';
import { appendAudit } from '../store/audit';
import { insertLot, listLots, readLot, sampleDecisions, updateLotValue, type LotRecord } from '../store/lots';
import { listTeamSubscriptions } from '../store/team-subscriptions';

/*
 * The team's sampling lots (/hub/v1/lots): every member (or a token of theirs) reads them; a
 * reviewer or an admin, signed in, draws one and updates it (the sample extended, the action on
 * the rest recorded). Each create and update is audited (`lot.create`, `lot.update`) naming who.
 */

const iso = (ms: number) => new Date(ms).toISOString();

const lotView = (r: LotRecord): HubLot => ({
  id: r.id,
  subscription_id: r.subscription_id,
  revision: r.revision,
  created_at: iso(r.created_at),
  created_by: { id: r.created_by, email: r.created_by_email },
  updated_at: iso(r.updated_at),
  updated_by: { id: r.updated_by, email: r.updated_by_email },
  value: r.value,
});

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const startsWith = <T>(list: readonly T[], prefix: readonly T[]) => prefix.length <= list.length && prefix.every((v, i) => same(v, list[i]));

/** What an update may change: the sample grows (kept in order) and the action on the rest; the rest was fixed when the lot was drawn. */
function transitionError(before: LotValue, after: LotValue): string | null {
  for (const field of ['kind', 'source', 'itemIds', 'plan'] as const)
    if (!same(before[field], after[field])) return `value.${field} cannot change: it is fixed when the lot is drawn`;
  if (!startsWith(after.sampleIds, before.sampleIds)) return 'value.sampleIds may only grow: the items already drawn stay, in order';
  if (!startsWith(after.extensions, before.extensions)) return 'value.extensions may only grow: earlier extensions stay';
  return null;
}

export function lotsRouter(ctx: HubContext) {
  const router = new Hono<HubEnv>();
  const withDecisions = async (lot: LotRecord) => ({ lot: lotView(lot), sample_decisions: await sampleDecisions(ctx.db, lot) });

  router.get('/lots', async (c) => {
    allow(c, { token: true, everySubscription: true });
    const lots = [];
    for (const lot of await listLots(ctx.db)) lots.push({ ...lotView(lot), sample_decisions: await sampleDecisions(ctx.db, lot) });
    return c.json({ lots });
  });

  router.get('/lots/:id', async (c) => {
    allow(c, { token: true, everySubscription: true });
    const lot = await readLot(ctx.db, c.req.param('id'));
    if (!lot) throw new HubError('NOT_FOUND', 'no such lot');
    return c.json(await withDecisions(lot));
  });

  router.post('/lots', validJson(newLotBody), async (c) => {
    const principal = allow(c, { roles: ['admin', 'reviewer'] });
    const input = c.req.valid('json');
    const team = await listTeamSubscriptions(ctx.db);
    if (!team.some((s) => s.id === input.subscription_id))
      throw new HubError('INVALID_BODY', `subscription_id: ${input.subscription_id} is not one of the team’s subscriptions`);
    if (team.find((s) => s.id === input.subscription_id)!.kind !== input.value.kind)
      throw new HubError('INVALID_BODY', `value.kind: the team’s subscription ${input.subscription_id} is not ${input.value.kind}`);
    await ctx.db.transaction().execute(async (trx) => {
      if (!(await insertLot(trx, { id: input.id, subscriptionId: input.subscription_id, value: input.value, memberId: principal.member.id })))
        throw new HubError('LOT_EXISTS', `a lot ${input.id} exists already`);
      await appendAudit(trx, {
        actorId: principal.member.id,
        via: principal.via,
        action: 'lot.create',
        target: input.id,
        subscriptionId: input.subscription_id,
        outcome: 'ok',
        details: { items: input.value.itemIds.length, sample: input.value.sampleIds.length, plan: input.value.plan.kind ?? 'zero-acceptance' },
      });
    });
    return c.json(await withDecisions((await readLot(ctx.db, input.id))!), 201);
  });

  router.put('/lots/:id', validJson(lotUpdateBody), async (c) => {
    const principal = allow(c, { roles: ['admin', 'reviewer'] });
    const id = c.req.param('id');
    const { revision, value } = c.req.valid('json');
    await ctx.db.transaction().execute(async (trx) => {
      const before = await readLot(trx, id);
      if (!before) throw new HubError('NOT_FOUND', 'no such lot');
      const stale = () => new HubError('LOT_CHANGED', `the lot changed (revision ${before.revision}, not ${revision}): read it again and re-apply the change`);
      if (before.revision !== revision) throw stale();
      const refused = transitionError(before.value, value);
      if (refused) throw new HubError('INVALID_BODY', refused);
      // Guarded by the revision: a concurrent writer that read the same revision loses here, not silently.
      if (!(await updateLotValue(trx, { id, revision, value, memberId: principal.member.id }))) throw stale();
      await appendAudit(trx, {
        actorId: principal.member.id,
        via: principal.via,
        action: 'lot.update',
        target: id,
        subscriptionId: before.subscription_id,
        outcome: 'ok',
        details: {
          revision: revision + 1,
          sample_added: value.sampleIds.length - before.value.sampleIds.length,
          action: same(before.value.action, value.action) ? null : (value.action?.decision ?? 'cleared'),
        },
      });
    });
    return c.json(await withDecisions((await readLot(ctx.db, id))!));
  });

  return router;
}
