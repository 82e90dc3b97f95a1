import type { LiveSubmission, SimulatedItem } from '../../api/contract';
import { localScope, type Connection } from '../../data';
import { localDb, saveDelivered, summaryOfLive, summaryOfSimulated, type Delivered, type DeliveryVia } from '../../domain/store';
import { rememberRecords } from './content-cache';

/*
 * Writing what a read returned to the local store. Loaded on demand (queries.ts imports it
 * dynamically): the store's library stays out of the first page's JavaScript.
 */

/**
 * One page kept: its content remembered for the list first (no read to show it), then written to
 * the store, right after the frame that shows it (`paintFirst`: the page is one the user waits for).
 */
async function keepPage(
  connection: Connection,
  subscriptionId: string,
  kind: 'live' | 'simulated',
  via: DeliveryVia,
  page: readonly (Delivered & { id: string })[],
) {
  const scope = await localScope(connection);
  const db = localDb();
  rememberRecords(db, scope, subscriptionId, kind, page);
  await saveDelivered(db, scope, subscriptionId, via, page, Date.now(), { paintFirst: true });
}

export const keepLivePage = (connection: Connection, subscriptionId: string, items: readonly LiveSubmission[]) =>
  keepPage(
    connection,
    subscriptionId,
    'live',
    'reread',
    items.map((s) => ({ id: s.submission_id, summary: summaryOfLive(s), record: s })),
  );

export const keepPendingPage = (connection: Connection, subscriptionId: string, items: readonly SimulatedItem[]) =>
  keepPage(
    connection,
    subscriptionId,
    'simulated',
    'pending',
    items.map((item) => ({ id: item.id, summary: summaryOfSimulated(item), record: item })),
  );
