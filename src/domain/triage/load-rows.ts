import Dexie from 'dexie';
import { localDb, type StoredItem } from '../store';

/**
 * Every item row a subscription holds, in delivery order, in one read: triage filters, counts,
 * statistics and exports work on this snapshot in memory (rows are small: no content).
 */
export async function loadSubscriptionItems(scope: string, subscriptionId: string): Promise<StoredItem[]> {
  const rows = await localDb()
    .items.where('[scope+subscriptionId+itemId]')
    .between([scope, subscriptionId, Dexie.minKey], [scope, subscriptionId, Dexie.maxKey], true, true)
    .toArray();
  return rows.sort((a, b) => a.seq - b.seq);
}
