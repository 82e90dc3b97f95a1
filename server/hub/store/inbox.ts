import { sql, type Kysely, type Transaction } from 'kysely';
import { inOrder, type Statement } from '../db/in-order';
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
 * Keeps the items the inbox does not hold yet; returns how many it adds. The caller's transaction
 * holds the head row until it commits. The writes go into `later`, for the caller to send with its
 * own (db/in-order.ts): they need no answer, and on PostgreSQL that saves their round trip.
 */
export async function keepInInbox(
  trx: Transaction<HubTables>,
  subscriptionId: string,
  items: readonly Arrival[],
  how: ArrivedHow,
  by: string | null,
  now: number,
  later: Statement[],
): Promise<number> {
  // An item twice in one answer (the vendor is not trusted) is one row.
  const unique = [...new Map(items.map((item) => [`${item.family}\n${item.item_id}`, item])).values()];
  if (unique.length === 0) return 0;
  // Creates the head if missing and locks it: ON CONFLICT DO UPDATE takes the row lock on
  // PostgreSQL (held to commit); SQLite's write transaction is exclusive already. Items kept
  // already keep their first arrival and number: they are read once the head is locked (the next
  // statement, sent with it: one round trip on PostgreSQL), so none appears meanwhile.
  const families = [...new Set(unique.map((item) => item.family))];
  const [locked, kept] = await inOrder(trx, [
    trx
      .insertInto('inbox_heads')
      .values({ subscription_id: subscriptionId, seq: 0 })
      .onConflict((oc) => oc.column('subscription_id').doUpdateSet({ seq: sql<number>`inbox_heads.seq` }))
      .returning('seq'),
    trx
      .selectFrom('inbox_items')
      .select(['family', 'item_id'])
      .where('family', 'in', families)
      .where(
        'item_id',
        'in',
        unique.map((item) => item.item_id),
      ),
  ]);
  const head = locked!.rows[0] as { seq: number };
  const held = new Set((kept!.rows as { family: string; item_id: string }[]).map((row) => `${row.family}\n${row.item_id}`));
  const fresh = unique.filter((item) => !held.has(`${item.family}\n${item.item_id}`));
  if (fresh.length === 0) return 0;
  const first = Number(head.seq) + 1;
  later.push(
    trx.insertInto('inbox_items').values(
      fresh.map((item, index) => ({
        family: item.family,
        item_id: item.item_id,
        subscription_id: subscriptionId,
        seq: first + index,
        payload: item.payload,
        price_micros: item.price_micros,
        arrived_at: now,
        arrived_how: how,
        arrived_by: by,
      })),
    ),
    trx
      .updateTable('inbox_heads')
      .set({ seq: first + fresh.length - 1 })
      .where('subscription_id', '=', subscriptionId),
  );
  return fresh.length;
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
