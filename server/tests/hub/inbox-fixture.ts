import type { Kysely } from 'kysely';
import type { HubTables } from '../../hub/db/schema';

/*
 * Items put straight into the shared inbox (inbox_items), numbered after the subscription's head,
 * for the suites that read the inbox before the inbox's own writer (issue 26, "inbox") fills it.
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
