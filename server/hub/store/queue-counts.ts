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
export const qualityBucket = (score: number) => Math.trunc(Math.min(Math.max(score, 0), 1) * 100);

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
      .where((eb) => eb.and(filterConditions(eb as unknown as InboxEb, filters)))
      .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.sum<number>('i.decided').as('decided')])
      .executeTakeFirstOrThrow(),
  );
  return { total: inside.total + edge.total, decided: inside.decided + edge.decided };
}

/** Total and decided counted over the subscription's rows (a price range; on PostgreSQL one covering index). */
async function countedRows(db: Db, subscriptionId: string, filters: QueueFilters): Promise<Totals> {
  return sumOf(
    await db
      .selectFrom('inbox_items as i')
      .where('i.subscription_id', '=', subscriptionId)
      .where((eb) => eb.and(filterConditions(eb as unknown as InboxEb, filters)))
      .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.sum<number>('i.decided').as('decided')])
      .executeTakeFirstOrThrow(),
  );
}

/** The undecided items a live lease holds: read from the partial index `inbox_items_leased` (its predicate spelled as is, so both engines use it). */
async function leasedCount(db: Db, subscriptionId: string, filters: QueueFilters, now: number) {
  const row = await db
    .selectFrom('inbox_items as i')
    .where('i.subscription_id', '=', subscriptionId)
    .where(sql<SqlBool>`i.decided = 0 and i.leased_until > 0`)
    .where('i.leased_until', '>', now)
    .where((eb) => eb.and(filterConditions(eb as unknown as InboxEb, filters)))
    .select((eb) => eb.fn.countAll<number>().as('leased'))
    .executeTakeFirstOrThrow();
  return Number(row.leased);
}

/** Per holder, the undecided items of their live leases under the filters (a join of the live leases only). */
const holdersOf = (db: Db, subscriptionId: string, filters: QueueFilters, now: number) =>
  db
    .selectFrom('leases as l')
    .innerJoin('inbox_items as i', (join) => join.onRef('i.family', '=', 'l.family').onRef('i.item_id', '=', 'l.item_id'))
    .innerJoin('members as m', 'm.id', 'l.member_id')
    .where('l.subscription_id', '=', subscriptionId)
    .where('l.state', '=', 'active')
    .where('l.expires_at', '>', now)
    .where('i.subscription_id', '=', subscriptionId)
    .where('i.decided', '=', 0)
    .where((eb) => eb.and(filterConditions(eb as unknown as InboxEb, filters)))
    .select((eb) => ['m.id', 'm.email', eb.fn.countAll<number>().as('items')])
    .groupBy(['m.id', 'm.email'])
    .orderBy('m.email')
    .execute();

/** The queue counted under the filters, all from one snapshot. */
export async function queueCounts(db: Db, engine: Engine, subscriptionId: string, filters: QueueFilters, now: number) {
  const read = async (trx: Db) => {
    const priced = filters.price_min !== undefined || filters.price_max !== undefined;
    const totals = await (priced ? countedRows : countedAhead)(trx, subscriptionId, filters);
    const leased = await leasedCount(trx, subscriptionId, filters, now);
    const holders = await holdersOf(trx, subscriptionId, filters, now);
    const undecided = totals.total - totals.decided;
    return {
      total: totals.total,
      undecided,
      leased,
      available: undecided - leased,
      holders: holders.map((h) => ({ member: { id: h.id, email: h.email }, items: Number(h.items) })),
    };
  };
  // PostgreSQL: one snapshot for the four reads (read committed would give each its own).
  if (engine === 'postgres') return db.transaction().setIsolationLevel('repeatable read').execute(read);
  return db.transaction().execute(read);
}
