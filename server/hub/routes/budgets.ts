import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { budgetsBody } from '../../../src/api/contract/hub-budgets';
import { validJson } from '../../http/validate';
import { periodsAt } from '../decisions/periods';
import type { HubTables } from '../db/schema';
import { HubError } from '../errors';
import { allow } from '../http/auth';
import type { HubContext, HubEnv } from '../http/context';
import { appendAudit } from '../store/audit';
import { listLimits, lockLedger, OUTSIDE_MEMBER, replaceLimits, spendByKey, type LimitRow } from '../store/budgets';
import { readSyncState } from '../store/receipts';
import { syncReceipts } from '../receipts/sync';

/*
 * GET /hub/v1/budgets (any member, a token may read): the limits and what was spent in the hub's
 * current UTC day and month. PUT (admin, in person): replaces every limit, audited. Integer
 * micro-USD; null (or absent) is no limit.
 */

type Limit = z.infer<typeof budgetsBody>['organization'] & {};

const NONE = { daily_micros: null, monthly_micros: null };
const pick = (r: LimitRow) => ({ daily_micros: r.daily_micros, monthly_micros: r.monthly_micros });

async function budgetsView(db: Kysely<HubTables>, now: number) {
  const periods = periodsAt(now);
  const [limits, all, members, sync] = await Promise.all([
    listLimits(db),
    spendByKey(db, periods),
    db.selectFrom('members').select(['id', 'email']).execute(),
    readSyncState(db),
  ]);
  const spend = all.filter((r) => r.member_id !== OUTSIDE_MEMBER);
  const outside = all.filter((r) => r.member_id === OUTSIDE_MEMBER);
  const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());
  const one = (scope: LimitRow['scope'], target: string) => limits.find((l) => l.scope === scope && l.target === target);
  const total = (rows: typeof spend) => ({
    day_micros: rows.reduce((t, r) => t + r.day_micros, 0),
    month_micros: rows.reduce((t, r) => t + r.month_micros, 0),
  });
  const group = <K extends 'subscription_id' | 'member_id'>(key: K) => [...new Set(spend.map((r) => r[key]).filter((v): v is string => v !== null))].sort();
  const email = new Map(members.map((m) => [m.id, m.email]));
  return {
    day: periods.day,
    month: periods.month,
    limits: {
      organization: limits.some((l) => l.scope === 'organization') ? pick(one('organization', '')!) : NONE,
      per_member: one('member', '*') ? pick(one('member', '*')!) : NONE,
      subscriptions: limits.filter((l) => l.scope === 'subscription').map((l) => ({ subscription_id: l.target, ...pick(l) })),
      members: limits.filter((l) => l.scope === 'member' && l.target !== '*').map((l) => ({ member_id: l.target, ...pick(l) })),
    },
    spent: {
      organization: total(all),
      outside: total(outside),
      subscriptions: group('subscription_id').map((id) => ({ subscription_id: id, ...total(spend.filter((r) => r.subscription_id === id)) })),
      members: group('member_id').map((id) => ({ member_id: id, email: email.get(id) ?? null, ...total(spend.filter((r) => r.member_id === id)) })),
    },
    receipts: { synced_at: iso(sync?.synced_at), attempted_at: iso(sync?.attempted_at), outcome: sync?.outcome ?? null },
  };
}

export function budgetsRouter(ctx: HubContext) {
  const router = new Hono<HubEnv>();
  const clock = ctx.clock ?? Date.now;

  router.get('/budgets', async (c) => {
    allow(c, { token: true, everySubscription: true });
    return c.json(await budgetsView(ctx.db, clock()));
  });

  // Read the vendor's receipts now (an admin in person; the hub also reads them on an interval).
  // A vendor that is away is said so in `receipts`; the last synced figures stay.
  router.post('/budgets/sync', async (c) => {
    allow(c, { roles: ['admin'] });
    await syncReceipts(ctx);
    return c.json(await budgetsView(ctx.db, clock()));
  });

  router.put('/budgets', validJson(budgetsBody), async (c) => {
    const admin = allow(c, { roles: ['admin'] });
    const input = c.req.valid('json');
    const rows: LimitRow[] = [];
    const add = (scope: LimitRow['scope'], target: string, l: Limit) => {
      if (rows.some((r) => r.scope === scope && r.target === target)) throw new HubError('INVALID_BODY', `${scope} ${target} is given twice`);
      if (l.daily_micros !== null || l.monthly_micros !== null) rows.push({ scope, target, daily_micros: l.daily_micros, monthly_micros: l.monthly_micros });
    };
    if (input.organization) add('organization', '', input.organization);
    if (input.per_member) add('member', '*', input.per_member);
    for (const s of input.subscriptions) add('subscription', s.subscription_id, s);
    for (const m of input.members) add('member', m.member_id, m);
    const known = new Set((await ctx.db.selectFrom('members').select('id').where('removed_at', 'is', null).execute()).map((m) => m.id));
    const unknown = input.members.find((m) => !known.has(m.member_id));
    if (unknown) throw new HubError('INVALID_BODY', `members: no member ${unknown.member_id}`);
    await ctx.db.transaction().execute(async (trx) => {
      // Under the ledger lock: a limit never changes half-way through another adopt's check.
      await lockLedger(trx, ctx.engine);
      const before = await listLimits(trx);
      await replaceLimits(trx, rows);
      await appendAudit(trx, {
        actorId: admin.member.id,
        via: admin.via,
        action: 'budget.set',
        target: 'budgets',
        outcome: 'ok',
        details: { before: JSON.stringify(before), after: JSON.stringify(rows) },
      });
    });
    return c.json(await budgetsView(ctx.db, clock()));
  });

  return router;
}
