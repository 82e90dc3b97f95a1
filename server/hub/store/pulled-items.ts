import type { Kysely } from 'kysely';
import type { HubTables } from '../db/schema';
import { repeat } from '../repeat';

/*
 * `pulled_items` holds the subscription and price of every simulated item pulled through the hub,
 * which a later adopt or dispute of the item needs (its path names neither). Kept for ever it
 * grows with every pull, so rows no decision can need are pruned, at start and daily:
 * - an item whose decision was sent more than a day ago: the decision row holds its subscription
 *   and price, and a repeat (a client retrying) is answered from it;
 * - any row pulled longer ago than the window (30 days by default): an item left undecided that
 *   long is priced, if ever adopted, from the team's inbox (`inbox_items`, which keeps every item
 *   delivered through the hub).
 * Items with a decision held, queued or being sent are never pruned (their row is the decision's own).
 */

export const DEFAULT_PULLED_ITEMS_DAYS = 30;
const DAY = 86_400_000;
/** A sent decision's pull row is kept this long for clients that retry it. */
const SENT_GRACE_MS = DAY;

export async function prunePulledItems(db: Kysely<HubTables>, now: number, windowDays = DEFAULT_PULLED_ITEMS_DAYS): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const active = trx.selectFrom('decisions').select('item_id').where('family', '=', 'data').where('state', 'in', ['held', 'queued', 'sending']);
    const sent = trx
      .selectFrom('decisions')
      .select('item_id')
      .where('family', '=', 'data')
      .where('state', '=', 'sent')
      .where('sent_at', '<', now - SENT_GRACE_MS);
    const result = await trx
      .deleteFrom('pulled_items')
      .where((eb) => eb.and([eb('item_id', 'not in', active), eb.or([eb('pulled_at', '<', now - windowDays * DAY), eb('item_id', 'in', sent)])]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  });
}

export interface Pruner {
  stop: () => Promise<void>;
}

/** Prunes daily from now on (the caller prunes once at start); a daily chore never keeps the process alive on its own. */
export function startPruner(db: Kysely<HubTables>, clock: () => number, windowDays: number, log?: (line: string) => void): Pruner {
  return repeat(DAY, () => prunePulledItems(db, clock(), windowDays), {
    unref: true,
    onError: (error) => log?.(`hub: pruning pulled items: ${error.message}`),
  });
}
