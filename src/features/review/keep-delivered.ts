import type { LiveSubmission, SimulatedItem } from '../../api/contract';
import { localScope, type Connection } from '../../data';
import { localDb, saveDelivered, summaryOfLive, summaryOfSimulated } from '../local-store';
import { rememberRecords } from './content-cache';

/*
 * Writing what a read returned to the local store. Loaded on demand (queries.ts imports it
 * dynamically): the store's library stays out of the first page's JavaScript.
 */

export async function keepLivePage(connection: Connection, subscriptionId: string, items: readonly LiveSubmission[]) {
  const scope = await localScope(connection);
  rememberRecords(
    scope,
    subscriptionId,
    'live',
    items.map((s) => ({ id: s.submission_id, record: s })),
  );
  await saveDelivered(
    localDb(),
    scope,
    subscriptionId,
    'reread',
    items.map((s) => ({ summary: summaryOfLive(s), record: s })),
  );
}

export async function keepPendingPage(connection: Connection, subscriptionId: string, items: readonly SimulatedItem[]) {
  const scope = await localScope(connection);
  // Content first, so the list's new rows show their content without a read.
  rememberRecords(
    scope,
    subscriptionId,
    'simulated',
    items.map((item) => ({ id: item.id, record: item })),
  );
  await saveDelivered(
    localDb(),
    scope,
    subscriptionId,
    'pending',
    items.map((item) => ({ summary: summaryOfSimulated(item), record: item })),
  );
}
