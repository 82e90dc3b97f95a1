import { sql, type Kysely, type Selectable, type SqlBool } from 'kysely';
import { newId } from '../../lib/ids';
import type { DecisionsTable, Engine, HubTables } from '../db/schema';
import { shaped } from '../db/shaped';

/*
 * Every write here runs in a transaction, even a single UPDATE: on SQLite a statement that fails
 * on a lock (SQLITE_BUSY) outside one is left "in progress" by libsql, and every later COMMIT on
 * the hub's connection then fails; a transaction's BEGIN fails cleanly instead (db/sqlite.ts).
 *
 * The decision queue's rows. A decision is claimed (`sending`, with a claim that runs out) by one
 * UPDATE guarded on its state, so two senders never send one at once; it is recorded the same
 * way, guarded on `sending`.
 */

export type DecisionRow = Selectable<DecisionsTable>;

/** A claim outlives the upstream timeout (30 s): a send still under way is never claimed again. */
export const CLAIM_MS = 60_000;

export type NewDecision = Pick<
  DecisionRow,
  'family' | 'item_id' | 'kind' | 'subscription_id' | 'reason' | 'body' | 'price_micros' | 'charged' | 'member_id' | 'via'
>;

/** An arbitrary constant naming the items' locks ("ddhi" as a number); a two-key lock never meets the ledger's one-key lock. */
export const ITEM_LOCKS = 0x64646869;
/** Another, naming each subscription's overlap setting ("ddho"). */
const OVERLAP_LOCKS = 0x6464686f;

/**
 * One item's lock, taken first by every transaction that may decide or vote on it: two requests
 * on the same item take turns (one decision, one count of votes), while requests on other items
 * go on in parallel. The ledger lock is taken after it, and only for a budget check. SQLite: the
 * write transaction already serializes everything. PostgreSQL: a transaction-level advisory lock
 * on (ITEM_LOCKS, a hash of the item); two items sharing a hash only take turns.
 *
 * With the item's subscription, its overlap setting's lock is taken first, shared (in the same
 * statement, left to right): votes never wait for each other on it, only for an admin changing the
 * setting (lockOverlapSettings), so a first vote never counts under a setting that is being
 * replaced while the change recounts the items voted before it (decisions/recount.ts). Lock order:
 * overlap setting, item, ledger, audit head.
 */
export async function lockItem(db: Kysely<HubTables>, engine: Engine, family: string, itemId: string, subscriptionId: string | null = null): Promise<void> {
  const lock = itemLock(engine, family, itemId, subscriptionId);
  if (lock) await lock.execute(db);
}

/** lockItem's statement, to send ahead of the reads it guards (db/in-order.ts); null on SQLite. */
export function itemLock(engine: Engine, family: string, itemId: string, subscriptionId: string | null) {
  if (engine !== 'postgres') return null;
  const item = `${family}/${itemId}`;
  if (subscriptionId === null) return sql`select pg_advisory_xact_lock(${ITEM_LOCKS}, hashtext(${item}))`;
  return sql`select pg_advisory_xact_lock_shared(${OVERLAP_LOCKS}, hashtext(${subscriptionId})), pg_advisory_xact_lock(${ITEM_LOCKS}, hashtext(${item}))`;
}

/** The overlap settings' locks, exclusive, in one order (two changes naming the same subscriptions take turns, never deadlock). */
export async function lockOverlapSettings(db: Kysely<HubTables>, engine: Engine, subscriptionIds: readonly string[]): Promise<void> {
  if (engine !== 'postgres' || subscriptionIds.length === 0) return;
  const keys = sql.join([...new Set(subscriptionIds)].sort().map((id) => sql`(${id})`));
  await sql`select pg_advisory_xact_lock(${OVERLAP_LOCKS}, hashtext(s.id)) from (values ${keys}) as s(id) order by hashtext(s.id)`.execute(db);
}

/** The item's standing decision (neither refused nor dropped): at most one row (a unique index). */
export const activeDecisionQuery = (db: Kysely<HubTables>, family: string, itemId: string) =>
  db
    .selectFrom('decisions')
    .selectAll()
    .where('family', '=', family as DecisionRow['family'])
    .where('item_id', '=', itemId)
    // As the partial unique index `decisions_item` says it, a literal: a generic plan of the prepared
    // statement (db/named-statements.ts) can use that index, which bound parameters would not let it.
    .where(sql<SqlBool>`state not in ('refused', 'dropped')`);

/** activeDecisionQuery compiled once (db/shaped.ts), for the decision path. */
export const activeDecisionStatement = shaped(['family', 'itemId'], (db, v: { family: string; itemId: string }) => activeDecisionQuery(db, v.family, v.itemId));

export const findActiveDecision = (db: Kysely<HubTables>, family: string, itemId: string) => activeDecisionQuery(db, family, itemId).executeTakeFirst();

export const findDecision = (db: Kysely<HubTables>, id: string) => db.selectFrom('decisions').selectAll().where('id', '=', id).executeTakeFirst();

/** A new decision: held, or claimed for an immediate send (`sending`) with its spend counted from `countedAt`. */
export async function insertDecision(
  db: Kysely<HubTables>,
  input: NewDecision,
  state: 'held' | 'sending',
  at: { now: number; countedAt: number | null },
): Promise<DecisionRow> {
  const row = newDecision(input, state, at);
  await db.insertInto('decisions').values(row).execute();
  return row;
}

/** The row insertDecision writes, for a caller that sends its INSERT with other statements. */
export function newDecision(input: NewDecision, state: 'held' | 'sending', at: { now: number; countedAt: number | null }): DecisionRow {
  return {
    ...input,
    id: newId('dec'),
    receipt_micros: null,
    state,
    attempts: 0,
    next_attempt_at: at.now,
    claimed_until: state === 'sending' ? at.now + CLAIM_MS : null,
    counted_at: at.countedAt,
    created_at: at.now,
    updated_at: at.now,
    sent_at: null,
    response_status: null,
    response_body: null,
    outcome: null,
  };
}

/** Every column of a decision row, in newDecision's order: a new one is inserted with all of them. */
const DECISION_COLUMNS: Record<keyof DecisionRow, true> = {
  family: true,
  item_id: true,
  kind: true,
  subscription_id: true,
  reason: true,
  body: true,
  price_micros: true,
  charged: true,
  member_id: true,
  via: true,
  id: true,
  receipt_micros: true,
  state: true,
  attempts: true,
  next_attempt_at: true,
  claimed_until: true,
  counted_at: true,
  created_at: true,
  updated_at: true,
  sent_at: true,
  response_status: true,
  response_body: true,
  outcome: true,
};

/** A newDecision row's insert, compiled once (db/shaped.ts). */
export const insertDecisionStatement = shaped(Object.keys(DECISION_COLUMNS) as (keyof DecisionRow)[], (db, row: DecisionRow) =>
  db.insertInto('decisions').values(row),
);

/** Claims a due queued decision for this sender; false when another got it first. */
export async function claimDecision(db: Kysely<HubTables>, id: string, now: number): Promise<boolean> {
  const result = await db.transaction().execute((trx) =>
    trx
      .updateTable('decisions')
      .set({ state: 'sending', claimed_until: now + CLAIM_MS, updated_at: now })
      .where('id', '=', id)
      .where('state', '=', 'queued')
      .executeTakeFirst(),
  );
  return Number(result.numUpdatedRows) === 1;
}

/** Queued decisions whose next attempt is due, oldest first. */
export const dueDecisions = (db: Kysely<HubTables>, now: number, limit: number) =>
  db.selectFrom('decisions').select('id').where('state', '=', 'queued').where('next_attempt_at', '<=', now).orderBy('next_attempt_at').limit(limit).execute();

/**
 * Claims whose sender is gone back in the queue: at start every `sending` row (this hub was
 * killed mid-send; one hub process serves a store), later those whose claim ran out.
 */
export async function reclaimSending(db: Kysely<HubTables>, now: number, all: boolean): Promise<number> {
  return db.transaction().execute(async (trx) => {
    let query = trx
      .updateTable('decisions')
      .set({ state: 'queued', claimed_until: null, next_attempt_at: now, updated_at: now })
      .where('state', '=', 'sending');
    if (!all) query = query.where('claimed_until', '<', now);
    return Number((await query.executeTakeFirst()).numUpdatedRows);
  });
}

/** The vendor's answer, final (sent or refused); only by the sender holding the claim. */
export async function recordAnswer(
  db: Kysely<HubTables>,
  id: string,
  answer: { state: 'sent' | 'refused'; status: number; body: string; outcome: string },
  now: number,
): Promise<boolean> {
  const { state, status, body, outcome } = answer;
  const result = await db.executeQuery(recordAnswerStatement(db, { id, state, status, body, outcome, sentAt: state === 'sent' ? now : null, now }));
  return Number(result.numAffectedRows) === 1;
}

interface RecordedAnswer {
  id: string;
  state: 'sent' | 'refused';
  status: number;
  body: string;
  outcome: string;
  sentAt: number | null;
  now: number;
}

/** recordAnswer's statement, built directly (shapes.test.ts compares it with the shaped one). */
export const recordAnswerQuery = (db: Kysely<HubTables>, a: RecordedAnswer) =>
  db
    .updateTable('decisions')
    .set((eb) => ({
      state: a.state,
      response_status: a.status,
      response_body: a.body,
      outcome: a.outcome,
      sent_at: a.sentAt,
      claimed_until: null,
      attempts: eb('attempts', '+', 1),
      updated_at: a.now,
    }))
    .where('id', '=', a.id)
    .where('state', '=', 'sending');

/** The same compiled once (db/shaped.ts): every sent decision records its answer. */
export const recordAnswerStatement = shaped(['id', 'state', 'status', 'body', 'outcome', 'sentAt', 'now'], recordAnswerQuery);

/** Not delivered this time: back in the queue until `next`. */
export async function recordRetry(db: Kysely<HubTables>, id: string, reason: string, next: number, now: number): Promise<void> {
  await db.transaction().execute((trx) =>
    trx
      .updateTable('decisions')
      .set((eb) => ({ state: 'queued', outcome: reason, next_attempt_at: next, claimed_until: null, attempts: eb('attempts', '+', 1), updated_at: now }))
      .where('id', '=', id)
      .where('state', '=', 'sending')
      .execute(),
  );
}
