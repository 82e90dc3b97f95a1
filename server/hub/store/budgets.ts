import { sql, type Kysely } from 'kysely';
import type { Periods } from '../decisions/periods';
import type { BudgetLimitsTable, Engine, HubTables } from '../db/schema';
import { shaped } from '../db/shaped';
import { outsideSpendQuery, spendBounds, type SpendBounds } from './receipts';

/*
 * Budgets and the ledger they are checked against. Spend is the hub's own record of charged
 * adopts that are queued, being sent or sent (a held, refused or dropped one is not spend), each
 * row counted once: the vendor's receipt amount when the hub knows it, else the price seen at the
 * pull; the period is the hub-clock instant it entered the ledger (`counted_at`).
 */

export type LimitRow = BudgetLimitsTable;

/** Every charged adopt the vendor has or will have: what counts. */
const SPENDING = ['queued', 'sending', 'sent'] as const;
const AMOUNT = sql<number>`coalesce(receipt_micros, price_micros, 0)`;

export const limitsQuery = (db: Kysely<HubTables>) => db.selectFrom('budget_limits').selectAll().orderBy('scope').orderBy('target');

/** limitsQuery compiled once (db/shaped.ts), for the decision path. */
export const limitsStatement = shaped([], (db) => limitsQuery(db));

export const listLimits = (db: Kysely<HubTables>) => limitsQuery(db).execute();

export async function replaceLimits(db: Kysely<HubTables>, rows: LimitRow[]): Promise<void> {
  await db.deleteFrom('budget_limits').execute();
  if (rows.length > 0) await db.insertInto('budget_limits').values(rows).execute();
}

/**
 * The one lock every budget check and every ledger change of a decision runs under, so two
 * adopts can never both see room for one. SQLite: the transaction itself (BEGIN IMMEDIATE takes
 * the write lock). PostgreSQL: a transaction-level advisory lock, released at commit or rollback.
 */
export async function lockLedger(db: Kysely<HubTables>, engine: Engine): Promise<void> {
  await ledgerLock(engine)?.execute(db);
}

/** lockLedger's statement, to send ahead of the reads it guards (db/in-order.ts); null on SQLite. */
export const ledgerLock = (engine: Engine) => (engine === 'postgres' ? sql`select pg_advisory_xact_lock(${LEDGER_LOCK})` : null);
/** An arbitrary constant naming the hub's ledger lock ("ddhledgr" as a number). */
const LEDGER_LOCK = 0x6464686c6564;

export interface SpendRow {
  subscription_id: string | null;
  member_id: string;
  day_micros: number;
  month_micros: number;
}

/** The spend row of receipts the hub did not cause: no member, no subscription, so only the organization's limits count it. */
export const OUTSIDE_MEMBER = '';

/**
 * This month's spend, by subscription and member, with the part of it spent today; plus the
 * vendor's receipts the hub did not cause (last synced), as one row of OUTSIDE_MEMBER.
 */
export async function spendByKey(db: Kysely<HubTables>, periods: Periods): Promise<SpendRow[]> {
  return spendOf(await spendQuery(db, periods).execute());
}

/**
 * spendByKey's statement, to send with others (db/in-order.ts): one statement (a round trip on
 * PostgreSQL, under the ledger lock), the hub's own spend by subscription and member, and the
 * outside receipts' one row (member OUTSIDE_MEMBER, never a member's id).
 */
export const spendQuery = (db: Kysely<HubTables>, periods: Periods) => spendWithin(db, spendBounds(periods));

/** spendQuery compiled once (db/shaped.ts), for the decision path. */
export const spendStatement = shaped(['dayStart', 'dayEnd', 'monthStart', 'monthEnd'], (db, bounds: SpendBounds) => spendWithin(db, bounds));

const spendWithin = (db: Kysely<HubTables>, bounds: SpendBounds) =>
  db
    .selectFrom('decisions')
    .select([
      'subscription_id',
      'member_id',
      sql<number>`sum(case when counted_at >= ${bounds.dayStart} then ${AMOUNT} else 0 end)`.as('day_micros'),
      sql<number>`sum(${AMOUNT})`.as('month_micros'),
    ])
    .where('charged', '=', 1)
    .where('state', 'in', SPENDING)
    .where('counted_at', '>=', bounds.monthStart)
    .groupBy(['subscription_id', 'member_id'])
    .unionAll(outsideSpendQuery(db, bounds, OUTSIDE_MEMBER));

/** The rows spendQuery read, as spendByKey answers them. */
export function spendOf(rows: SpendRow[]): SpendRow[] {
  // SQLite sums to a number, PostgreSQL's sum(bigint) is numeric (text): one shape for both.
  return rows
    .map((r) => ({ ...r, day_micros: Number(r.day_micros), month_micros: Number(r.month_micros) }))
    .filter((r) => r.member_id !== OUTSIDE_MEMBER || r.month_micros > 0);
}
