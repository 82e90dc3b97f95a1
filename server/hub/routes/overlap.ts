import { Hono } from 'hono';
import { disagreementsResponse, figuresQuery, overlapSettingsSchema, settleBody, type HubDisagreement } from '../../../src/api/contract/hub-overlap';
import { validJson, validQuery } from '../../http/validate';
import { settleDecision } from '../decisions/accept';
import { changeOverlap, sendRecounted } from '../decisions/recount';
import { HubError } from '../errors';
import { allow } from '../http/auth';
import type { HubContext, HubEnv } from '../http/context';
import { listTeamSubscriptions } from '../store/team-subscriptions';
import { DEFAULT_OVERLAP, listOverlap } from '../store/votes';
import { agreementOf, raterAgreement, type Ratings } from '../overlap/agreement';
import { reviewerFigures } from '../overlap/figures';

/*
 * Overlap and what comes of it (issue 26): the overlap N and rule per team subscription (every
 * member reads them; an admin sets them), the lead's queue of split items (admins read and settle,
 * viewers read), agreement per subscription and per reviewer (every member), and reviewers'
 * figures (an admin sees everyone's, a member their own).
 */

const iso = (ms: number) => new Date(ms).toISOString();
const CATEGORIES = ['adopt', 'dispute'];

export function overlapRouter(ctx: HubContext) {
  const router = new Hono<HubEnv>();
  const emails = async () => new Map((await ctx.db.selectFrom('members').select(['id', 'email']).execute()).map((m) => [m.id, m.email]));

  router.get('/overlap', async (c) => {
    allow(c, { token: true });
    const set = new Map((await listOverlap(ctx.db)).map((r) => [r.subscription_id, r]));
    const team = await listTeamSubscriptions(ctx.db);
    const ids = [...team.map((s) => s.id), ...[...set.keys()].filter((id) => !team.some((s) => s.id === id))];
    return c.json({
      settings: ids.map((id) => ({
        subscription_id: id,
        overlap: set.get(id)?.overlap ?? DEFAULT_OVERLAP.overlap,
        rule: set.get(id)?.rule ?? DEFAULT_OVERLAP.rule,
      })),
    });
  });

  router.put('/overlap', validJson(overlapSettingsSchema), async (c) => {
    const admin = allow(c, { roles: ['admin'] });
    const { settings } = c.req.valid('json');
    // An item needs N voters: more than the team has would leave it open for good (no split for the lead either).
    const voters = (await ctx.db.selectFrom('members').select('id').where('role', 'in', ['admin', 'reviewer']).where('removed_at', 'is', null).execute())
      .length;
    const beyond = settings.find((s) => s.overlap > voters);
    if (beyond) {
      throw new HubError(
        'INVALID_BODY',
        `overlap ${beyond.overlap} for ${beyond.subscription_id} needs ${beyond.overlap} members who can vote; the team has ${voters} (its admins and reviewers)`,
      );
    }
    // Undecided items are judged under the new setting in the same transaction (decisions/recount.ts); what that decides is sent after it commits.
    const taken = await ctx.db.transaction().execute((trx) => changeOverlap(trx, ctx, admin, settings, Date.now()));
    // Sent after the answer: lowering N may decide thousands of items, which the admin's request does
    // not wait for (a decision the vendor cannot take now stays queued, and the queue retries it).
    void sendRecounted(ctx, taken).catch((error: Error) => ctx.log?.(`overlap: sending the recount's decisions: ${error.message}`));
    return c.json({ settings });
  });

  router.get('/disagreements', async (c) => {
    allow(c, { roles: ['admin', 'viewer'], token: true, everySubscription: true });
    const items = await ctx.db.selectFrom('vote_items').selectAll().where('state', '=', 'lead').orderBy('updated_at').orderBy('item_id').limit(500).execute();
    const byEmail = await emails();
    const disagreements: HubDisagreement[] = [];
    for (const item of items) {
      const votes = await ctx.db
        .selectFrom('votes')
        .selectAll()
        .where('family', '=', item.family)
        .where('item_id', '=', item.item_id)
        .orderBy('first_at')
        .execute();
      const kept = await ctx.db
        .selectFrom('inbox_items')
        .select(['payload', 'price_micros'])
        .where('family', '=', item.family)
        .where('item_id', '=', item.item_id)
        .executeTakeFirst();
      let payload: unknown = null;
      try {
        payload = kept ? JSON.parse(kept.payload) : null;
      } catch {
        payload = null;
      }
      disagreements.push({
        family: item.family,
        item_id: item.item_id,
        subscription_id: item.subscription_id,
        needed: item.needed,
        rule: item.rule,
        votes: votes.map((v) => ({ member: { id: v.member_id, email: byEmail.get(v.member_id) ?? null }, vote: v.vote, reason: v.reason, at: iso(v.at) })),
        payload,
        price_micros: kept?.price_micros ?? votes.reduce<number | null>((p, v) => (v.price_micros === null ? p : Math.max(p ?? 0, v.price_micros)), null),
        since: iso(item.updated_at),
      });
    }
    return c.json(disagreementsResponse.parse({ disagreements }));
  });

  router.post('/disagreements/settle', validJson(settleBody), async (c) => {
    const lead = allow(c, { roles: ['admin'] });
    const body = c.req.valid('json');
    const answer = await settleDecision(ctx, lead, { family: body.family, itemId: body.item_id, kind: body.decision, reason: body.reason ?? null });
    return c.json(answer.body as object, answer.status as 200);
  });

  router.get('/agreement', async (c) => {
    allow(c, { token: true, everySubscription: true });
    const votes = await ctx.db.selectFrom('votes').select(['family', 'item_id', 'subscription_id', 'member_id', 'vote']).execute();
    const byItem = new Map<string, { subscription: string; ratings: { rater: string; category: string }[] }>();
    for (const v of votes) {
      const key = `${v.family}:${v.item_id}`;
      const entry = byItem.get(key) ?? { subscription: v.subscription_id ?? '', ratings: [] };
      entry.ratings.push({ rater: v.member_id, category: v.vote });
      byItem.set(key, entry);
    }
    const items = [...byItem.values()].filter((i) => i.ratings.length >= 2);
    const subscriptions = [...new Set(items.map((i) => i.subscription))].sort();
    const raters = [...new Set(items.flatMap((i) => i.ratings.map((r) => r.rater)))].sort();
    const byEmail = await emails();
    const all: Ratings[] = items.map((i) => i.ratings);
    return c.json({
      subscriptions: subscriptions.map((id) => ({
        subscription_id: id,
        ...agreementOf(
          items.filter((i) => i.subscription === id).map((i) => i.ratings),
          CATEGORIES,
        ),
      })),
      reviewers: raters.map((id) => ({ member: { id, email: byEmail.get(id) ?? null }, ...raterAgreement(all, id) })),
    });
  });

  router.get('/reviewers/figures', validQuery(figuresQuery), async (c) => {
    const principal = allow(c, { token: true, everySubscription: true });
    const asked = c.req.valid('query').member;
    // A member reads their own figures; an admin anyone's.
    if (principal.member.role !== 'admin' && asked !== undefined && asked !== principal.member.id)
      throw new HubError('FORBIDDEN', 'a member reads their own figures; an admin reads everyone’s');
    const member = principal.member.role === 'admin' ? asked : principal.member.id;
    let query = ctx.db.selectFrom('votes').select(['family', 'item_id', 'member_id', 'vote', 'first_at']);
    if (member !== undefined) query = query.where('member_id', '=', member);
    const votes = await query.execute();
    const decisions = await ctx.db.selectFrom('decisions').select(['family', 'item_id', 'kind']).where('state', 'not in', ['refused', 'dropped']).execute();
    const team = new Map(decisions.map((d) => [`${d.family}:${d.item_id}`, d.kind]));
    const byEmail = await emails();
    const rows = reviewerFigures(
      votes.map((v) => ({ member_id: v.member_id, key: `${v.family}:${v.item_id}`, vote: v.vote, first_at: v.first_at })),
      team,
    );
    return c.json({ rows: rows.map(({ member_id, ...r }) => ({ member: { id: member_id, email: byEmail.get(member_id) ?? null }, ...r })) });
  });

  return router;
}
