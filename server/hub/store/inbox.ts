import { sql, type Kysely, type QueryResult, type Transaction } from 'kysely';
import type { Statement } from '../db/in-order';
import type { HubTables } from '../db/schema';

/*
 * The team's shared inbox (issue 26): every item delivered through the hub, kept once per item
 * (family, item id), numbered per subscription by `seq` in the order the hub kept it. A writer
 * takes the subscription's `inbox_heads` row first and holds it until its transaction commits, so
 * seqs are handed out without gaps and committed in order: a reader paging by `after=<seq>` never
 * passes a row that a slower writer commits later.
 */

export type ArrivedHow = 'pull' | 'schedule' | 'reread' | 'recover' | 'pending' | 'delivery';

export interface Arrival {
  family: 'data' | 'live';
  item_id: string;
  payload: string;
  price_micros: number | null;
}

/**
 * Keeps the items the inbox does not hold yet, numbered in the order given after the subscription's
 * head. Nothing here needs an answer before the next statement: all go into `later`, for the
 * caller to send with its own (db/in-order.ts; on PostgreSQL one round trip with the transaction's
 * last writes and its COMMIT). `kept` reads, from the results of `later`, how many were added.
 *
 * In order: the head is created if missing and locked (ON CONFLICT DO UPDATE takes the row lock on
 * PostgreSQL, held to commit; SQLite's write transaction is exclusive already); then the items not
 * yet kept are inserted, numbered from the head, in one statement that starts once the lock is held
 * (each statement its own snapshot in READ COMMITTED), so it sees every item a writer before it
 * kept and none appears meanwhile; items kept already keep their first arrival and number; then
 * the head moves past what was inserted (the rows numbered beyond it). A statement per item was a
 * round trip each on PostgreSQL, and reading which are kept before inserting one more.
 */
export function keepInInbox(
  trx: Transaction<HubTables>,
  subscriptionId: string,
  items: readonly Arrival[],
  how: ArrivedHow,
  by: string | null,
  now: number,
  later: Statement[],
): { kept: (results: readonly (QueryResult<unknown> | undefined)[]) => number } {
  // An item twice in one answer (the vendor is not trusted) is one row.
  const unique = [...new Map(items.map((item) => [`${item.family}\n${item.item_id}`, item])).values()];
  if (unique.length === 0) return { kept: () => 0 };
  const rows = sql.join(
    unique.map((item, index) => sql`(cast(${index} as integer), ${item.family}, ${item.item_id}, ${item.payload}, cast(${item.price_micros} as bigint))`),
  );
  const at = later.length + 1;
  later.push(
    trx
      .insertInto('inbox_heads')
      .values({ subscription_id: subscriptionId, seq: 0 })
      .onConflict((oc) => oc.column('subscription_id').doUpdateSet({ seq: sql<number>`inbox_heads.seq` })),
    sql`with arriving (ord, family, item_id, payload, price_micros) as (values ${rows})
        insert into inbox_items (family, item_id, subscription_id, seq, payload, price_micros, arrived_at, arrived_how, arrived_by)
        select a.family, a.item_id, ${subscriptionId},
               (select h.seq from inbox_heads h where h.subscription_id = ${subscriptionId}) + row_number() over (order by a.ord),
               a.payload, a.price_micros, cast(${now} as bigint), ${how}, ${by}
        from arriving a
        where not exists (select 1 from inbox_items k where k.family = a.family and k.item_id = a.item_id)
        order by a.ord`,
    trx
      .updateTable('inbox_heads')
      .set((eb) => ({
        seq: eb(
          'seq',
          '+',
          eb
            .selectFrom('inbox_items')
            .select((c) => c.fn.countAll<number>().as('n'))
            .where('inbox_items.subscription_id', '=', subscriptionId)
            .whereRef('inbox_items.seq', '>', 'inbox_heads.seq'),
        ),
      }))
      .where('subscription_id', '=', subscriptionId),
  );
  return { kept: (results) => Number(results[at]?.numAffectedRows ?? 0) };
}

export interface InboxRow {
  family: 'data' | 'live';
  item_id: string;
  seq: number;
  item: unknown;
  price_micros: number | null;
  arrived_at: number;
  arrived_how: string;
  arrived_by: string | null;
}

/** A subscription's items after `after`, in seq order, at most `limit`. */
export async function readInbox(db: Kysely<HubTables>, subscriptionId: string, after: number, limit: number): Promise<InboxRow[]> {
  const rows = await db
    .selectFrom('inbox_items')
    .select(['family', 'item_id', 'seq', 'payload', 'price_micros', 'arrived_at', 'arrived_how', 'arrived_by'])
    .where('subscription_id', '=', subscriptionId)
    .where('seq', '>', after)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map(({ payload, ...row }) => ({
    ...row,
    seq: Number(row.seq),
    arrived_at: Number(row.arrived_at),
    price_micros: row.price_micros === null ? null : Number(row.price_micros),
    item: JSON.parse(payload) as unknown,
  }));
}
