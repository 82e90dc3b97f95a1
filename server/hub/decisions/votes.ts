import type { Kysely } from 'kysely';
import type { HubVoteState } from '../../../src/api/contract/hub-overlap';
import type { Engine, HubTables } from '../db/schema';
import { HubError } from '../errors';
import type { Principal } from '../http/context';
import { appendAudit } from '../store/audit';
import { lockLedger } from '../store/budgets';
import type { Statement } from '../db/in-order';
import { findVoteItem, putVote, putVoteItem, putVoteStatement, voteItemAndOverlap, votesOn, type VoteItemAndOverlap, type VoteRow } from '../store/votes';
import { teamOutcome } from '../overlap/rule';

/*
 * Overlap (issue 26): every member's adopt or dispute is their vote. With the subscription's
 * overlap N = 1 the vote is the team's decision, as before. With N > 1 the vote is kept and
 * answered 202 `hub.state: 'voted'`; once N votes are in, the rule (unanimous or majority) makes
 * the team's decision, which enters the decision queue (accept.ts) in the same transaction, under
 * the item's lock, so concurrent votes make one decision. A split the rule cannot decide goes to
 * the lead's queue; an admin settles it. A member may change their vote until then; after, the item
 * is the lead's (409 WITH_THE_LEAD).
 */

/** The team's decision as it enters the queue: what, why, the live body, the pull-time price, and whose. */
export interface TeamChoice {
  kind: 'adopt' | 'dispute';
  reason: string | null;
  body: string | null;
  priceMicros: number | null;
  memberId: string;
}

export interface CastVote {
  family: 'data' | 'live';
  itemId: string;
  kind: 'adopt' | 'dispute';
  subscriptionId: string | null;
  priceMicros: number | null;
  reason: string | null;
  body: string | null;
}

/** null: no overlap for this item (the vote is the team's decision); else the vote's state and the team's choice if the rule made one. */
export type VoteResult = { state: HubVoteState; team: TeamChoice | null } | null;

const highestPrice = (votes: VoteRow[]) => votes.reduce<number | null>((p, v) => (v.price_micros === null ? p : Math.max(p ?? 0, v.price_micros)), null);

/** The team's choice of `kind`: the first such vote's reason and body (a live decision must carry one). */
export function choiceFrom(votes: VoteRow[], kind: 'adopt' | 'dispute', memberId: string): TeamChoice {
  const first = votes.find((v) => v.vote === kind);
  return { kind, reason: first?.reason ?? null, body: first?.body ?? null, priceMicros: highestPrice(votes), memberId };
}

/**
 * Records a member's vote (call in the decision's transaction, after the check for a team decision
 * already made). `read`: the item's vote row and overlap, when the caller read them under the item's
 * lock already. `later`: where the vote's write goes when it is the team's decision (no overlap),
 * for the caller to send with the decision's own writes (db/in-order.ts); written at once otherwise.
 */
export async function castVote(
  trx: Kysely<HubTables>,
  engine: Engine,
  principal: Principal,
  vote: CastVote,
  now: number,
  read?: VoteItemAndOverlap,
  later?: Statement[],
): Promise<VoteResult> {
  const { item, overlap } = read ?? (await voteItemAndOverlap(trx, vote.family, vote.itemId, vote.subscriptionId));
  const row = {
    family: vote.family,
    item_id: vote.itemId,
    member_id: principal.member.id,
    subscription_id: vote.subscriptionId,
    vote: vote.kind,
    reason: vote.reason,
    body: vote.body,
    price_micros: vote.priceMicros,
    at: now,
  };
  // Not under overlap, or decided before and its decision dropped (a held adopt): the vote is the team's decision.
  const setting = item ? { overlap: item.needed, rule: item.rule } : overlap;
  if ((!item && setting.overlap <= 1) || item?.state === 'decided' || item?.state === 'settled') {
    if (later) later.push(putVoteStatement(trx, row));
    else await putVote(trx, row);
    return null;
  }
  const before = await votesOn(trx, vote.family, vote.itemId);
  const mine = before.find((v) => v.member_id === principal.member.id);
  if (item?.state === 'lead') {
    // Asked again with the same vote (a retried request): the same answer, nothing changes.
    if (mine?.vote === vote.kind) return { state: { state: 'voted', votes: before.length, needed: item.needed, outcome: 'lead' }, team: null };
    throw new HubError('WITH_THE_LEAD', `the reviewers' votes on item ${vote.itemId} are in and split: the lead settles it`);
  }
  await putVote(trx, row);
  const votes = await votesOn(trx, vote.family, vote.itemId);
  const outcome = teamOutcome(
    votes.map((v) => v.vote),
    setting.overlap,
    setting.rule,
  );
  const state = outcome === null ? 'open' : outcome === 'lead' ? 'lead' : 'decided';
  await putVoteItem(trx, {
    family: vote.family,
    item_id: vote.itemId,
    subscription_id: vote.subscriptionId,
    needed: setting.overlap,
    rule: setting.rule,
    state,
    outcome: outcome === 'adopt' || outcome === 'dispute' ? outcome : null,
    updated_at: now,
    settled_by: null,
  });
  // The team adopts a simulated item: its budget check (accept.ts) needs the ledger. Taken before
  // this audit row, whose head row a ledger holder also waits for (lock order: item, ledger, audit).
  if (vote.family === 'data' && outcome === 'adopt') await lockLedger(trx, engine);
  await appendAudit(
    trx,
    {
      actorId: principal.member.id,
      via: principal.via,
      action: `vote.${vote.kind}`,
      target: `/${vote.family}/items/${vote.itemId}`,
      subscriptionId: vote.subscriptionId,
      itemId: vote.itemId,
      reason: vote.reason,
      outcome: outcome ?? 'voted',
      details: { votes: votes.length, needed: setting.overlap, rule: setting.rule, ...(mine && mine.vote !== vote.kind ? { changed_from: mine.vote } : {}) },
    },
    now,
  );
  return {
    state: { state: 'voted', votes: votes.length, needed: setting.overlap, outcome },
    team: outcome === 'adopt' || outcome === 'dispute' ? choiceFrom(votes, outcome, principal.member.id) : null,
  };
}

/** The lead's decision on an item in their queue: the team's (call in the decision's transaction). */
export async function settleVote(
  trx: Kysely<HubTables>,
  lead: Principal,
  settle: { family: 'data' | 'live'; itemId: string; kind: 'adopt' | 'dispute'; reason: string | null },
  now: number,
): Promise<{ choice: TeamChoice; subscriptionId: string | null }> {
  const item = await findVoteItem(trx, settle.family, settle.itemId);
  if (item?.state !== 'lead') throw new HubError('NOT_WITH_THE_LEAD', `item ${settle.itemId} is not in the lead's queue (settled, decided, or never split)`);
  const votes = await votesOn(trx, settle.family, settle.itemId);
  await putVoteItem(trx, { ...item, state: 'settled', outcome: settle.kind, updated_at: now, settled_by: lead.member.id });
  const choice = choiceFrom(votes, settle.kind, lead.member.id);
  if (settle.reason) choice.reason = settle.reason;
  // A live decision carries its body (4.8/4.9): the lead's reason goes in it.
  if (settle.family === 'live') {
    const body = JSON.parse(choice.body ?? JSON.stringify({ subscription_id: item.subscription_id })) as Record<string, unknown>;
    choice.body = JSON.stringify(settle.kind === 'dispute' && choice.reason ? { ...body, reason: choice.reason } : { subscription_id: body.subscription_id });
  }
  return { choice, subscriptionId: item.subscription_id };
}

/** What a vote that did not (yet) make the team's decision answers: the vendor's success shape for the vote, and where it stands. */
export function votedAnswer(vote: Pick<CastVote, 'family' | 'itemId' | 'kind'>, state: HubVoteState) {
  const shape =
    vote.family === 'live'
      ? { ok: true, submission_id: vote.itemId, feedback: vote.kind }
      : { ok: true, item_id: vote.itemId, status: vote.kind === 'adopt' ? 'adopted' : 'disputed' };
  return { status: 202, body: { ...shape, hub: state } };
}
