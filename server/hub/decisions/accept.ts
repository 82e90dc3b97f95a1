import type { Kysely, Selectable } from 'kysely';
import { liveAdoptBodySchema, liveDisputeBodySchema } from '../../../src/api/contract';
import type { HubTables, VendorKeysTable } from '../db/schema';
import { syncCommits } from '../db/durable';
import { HubError } from '../errors';
import type { HubContext, Principal } from '../http/context';
import { appendAudit, appendAuditAfter, auditedTransaction, type TransactionEnd } from '../store/audit';
import { inOrder, type Statement } from '../db/in-order';
import { ledgerLock, limitsStatement, spendOf, spendStatement, type LimitRow, type SpendRow } from '../store/budgets';
import { spendBounds } from '../store/receipts';
import {
  activeDecisionStatement,
  findActiveDecision,
  insertDecision,
  insertDecisionStatement,
  itemLock,
  lockItem,
  newDecision,
  type DecisionRow,
} from '../store/decisions';
import { holdOfDecision, insertHold } from '../store/holds';
import { vendorKeyFor, type VendorCredential } from '../store/vendor-keys';
import { findVoteItem, voteItemAndOverlapOf, voteItemAndOverlapStatement, type VoteItemAndOverlapRow } from '../store/votes';
import { endLeaseOnVote, liveLeaseStatement } from '../store/leases';
import { heldAnswer, queuedAnswer, recordedAnswer, sentAnswer, type Answer } from './answers';
import { limitPassed } from './budget';
import { deliver } from './deliver';
import { periodsAt } from './periods';
import { castVote, settleVote, votedAnswer, type TeamChoice } from './votes';

/*
 * An adopt or dispute reaching the hub's /v1: written durably in one transaction (the decision,
 * its audit row and, for a charged adopt, the budget check under the ledger lock), then sent at
 * once. The transaction holds the item's lock throughout: one decision per item, while decisions
 * on other items, and every dispute, go on without waiting for the ledger. Whatever happens
 * to the request after the commit, the decision is the hub's to deliver.
 */

export interface DecisionRequest {
  family: 'data' | 'live';
  itemId: string;
  kind: 'adopt' | 'dispute';
  subscriptionId: string | null;
  /** The price seen at the pull through the hub (simulated items). */
  priceMicros: number | null;
  reason: string | null;
  body: string | undefined;
  /** The stored vendor keys, when the request started reading them already. */
  vendorKeys?: Promise<Selectable<VendorKeysTable>[]>;
}

const MAX_ITEM_ID = 200;

/** A live decision's body is checked here, not by the vendor later: a queued decision must be one the vendor can take. */
function checkedBody(request: DecisionRequest): string | null {
  if (request.family === 'data') return null;
  let json: unknown;
  try {
    json = JSON.parse(request.body ?? '');
  } catch {
    throw new HubError('INVALID_BODY', 'request body must be a JSON object with subscription_id');
  }
  const parsed = (request.kind === 'adopt' ? liveAdoptBodySchema : liveDisputeBodySchema).safeParse(json);
  if (!parsed.success || typeof json !== 'object' || json === null || Array.isArray(json))
    throw new HubError('INVALID_BODY', parsed.error?.issues[0]?.message ?? 'request body must be a JSON object');
  return request.body!;
}

/** What the transaction took: `voted` (overlap, no team decision yet); `voted` on the others when the team decided other than this vote. */
type Accepted =
  | { kind: 'existing'; row: DecisionRow }
  | { kind: 'voted'; answer: Answer }
  | { kind: 'held'; row: DecisionRow; holdId: string; limit: string; voted?: Answer }
  | { kind: 'accepted'; row: DecisionRow; voted?: Answer }
  | { kind: 'leased'; email: string };
export type Taken = Exclude<Accepted, { kind: 'existing' | 'voted' | 'leased' }>;

export async function acceptDecision(ctx: HubContext, principal: Principal, request: DecisionRequest): Promise<Answer> {
  if (request.itemId.length === 0 || request.itemId.length > MAX_ITEM_ID)
    throw new HubError('INVALID_PARAMETER', `an item id is 1 to ${MAX_ITEM_ID} characters`);
  const body = checkedBody(request);
  // Nothing is accepted that the hub has no way to send.
  if (!ctx.upstream) throw new HubError('NO_UPSTREAM', 'this hub forwards to no Data Delivery Service: start it with --upstream URL (or --demo)');
  const credential = await vendorKeyFor(ctx.db, ctx.cipher, request.subscriptionId, request.vendorKeys);
  if (!credential) {
    throw new HubError(
      'NO_VENDOR_KEY',
      `the hub holds no vendor key ${request.subscriptionId === null ? 'covering every subscription (*)' : `for subscription ${request.subscriptionId}`}: an admin adds one`,
    );
  }
  // The decision's writes and its audit row carry the COMMIT (store/audit.ts), one round trip fewer
  // on PostgreSQL; the callback runs again, from the item's lock on, should another writer have
  // moved the audit head. The decision is committed before it is answered or sent either way.
  const accepted = await auditedTransaction(ctx.db, async (trx, end): Promise<Accepted> => {
    const { family, itemId, subscriptionId } = request;
    // The item's lock, then what stands on it, read under the lock: on PostgreSQL sent with the
    // BEGIN, one round trip for all (db/in-order.ts; each read is its own statement, run once the
    // lock is granted, so it sees every decision committed before). A simulated adopt will most
    // likely be a charged decision: the ledger's lock and reads go with them (takeTeamDecision),
    // taken after the item's as always, one round trip fewer.
    const counted = (ctx.clock ?? Date.now)();
    const charging = family === 'data' && request.kind === 'adopt';
    const [, decided, leased, voting, , limitRows, spendRows] = await inOrder(trx, [
      itemLock(ctx.engine, family, itemId, subscriptionId),
      activeDecisionStatement(trx, { family, itemId }),
      liveLeaseStatement(trx, { family, itemId, now: counted }),
      voteItemAndOverlapStatement(trx, { family, itemId, subscriptionId }),
      ...(charging ? ledgerStatements(trx, ctx, counted) : []),
    ]);
    const ledger = charging ? { counted, limits: limitRows!.rows as LimitRow[], spend: spendRows!.rows as SpendRow[] } : undefined;
    const existing = decided!.rows[0] as DecisionRow | undefined;
    if (existing) return { kind: 'existing', row: existing };
    // The team queue: an item leased to another member is theirs to decide (or vote on) while the lease lives.
    const lease = leased!.rows[0] as { member_id: string; email: string } | undefined;
    if (lease && lease.member_id !== principal.member.id) return { kind: 'leased', email: lease.email };
    // The member's vote (votes.ts): with overlap it is kept, and the team decides when the rule does.
    // Without, its row is written with the decision's (`later`).
    const later: Statement[] = [];
    const vote = await castVote(
      trx,
      ctx.engine,
      principal,
      { ...request, body },
      Date.now(),
      voteItemAndOverlapOf(voting!.rows[0] as VoteItemAndOverlapRow | undefined),
      later,
    );
    if (vote && !vote.team) {
      await endLeaseOnVote(trx, request.family, request.itemId, principal.member.id, (ctx.clock ?? Date.now)());
      return { kind: 'voted', answer: votedAnswer(request, vote.state) };
    }
    const team = vote?.team ?? { kind: request.kind, reason: request.reason, body, priceMicros: request.priceMicros, memberId: principal.member.id };
    const taken = await takeTeamDecision(trx, ctx, principal, { family, itemId, subscriptionId }, team, later, ledger, end);
    // The rule made the team's decision other than this vote: the voter is told where their vote stands.
    return vote && team.kind !== request.kind ? { ...taken, voted: votedAnswer(request, vote.state) } : taken;
  });

  if (accepted.kind === 'voted') return accepted.answer;
  const audit = {
    actorId: principal.member.id,
    via: principal.via,
    action: `v1.${request.kind}` as const,
    target: `/${request.family}/items/${request.itemId}/${request.kind}`,
  };
  const common = { subscriptionId: request.subscriptionId, itemId: request.itemId, amountMicros: null, reason: request.reason };
  if (accepted.kind === 'leased') {
    await ctx.db.transaction().execute((trx) => appendAudit(trx, { ...audit, ...common, outcome: 'ITEM_LEASED', details: { holder: accepted.email } }));
    throw new HubError(
      'ITEM_LEASED',
      `item ${request.itemId} is leased to ${accepted.email}: it is theirs to decide until they release it or it expires`,
      {},
      `leased to ${accepted.email} now`,
    );
  }
  if (accepted.kind === 'existing') {
    const row = accepted.row;
    if (row.kind !== request.kind) {
      await ctx.db.transaction().execute((trx) => appendAudit(trx, { ...audit, ...common, outcome: 'ALREADY_DECIDED', details: { decision_id: row.id } }));
      // Who decided what, so an offline reviewer's conflict says so (docs/hub.md, the review from the queue).
      const by = await ctx.db.selectFrom('members').select('email').where('id', '=', row.member_id).executeTakeFirst();
      throw new HubError('ALREADY_DECIDED', `the team already decided ${row.kind} on item ${row.item_id}`, {}, `${row.kind} by ${by?.email ?? 'a teammate'}`);
    }
    return recordedAnswer(row, row.state === 'held' ? await holdOfDecision(ctx.db, row.id) : undefined);
  }
  return finishTeamDecision(ctx, accepted, credential);
}

/** The lead settles an item of their queue (votes.ts): their decision is the team's, taken as any other. */
export async function settleDecision(
  ctx: HubContext,
  lead: Principal,
  settle: { family: 'data' | 'live'; itemId: string; kind: 'adopt' | 'dispute'; reason: string | null },
): Promise<Answer> {
  const item = await findVoteItem(ctx.db, settle.family, settle.itemId);
  if (item?.state !== 'lead') throw new HubError('NOT_WITH_THE_LEAD', `item ${settle.itemId} is not in the lead's queue (settled, decided, or never split)`);
  if (!ctx.upstream) throw new HubError('NO_UPSTREAM', 'this hub forwards to no Data Delivery Service: start it with --upstream URL (or --demo)');
  const credential = await vendorKeyFor(ctx.db, ctx.cipher, item.subscription_id);
  if (!credential) throw new HubError('NO_VENDOR_KEY', `the hub holds no vendor key for subscription ${item.subscription_id ?? '(none)'}: an admin adds one`);
  const accepted = await ctx.db.transaction().execute(async (trx) => {
    await lockItem(trx, ctx.engine, settle.family, settle.itemId, item.subscription_id);
    if (await findActiveDecision(trx, settle.family, settle.itemId)) throw new HubError('ALREADY_DECIDED', `the team already decided item ${settle.itemId}`);
    const { choice, subscriptionId } = await settleVote(trx, lead, settle, Date.now());
    return takeTeamDecision(trx, ctx, lead, { family: settle.family, itemId: settle.itemId, subscriptionId }, choice);
  });
  return finishTeamDecision(ctx, accepted, credential);
}

/**
 * The team's decision written durably (call in a transaction holding the item's lock): the
 * decision, its audit row and, for a charged adopt, the budget check under the ledger lock (budgets
 * apply to the team's decision, not to votes). `later`: writes of the caller's sent ahead of the
 * decision's, together with them. `end` (auditedTransaction's): the decision's writes end the
 * transaction, and may carry its COMMIT; nothing may run in it after this returns.
 */
export async function takeTeamDecision(
  trx: Kysely<HubTables>,
  ctx: HubContext,
  principal: Principal,
  item: { family: 'data' | 'live'; itemId: string; subscriptionId: string | null },
  team: TeamChoice,
  later: Statement[] = [],
  ledgerRead?: LedgerRead,
  end?: TransactionEnd,
): Promise<Taken> {
  const clock = ctx.clock ?? Date.now;
  const charged = item.family === 'data' && team.kind === 'adopt';
  const audit = {
    actorId: principal.member.id,
    via: principal.via,
    action: `v1.${team.kind}` as const,
    target: `/${item.family}/items/${item.itemId}/${team.kind}`,
  };
  const common = { subscriptionId: item.subscriptionId, itemId: item.itemId, amountMicros: charged ? team.priceMicros : null, reason: team.reason };
  const now = Date.now();
  const counted = ledgerRead?.counted ?? clock();
  const input = {
    family: item.family,
    item_id: item.itemId,
    kind: team.kind,
    subscription_id: item.subscriptionId,
    reason: team.reason,
    body: team.body,
    price_micros: team.priceMicros,
    charged: charged ? 1 : 0,
    member_id: team.memberId,
    via: principal.via,
  };
  if (charged) {
    // Only what is spent needs the ledger: a dispute or an uncharged adopt never waits for it. The
    // lock, the limits and the spend go out together (one round trip on PostgreSQL), the reads run
    // once the lock is held: every adopt's check sees the entries of all checked before it. The
    // instant was read before the lock was granted, which changes no sum: an entry counts in the
    // period of its own instant, and whichever check comes later sees it there.
    const ledger = ledgerRead ?? (await readLedger(trx, ctx, counted));
    const limits = ledger.limits;
    const passed =
      limits.length === 0
        ? null
        : limitPassed(limits, spendOf(ledger.spend), {
            subscription_id: item.subscriptionId,
            member_id: team.memberId,
            amount: team.priceMicros,
          });
    if (passed) {
      await inOrder(trx, later);
      const row = await insertDecision(trx, input, 'held', { now, countedAt: null });
      const hold = await insertHold(trx, row.id, passed, now);
      await appendAudit(trx, { ...audit, ...common, outcome: 'BUDGET_HELD', details: { decision_id: row.id, hold_id: hold.id, limit: passed } }, now);
      return { kind: 'held', row, holdId: hold.id, limit: passed };
    }
  }
  // The vote, the decision and its audit row (with `end`, the COMMIT too): one round trip on PostgreSQL.
  const row = newDecision(input, 'sending', { now, countedAt: charged ? counted : null });
  await appendAuditAfter(
    trx,
    [...later, insertDecisionStatement(trx, row)],
    { ...audit, ...common, outcome: 'accepted', details: { decision_id: row.id } },
    now,
    end,
  );
  return { kind: 'accepted', row };
}

/** The ledger as a charged decision's check reads it, under the ledger's lock, and the instant it counts at. */
interface LedgerRead {
  counted: number;
  limits: LimitRow[];
  spend: SpendRow[];
}

/** The ledger's lock, the limits and the spend: the reads run once the lock is held. */
const ledgerStatements = (trx: Kysely<HubTables>, ctx: HubContext, counted: number) => [
  ledgerLock(ctx.engine),
  limitsStatement(trx, {}),
  spendStatement(trx, spendBounds(periodsAt(counted))),
];

async function readLedger(trx: Kysely<HubTables>, ctx: HubContext, counted: number): Promise<LedgerRead> {
  const [, limitRows, spendRows] = await inOrder(trx, ledgerStatements(trx, ctx, counted));
  return { counted, limits: limitRows!.rows as LimitRow[], spend: spendRows!.rows as SpendRow[] };
}

/** After the commit: a held adopt's answer, or the decision sent at once (the vendor's answer, or 202 queued). */
async function finishTeamDecision(ctx: HubContext, accepted: Taken, credential: VendorCredential): Promise<Answer> {
  if (accepted.kind === 'held') {
    // The browser lets go of a held adopt: the hub's copy must outlive a power loss (db/durable.ts).
    await syncCommits(ctx.db, ctx.engine);
    return accepted.voted ?? heldAnswer(accepted.holdId, accepted.limit);
  }
  const answer = await answerFor(ctx, accepted.row, await deliver(ctx, accepted.row, { answerFirst: true, credential }));
  return accepted.voted ?? answer;
}

/** A decision just sent (or not): the vendor's answer, or 202 queued. */
async function answerFor(ctx: HubContext, row: DecisionRow, delivered: Awaited<ReturnType<typeof deliver>>): Promise<Answer> {
  if (delivered.state === 'queued') {
    // Queued: the browser's outbox lets go of it now, so the hub's copy must outlive a power loss.
    await syncCommits(ctx.db, ctx.engine);
    return queuedAnswer(row);
  }
  if (delivered.state === 'sent') return sentAnswer(row, delivered.status, delivered.parsed);
  // The vendor's refusal, handed on as it is.
  return { status: delivered.status, body: delivered.parsed };
}
