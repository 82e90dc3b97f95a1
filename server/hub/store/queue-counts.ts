import { sql, type Kysely, type SqlBool } from 'kysely';
import type { QueueFilters } from '../../../src/api/contract/hub-leases';
import type { Engine, HubTables } from '../db/schema';
import { filterConditions, listFilters, type InboxEb } from './queue-filters';

/*
 * The queue counted under the items view's filters (issue 26 item 9: <= 200 ms at 1,000,000 rows):
 * total, undecided, leased (undecided and held) and per holder. Total and decided are read from
 * `inbox_counts` (migration 0014: counted ahead by triggers, per subscription, list fields and
 * quality bucket) rather than counted over the rows: the quality buckets wholly inside a range come
 * from there, the rows of the range's two edge buckets are checked one by one. A price range has
 * no buckets there (prices cluster on a few values, and a bucket edge on such a value would be
 * every row): it counts the rows, the slower way. Leased and the holders are counted from the rows
 * a live lease reaches, which a partial index keeps to a few thousand at most.
 */

type Db = Kysely<HubTables>;

/**
 * A score's bucket as migration 0014's `q_bucket` computes it, in the same floating-point steps:
 * each step is monotone, so every row in a bucket strictly between two bounds' buckets lies within
 * the bounds, and every row in a bucket outside them lies outside.
 */
const qualityBucket = (score: number) => Math.trunc(Math.min(Math.max(score, 0), 1) * 100);

interface Totals {
  total: number;
  decided: number;
}

const sumOf = (rows: { total: unknown; decided: unknown }) => ({ total: Number(rows.total ?? 0), decided: Number(rows.decided ?? 0) });

/** Total and decided from the counts kept ahead, plus the edge buckets' rows of a quality range. */
async function countedAhead(db: Db, subscriptionId: string, filters: QueueFilters): Promise<Totals> {
  const lo = filters.quality_min === undefined ? undefined : qualityBucket(filters.quality_min);
  const hi = filters.quality_max === undefined ? undefined : qualityBucket(filters.quality_max);
  let whole = db.selectFrom('inbox_counts as c').where('c.subscription_id', '=', subscriptionId);
  for (const { column, values } of listFilters(filters)) whole = whole.where(`c.${column}`, 'in', values);
  // Bucket -1 is the items with no quality, which no quality bound admits.
  if (lo !== undefined || hi !== undefined) whole = whole.where('c.q_bucket', '>=', 0);
  if (lo !== undefined) whole = whole.where('c.q_bucket', '>', lo);
  if (hi !== undefined) whole = whole.where('c.q_bucket', '<', hi);
  const inside = sumOf(
    await whole.select((eb) => [eb.fn.sum<number>('c.total').as('total'), eb.fn.sum<number>('c.decided').as('decided')]).executeTakeFirstOrThrow(),
  );
  const edges = [...new Set([lo, hi].filter((b) => b !== undefined))];
  if (edges.length === 0) return inside;
  const edge = sumOf(
    await db
      .selectFrom('inbox_items as i')
      .where('i.subscription_id', '=', subscriptionId)
      .where('i.q_bucket', 'in', edges)
      // The bounds as `+q_quality`, which no index serves: SQLite (no statistics) would otherwise
      // walk the quality index over the whole range (4.5 s at 1,000,000 rows) instead of the edge buckets.
      .where((eb) => {
        const { quality_min: min, quality_max: max, ...others } = filters;
        const bounds = [
          ...(min === undefined ? [] : [sql<SqlBool>`+i.q_quality >= ${min}`]),
          ...(max === undefined ? [] : [sql<SqlBool>`+i.q_quality <= ${max}`]),
        ];
        return eb.and([...bounds, ...filterConditions(eb as unknown as InboxEb, others)]);
      })
      .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.sum<number>('i.decided').as('decided')])
      .executeTakeFirstOrThrow(),
  );
  return { total: inside.total + edge.total, decided: inside.decided + edge.decided };
}

/**
 * Total and decided counted over the subscription's rows (a price range): on PostgreSQL one
 * covering index; on SQLite the table in its own order (`+subscription_id` serves from no index),
 * rather than its rows fetched in the order of whichever index on the subscription SQLite picks.
 */
async function countedRows(db: Db, engine: Engine, subscriptionId: string, filters: QueueFilters): Promise<Totals> {
  return sumOf(
    await db
      .selectFrom('inbox_items as i')
      .where(engine === 'sqlite' ? sql<SqlBool>`+i.subscription_id = ${subscriptionId}` : sql<SqlBool>`i.subscription_id = ${subscriptionId}`)
      .where((eb) => eb.and(filterConditions(eb as unknown as InboxEb, filters)))
      .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.sum<number>('i.decided').as('decided')])
      .executeTakeFirstOrThrow(),
  );
}

/**
 * The undecided items live leases hold, per holder: the rows of the partial index
 * `inbox_items_leased` (its predicate spelled as is, so both engines use it), each joined to its
 * lease for the holder. Grouped by member before their emails are read (2,000 leased items: 7 ms
 * on PostgreSQL, where the join from the leases to the inbox rows took 30).
 */
async function holdersOf(db: Db, subscriptionId: string, filters: QueueFilters, now: number) {
  const counted = await db
    .selectFrom('inbox_items as i')
    .innerJoin('leases as l', (join) => join.onRef('l.family', '=', 'i.family').onRef('l.item_id', '=', 'i.item_id'))
    .where('i.subscription_id', '=', subscriptionId)
    .where(sql<SqlBool>`i.decided = 0 and i.leased_until > 0`)
    .where('i.leased_until', '>', now)
    .where((eb) => eb.and(filterConditions(eb as unknown as InboxEb, filters)))
    .where('l.state', '=', 'active')
    .where('l.expires_at', '>', now)
    .select((eb) => ['l.member_id', eb.fn.countAll<number>().as('items')])
    .groupBy('l.member_id')
    .execute();
  if (counted.length === 0) return [];
  const emails = new Map(
    (
      await db
        .selectFrom('members')
        .select(['id', 'email'])
        .where(
          'id',
          'in',
          counted.map((c) => c.member_id),
        )
        .execute()
    ).map((m) => [m.id, m.email]),
  );
  return counted
    .map((c) => ({ member: { id: c.member_id, email: emails.get(c.member_id) ?? '' }, items: Number(c.items) }))
    .sort((a, b) => (a.member.email < b.member.email ? -1 : a.member.email > b.member.email ? 1 : 0));
}

/** The queue counted under the filters, all from one snapshot. */
export async function queueCounts(db: Db, engine: Engine, subscriptionId: string, filters: QueueFilters, now: number) {
  const read = async (trx: Db) => {
    const priced = filters.price_min !== undefined || filters.price_max !== undefined;
    const totals = priced ? await countedRows(trx, engine, subscriptionId, filters) : await countedAhead(trx, subscriptionId, filters);
    const holders = await holdersOf(trx, subscriptionId, filters, now);
    const undecided = totals.total - totals.decided;
    const leased = holders.reduce((sum, h) => sum + h.items, 0);
    return { total: totals.total, undecided, leased, available: undecided - leased, holders };
  };
  // PostgreSQL: one snapshot for the reads (read committed would give each its own).
  if (engine === 'postgres') return db.transaction().setIsolationLevel('repeatable read').execute(read);
  return db.transaction().execute(read);
}
