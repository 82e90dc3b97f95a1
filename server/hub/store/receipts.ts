import { sql, type Kysely } from 'kysely';
import type { Periods } from '../decisions/periods';
import type { HubTables, VendorReceiptsTable, VendorSyncTable } from '../db/schema';

/*
 * The vendor's usage receipts (4.7) the hub has read. Each is kept once, by its id, as the hub's
 * own (an adopt it sent, matched to its decision, whose ledger row then carries the vendor's
 * amount; or a pull it forwarded, recorded when the pull came back) or as spend outside the hub
 * (another key, a script), which counts toward the organization's limits in the UTC day and month
 * of the vendor's receipt.
 */

export type ReceiptRow = VendorReceiptsTable;

/** Decision states whose adopt the vendor has, or will have, charged. */
const SPENDING = ['queued', 'sending', 'sent'] as const;

/** A pull the hub forwarded came back with a receipt: the hub's own, whenever a sync reads it. */
export const pullReceiptQuery = (db: Kysely<HubTables>, row: Omit<ReceiptRow, 'source' | 'decision_id' | 'kind'>) =>
  db
    .insertInto('vendor_receipts')
    .values({ ...row, kind: 'pull', source: 'hub', decision_id: null })
    // A sync that read it first took it for outside spend: it was the hub's.
    .onConflict((oc) => oc.column('receipt_id').doUpdateSet({ source: 'hub' }));

/** A receipt as read from the vendor, before the hub decides whose it is and when it saw it. */
export type ReadReceipt = Omit<VendorReceiptsTable, 'seen_at' | 'source' | 'decision_id'>;

/**
 * Keeps the receipts not seen before (run under the ledger lock): an adopt receipt of an item the
 * hub adopted is matched to that decision (`receipt_micros`), everything else the hub did not
 * record as its own is outside spend. Returns how many were new, and how many of those were outside.
 */
export async function keepReceipts(db: Kysely<HubTables>, receipts: readonly ReadReceipt[], now: number): Promise<{ added: number; outside: number }> {
  const unique = [...new Map(receipts.map((r) => [r.receipt_id, r])).values()];
  if (unique.length === 0) return { added: 0, outside: 0 };
  const known = new Set<string>();
  for (let i = 0; i < unique.length; i += 200) {
    const ids = unique.slice(i, i + 200).map((r) => r.receipt_id);
    for (const { receipt_id } of await db.selectFrom('vendor_receipts').select('receipt_id').where('receipt_id', 'in', ids).execute()) known.add(receipt_id);
  }
  const fresh = unique.filter((r) => !known.has(r.receipt_id));
  const adopted = fresh.filter((r) => r.kind === 'adopt' && r.item_id !== null).map((r) => r.item_id!);
  const decisions = new Map<string, string>();
  for (let i = 0; i < adopted.length; i += 200) {
    const rows = await db
      .selectFrom('decisions')
      .select(['id', 'item_id'])
      .where('family', '=', 'data')
      .where('kind', '=', 'adopt')
      .where('charged', '=', 1)
      .where('state', 'in', SPENDING)
      .where('item_id', 'in', adopted.slice(i, i + 200))
      .execute();
    for (const row of rows) decisions.set(row.item_id, row.id);
  }
  let outside = 0;
  for (const r of fresh) {
    const decisionId = r.kind === 'adopt' && r.item_id !== null ? (decisions.get(r.item_id) ?? null) : null;
    if (decisionId === null) outside++;
    await db
      .insertInto('vendor_receipts')
      .values({ ...r, seen_at: now, source: decisionId === null ? 'outside' : 'hub', decision_id: decisionId })
      .onConflict((oc) => oc.column('receipt_id').doNothing())
      .execute();
    // The ledger row now counts the vendor's amount instead of the price seen at the pull: still once.
    if (decisionId !== null) await db.updateTable('decisions').set({ receipt_micros: r.amount_micros }).where('id', '=', decisionId).execute();
  }
  return { added: fresh.length, outside };
}

/**
 * Spend outside the hub in these periods (by the vendor's receipt instant), as one row shaped like
 * the ledger's (budgets.ts spendByKey): no subscription, `member` for the member, day and month.
 */
export function outsideSpendQuery(db: Kysely<HubTables>, bounds: SpendBounds, member: string) {
  const { dayStart, dayEnd, monthStart, monthEnd } = bounds;
  return db
    .selectFrom('vendor_receipts')
    .select([
      sql<string | null>`null`.as('subscription_id'),
      sql<string>`${member}`.as('member_id'),
      sql<number>`coalesce(sum(case when created_at >= ${dayStart} and created_at < ${dayEnd} then amount_micros else 0 end), 0)`.as('day_micros'),
      sql<number>`coalesce(sum(amount_micros), 0)`.as('month_micros'),
    ])
    .where('source', '=', 'outside')
    .where('created_at', '>=', monthStart)
    .where('created_at', '<', monthEnd);
}

/** The periods' instants a spend read is bounded by, computed before a statement is built (db/shaped.ts). */
export interface SpendBounds {
  dayStart: number;
  dayEnd: number;
  monthStart: number;
  monthEnd: number;
}

/** Bounded on both sides: the vendor's clock is not the hub's, a receipt from its "tomorrow" is not today's. */
export function spendBounds(periods: Periods): SpendBounds {
  const start = new Date(periods.monthStart);
  return {
    dayStart: periods.dayStart,
    dayEnd: periods.dayStart + 86_400_000,
    monthStart: periods.monthStart,
    monthEnd: Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1),
  };
}

const SYNC_NAME = 'usage';

export const readSyncState = (db: Kysely<HubTables>) => db.selectFrom('vendor_sync').selectAll().where('name', '=', SYNC_NAME).executeTakeFirst();

/** The last attempt, and (when it read the vendor) the instant of the last good read. */
export async function writeSyncState(db: Kysely<HubTables>, state: Omit<VendorSyncTable, 'name'>): Promise<void> {
  const previous = await readSyncState(db);
  const row = { name: SYNC_NAME, ...state, synced_at: state.synced_at ?? previous?.synced_at ?? null };
  await db
    .insertInto('vendor_sync')
    .values(row)
    .onConflict((oc) => oc.column('name').doUpdateSet({ synced_at: row.synced_at, attempted_at: row.attempted_at, outcome: row.outcome }))
    .execute();
}
