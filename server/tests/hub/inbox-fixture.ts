import type { Kysely } from 'kysely';
import type { HubTables } from '../../hub/db/schema';
import { insertDecision } from '../../hub/store/decisions';

/*
 * Items put straight into the shared inbox (inbox_items), numbered after the subscription's head,
 * for the suites that read the inbox before the inbox's own writer (issue 26, "inbox") fills it;
 * and decisions of those items, recorded as the decision path records them.
 */

export interface InboxFixtureItem {
  item_id: string;
  family?: 'data' | 'live';
  payload?: Record<string, unknown>;
  price_micros?: number | null;
}

export async function seedInbox(db: Kysely<HubTables>, subscriptionId: string, items: readonly InboxFixtureItem[], now = Date.now()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const head = await trx.selectFrom('inbox_heads').select('seq').where('subscription_id', '=', subscriptionId).executeTakeFirst();
    let seq = head ? Number(head.seq) : 0;
    const rows = items.map((item) => ({
      family: item.family ?? ('data' as const),
      item_id: item.item_id,
      subscription_id: subscriptionId,
      seq: ++seq,
      payload: JSON.stringify(item.payload ?? { id: item.item_id }),
      price_micros: item.price_micros ?? null,
      arrived_at: now,
      arrived_how: 'pull',
      arrived_by: null,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await trx
        .insertInto('inbox_items')
        .values(rows.slice(i, i + 500))
        .execute();
    if (head) await trx.updateTable('inbox_heads').set({ seq }).where('subscription_id', '=', subscriptionId).execute();
    else await trx.insertInto('inbox_heads').values({ subscription_id: subscriptionId, seq }).execute();
  });
}

/**
 * A team decision of a delivered item written straight into the hub's table, as the decision path
 * records one (no vendor call): for the suites that read what the queue, its counts and its leases
 * make of decisions.
 */
export function recordDecision(
  db: Kysely<HubTables>,
  d: { itemId: string; subscriptionId: string; kind: 'adopt' | 'dispute'; memberId: string; state: 'held' | 'sending'; now: number },
) {
  return insertDecision(
    db,
    {
      family: 'data',
      item_id: d.itemId,
      kind: d.kind,
      subscription_id: d.subscriptionId,
      reason: null,
      body: null,
      price_micros: null,
      charged: 0,
      member_id: d.memberId,
      via: 'session',
    },
    d.state,
    { now: d.now, countedAt: null },
  );
}
