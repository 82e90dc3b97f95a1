import type { Kysely, Selectable } from 'kysely';
import type { HubTables, OverlapSettingsTable, VoteItemsTable, VotesTable } from '../db/schema';

/* Members' votes, where each voted item stands, and the overlap setting per subscription (migration 0009). */

export type VoteRow = Selectable<VotesTable>;
export type VoteItemRow = Selectable<VoteItemsTable>;
export type OverlapRow = Selectable<OverlapSettingsTable>;

export const DEFAULT_OVERLAP = { overlap: 1, rule: 'unanimous' } as const;

export const overlapOf = async (db: Kysely<HubTables>, subscriptionId: string | null) =>
  (subscriptionId === null
    ? undefined
    : await db.selectFrom('overlap_settings').select(['overlap', 'rule']).where('subscription_id', '=', subscriptionId).executeTakeFirst()) ?? DEFAULT_OVERLAP;

export const listOverlap = (db: Kysely<HubTables>) => db.selectFrom('overlap_settings').selectAll().execute();

export async function setOverlap(db: Kysely<HubTables>, row: OverlapRow): Promise<void> {
  await db
    .insertInto('overlap_settings')
    .values(row)
    .onConflict((oc) =>
      oc.column('subscription_id').doUpdateSet({ overlap: row.overlap, rule: row.rule, updated_at: row.updated_at, updated_by: row.updated_by }),
    )
    .execute();
}

export const findVoteItem = (db: Kysely<HubTables>, family: string, itemId: string) =>
  db
    .selectFrom('vote_items')
    .selectAll()
    .where('family', '=', family as VoteItemRow['family'])
    .where('item_id', '=', itemId)
    .executeTakeFirst();

export const votesOn = (db: Kysely<HubTables>, family: string, itemId: string) =>
  db
    .selectFrom('votes')
    .selectAll()
    .where('family', '=', family as VoteRow['family'])
    .where('item_id', '=', itemId)
    .orderBy('first_at')
    .orderBy('member_id')
    .execute();

/** A member's vote, new or changed (their first cast is kept in first_at). */
export async function putVote(db: Kysely<HubTables>, row: Omit<VoteRow, 'first_at'>): Promise<void> {
  await db
    .insertInto('votes')
    .values({ ...row, first_at: row.at })
    .onConflict((oc) =>
      oc
        .columns(['family', 'item_id', 'member_id'])
        .doUpdateSet({ vote: row.vote, reason: row.reason, body: row.body, price_micros: row.price_micros, at: row.at }),
    )
    .execute();
}

export async function putVoteItem(db: Kysely<HubTables>, row: VoteItemRow): Promise<void> {
  await db
    .insertInto('vote_items')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['family', 'item_id']).doUpdateSet({ state: row.state, outcome: row.outcome, updated_at: row.updated_at, settled_by: row.settled_by }),
    )
    .execute();
}
