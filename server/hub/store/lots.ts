import type { Kysely } from 'kysely';
import type { LotValue } from '../../../src/api/contract/hub-lots';
import type { HubTables } from '../db/schema';

/*
 * The team's sampling lots: the console's lot value (checked by the contract's schema before it
 * gets here) kept as JSON, with a revision. An update names the revision it was made from and is
 * one guarded UPDATE (`WHERE revision = ?`), so of two members changing a lot at once one wins and
 * the other is told to re-read: no change is lost, whatever the engine's isolation.
 */

export interface LotRecord {
  id: string;
  subscription_id: string;
  revision: number;
  created_at: number;
  created_by: string;
  created_by_email: string | null;
  updated_at: number;
  updated_by: string;
  updated_by_email: string | null;
  value: LotValue;
}

const lotsQuery = (db: Kysely<HubTables>) =>
  db
    .selectFrom('lots')
    .leftJoin('members as creator', 'creator.id', 'lots.created_by')
    .leftJoin('members as updater', 'updater.id', 'lots.updated_by')
    .select([
      'lots.id',
      'lots.subscription_id',
      'lots.revision',
      'lots.created_at',
      'lots.created_by',
      'creator.email as created_by_email',
      'lots.updated_at',
      'lots.updated_by',
      'updater.email as updated_by_email',
      'lots.value',
    ]);

const recordOf = (row: Omit<LotRecord, 'value'> & { value: string }): LotRecord => ({ ...row, value: JSON.parse(row.value) as LotValue });

/** Every lot, newest first (ties by ID, so the order is stable). */
export async function listLots(db: Kysely<HubTables>): Promise<LotRecord[]> {
  const rows = await lotsQuery(db).orderBy('lots.created_at', 'desc').orderBy('lots.id', 'desc').execute();
  return rows.map(recordOf);
}

export async function readLot(db: Kysely<HubTables>, id: string): Promise<LotRecord | null> {
  const row = await lotsQuery(db).where('lots.id', '=', id).executeTakeFirst();
  return row ? recordOf(row) : null;
}

/** Keeps a new lot at revision 1; false when the ID is taken (nothing written). */
export async function insertLot(
  db: Kysely<HubTables>,
  lot: { id: string; subscriptionId: string; value: LotValue; memberId: string },
  now = Date.now(),
): Promise<boolean> {
  const result = await db
    .insertInto('lots')
    .values({
      id: lot.id,
      subscription_id: lot.subscriptionId,
      value: JSON.stringify(lot.value),
      revision: 1,
      created_at: now,
      created_by: lot.memberId,
      updated_at: now,
      updated_by: lot.memberId,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Writes the new value only if the lot is still at `revision`; false when it moved on (or is gone). */
export async function updateLotValue(
  db: Kysely<HubTables>,
  lot: { id: string; revision: number; value: LotValue; memberId: string },
  now = Date.now(),
): Promise<boolean> {
  const result = await db
    .updateTable('lots')
    .set({ value: JSON.stringify(lot.value), revision: lot.revision + 1, updated_at: now, updated_by: lot.memberId })
    .where('id', '=', lot.id)
    .where('revision', '=', lot.revision)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The team's accepted decisions (queued, sending or sent) on a lot's sampled items, with who made each. */
export async function sampleDecisions(db: Kysely<HubTables>, lot: LotRecord): Promise<{ item_id: string; decision: 'adopt' | 'dispute'; by: string | null }[]> {
  if (lot.value.sampleIds.length === 0) return [];
  const rows = await db
    .selectFrom('decisions')
    .leftJoin('members', 'members.id', 'decisions.member_id')
    .select(['decisions.item_id', 'decisions.kind', 'members.email'])
    .where('decisions.family', '=', lot.value.kind === 'live' ? 'live' : 'data')
    .where('decisions.item_id', 'in', lot.value.sampleIds)
    .where('decisions.state', 'in', ['queued', 'sending', 'sent'])
    .execute();
  return rows.map((r) => ({ item_id: r.item_id, decision: r.kind, by: r.email }));
}
