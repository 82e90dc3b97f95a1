import { sql, type Kysely, type Selectable } from 'kysely';
import type { Engine, HubTables, OverlapSettingsTable, VoteItemsTable, VotesTable } from '../db/schema';
import { shaped } from '../db/shaped';
import { ITEM_LOCKS } from './decisions';

/* Members' votes, where each voted item stands, and the overlap setting per subscription (migration 0009). */

export type VoteRow = Selectable<VotesTable>;
export type VoteItemRow = Selectable<VoteItemsTable>;
export type OverlapRow = Selectable<OverlapSettingsTable>;

export const DEFAULT_OVERLAP = { overlap: 1, rule: 'unanimous' } as const;

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

/**
 * An item's vote row and the overlap setting of its subscription, in one statement: a decision
 * reads both under the ledger lock, and on PostgreSQL each read is a round trip there.
 */
export async function voteItemAndOverlap(
  db: Kysely<HubTables>,
  family: VoteItemRow['family'],
  itemId: string,
  subscriptionId: string | null,
): Promise<VoteItemAndOverlap> {
  if (subscriptionId === null) return { item: await findVoteItem(db, family, itemId), overlap: DEFAULT_OVERLAP };
  return voteItemAndOverlapOf((await voteItemAndOverlapQuery(db, family, itemId, subscriptionId).execute())[0]);
}

export interface VoteItemAndOverlap {
  item: VoteItemRow | undefined;
  overlap: Pick<OverlapRow, 'overlap' | 'rule'>;
}

/**
 * voteItemAndOverlap's statement, to send with others (db/in-order.ts): one row whatever exists,
 * each table joined to a constant row on its own key. No subscription joins no setting (the default).
 */
export const voteItemAndOverlapQuery = (db: Kysely<HubTables>, family: VoteItemRow['family'], itemId: string, subscriptionId: string | null) =>
  db
    .selectFrom(sql<{ one: number }>`(select 1 as one)`.as('one'))
    .leftJoin('vote_items', (join) => join.on('vote_items.family', '=', family).on('vote_items.item_id', '=', itemId))
    .leftJoin('overlap_settings', (join) => join.on('overlap_settings.subscription_id', '=', subscriptionId ?? sql<string>`null`))
    .selectAll('vote_items')
    .select(['overlap_settings.overlap as setting_overlap', 'overlap_settings.rule as setting_rule']);

/** voteItemAndOverlapQuery compiled once (db/shaped.ts): a null subscription is bound as NULL, which joins no setting either. */
export const voteItemAndOverlapStatement = shaped(
  ['family', 'itemId', 'subscriptionId'],
  (db, v: { family: VoteItemRow['family']; itemId: string; subscriptionId: string | null }) =>
    voteItemAndOverlapQuery(db, v.family, v.itemId, v.subscriptionId),
);

export type VoteItemAndOverlapRow = Awaited<ReturnType<ReturnType<typeof voteItemAndOverlapQuery>['executeTakeFirstOrThrow']>>;

/** The row voteItemAndOverlapQuery read, as voteItemAndOverlap answers it. */
export function voteItemAndOverlapOf(row: VoteItemAndOverlapRow | undefined): VoteItemAndOverlap {
  if (!row) throw new Error('the vote item and overlap read returned no row');
  const { setting_overlap: overlap, setting_rule: rule, ...item } = row;
  return {
    item: item.item_id === null ? undefined : (item as VoteItemRow),
    overlap: overlap === null || rule === null ? DEFAULT_OVERLAP : { overlap, rule },
  };
}

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
  await putVoteQuery(db, row).execute();
}

/** putVoteQuery compiled once (db/shaped.ts), for the decision path. */
export const putVoteStatement = shaped(
  ['family', 'item_id', 'member_id', 'subscription_id', 'vote', 'reason', 'body', 'price_micros', 'at'],
  (db, row: Omit<VoteRow, 'first_at'>) => putVoteQuery(db, row),
);

/** putVote's statement, to send with others (db/in-order.ts). */
export const putVoteQuery = (db: Kysely<HubTables>, row: Omit<VoteRow, 'first_at'>) =>
  db
    .insertInto('votes')
    .values({ ...row, first_at: row.at })
    .onConflict((oc) =>
      oc
        .columns(['family', 'item_id', 'member_id'])
        .doUpdateSet({ vote: row.vote, reason: row.reason, body: row.body, price_micros: row.price_micros, at: row.at }),
    );

export async function putVoteItem(db: Kysely<HubTables>, row: VoteItemRow): Promise<void> {
  await db
    .insertInto('vote_items')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['family', 'item_id']).doUpdateSet({
        needed: row.needed,
        rule: row.rule,
        state: row.state,
        outcome: row.outcome,
        updated_at: row.updated_at,
        settled_by: row.settled_by,
      }),
    )
    .execute();
}

const UNDECIDED = ['open', 'lead'] as const;

/**
 * The items of these subscriptions the team has not decided (open, or with the lead), with their
 * votes, each item locked first as lockItem locks it (PostgreSQL: in one statement, in the locks'
 * order, so two such reads never deadlock). Call in a transaction holding the subscriptions'
 * overlap locks (lockOverlapSettings), before any ledger or audit lock.
 */
export async function lockUndecided(
  db: Kysely<HubTables>,
  engine: Engine,
  subscriptionIds: readonly string[],
): Promise<{ item: VoteItemRow; votes: VoteRow[] }[]> {
  if (subscriptionIds.length === 0) return [];
  if (engine === 'postgres') {
    await sql`select pg_advisory_xact_lock(${ITEM_LOCKS}, k.h) from (
        select distinct hashtext(family || '/' || item_id) as h from vote_items
        where subscription_id in (${sql.join([...subscriptionIds])}) and state in ('open', 'lead')
      ) as k order by k.h`.execute(db);
  }
  const items = await db
    .selectFrom('vote_items')
    .selectAll()
    .where('subscription_id', 'in', [...subscriptionIds])
    .where('state', 'in', [...UNDECIDED])
    .orderBy('family')
    .orderBy('item_id')
    .execute();
  if (items.length === 0) return [];
  const votes = await db
    .selectFrom('votes')
    .innerJoin('vote_items', (join) => join.onRef('vote_items.family', '=', 'votes.family').onRef('vote_items.item_id', '=', 'votes.item_id'))
    .selectAll('votes')
    .where('vote_items.subscription_id', 'in', [...subscriptionIds])
    .where('vote_items.state', 'in', [...UNDECIDED])
    .orderBy('votes.first_at')
    .orderBy('votes.member_id')
    .execute();
  const byItem = new Map<string, VoteRow[]>();
  for (const v of votes) byItem.set(`${v.family}/${v.item_id}`, [...(byItem.get(`${v.family}/${v.item_id}`) ?? []), v]);
  return items.map((item) => ({ item, votes: byItem.get(`${item.family}/${item.item_id}`) ?? [] }));
}

/**
 * PostgreSQL: the shared inbox's rows of these items, locked (FOR UPDATE, in key order) before any
 * audit row of a transaction that writes their decisions. A decision's insert updates its inbox row
 * (migration 0013's trigger); a take holds the rows it leases (SKIP LOCKED) and then appends its audit
 * row, so taking the audit head first and a row after would deadlock with it. Locked first, a take
 * skips these rows, and one already holding some finishes before this goes on. SQLite has one writer.
 */
export async function lockInboxRows(db: Kysely<HubTables>, engine: Engine, items: readonly { family: 'data' | 'live'; item_id: string }[]) {
  if (engine !== 'postgres' || items.length === 0) return;
  for (const family of ['data', 'live'] as const) {
    const ids = items.filter((i) => i.family === family).map((i) => i.item_id);
    for (let i = 0; i < ids.length; i += 500)
      await db
        .selectFrom('inbox_items')
        .select('item_id')
        .where('family', '=', family)
        .where('item_id', 'in', ids.slice(i, i + 500))
        .orderBy('item_id')
        .forUpdate()
        .execute();
  }
}
