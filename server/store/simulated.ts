import { jsonTextTooDeep, WITHHELD_PAYLOAD, type Delivery, type SimulatedStatus } from '../../src/api/contract';
import { nowIso } from '../lib/time';
import { inTransaction, type Db } from './db';
import { insertReceipt } from './receipts';

/**
 * Simulated pull (4.10), adopt and dispute (4.11, 4.12), deliveries (4.13, 4.14). A missing
 * item or delivery is `null`, a reversed decision `{ conflict }`; the route picks the status.
 */

interface ItemRow {
  id: string;
  vertical_id: string;
  topic_id: string;
  payload: string;
  quality_score: number;
  quality_method: string;
  validator_count: number;
  consensus_ratio: number;
  unit_price_micros: number;
  created_at: string;
  subscription_id: string;
  delivery_id: string;
  status: SimulatedStatus;
  decided_at: string | null;
}

const ITEM_COLUMNS = `id, vertical_id, topic_id, payload, quality_score, quality_method, validator_count,
  consensus_ratio, unit_price_micros, created_at, subscription_id, delivery_id, status, decided_at`;

/** An item as stored, its payload decoded; its price in micro-USD (the route writes the wire's USD). */
export type ItemRecord = Omit<ItemRow, 'payload'> & { payload: Record<string, unknown> };

// A payload stored deeper than the limit (before it was enforced on the way in) would overflow
// the stack of every page that holds it: it is withheld, so the item can still be seen and decided.
const toItem = (row: ItemRow): ItemRecord => ({
  ...row,
  payload: jsonTextTooDeep(row.payload) ? { ...WITHHELD_PAYLOAD } : (JSON.parse(row.payload) as Record<string, unknown>),
});

/** Pending items of a subscription, oldest first. Reading changes nothing. */
export function pullSimulated(db: Db, subscriptionId: string, limit: number): ItemRecord[] {
  const rows = db
    .prepare(`SELECT ${ITEM_COLUMNS} FROM items WHERE subscription_id = ? AND status = 'pending' ORDER BY seq LIMIT ?`)
    .all(subscriptionId, limit) as ItemRow[];
  return rows.map(toItem);
}

export interface ItemOwner {
  subscription_id: string;
  org_id: string;
}

export function itemOwner(db: Db, itemId: string): ItemOwner | null {
  return (
    (db
      .prepare(
        `SELECT i.subscription_id, s.org_id FROM items i
         JOIN subscriptions s ON s.subscription_id = i.subscription_id WHERE i.id = ?`,
      )
      .get(itemId) as ItemOwner | undefined) ?? null
  );
}

export type Decision = 'adopted' | 'disputed';

/**
 * Moves a pending item to adopted or disputed. Adopting charges the unit price once,
 * in the same transaction as the status change. `{ changed: false }` when the item already
 * has this decision, `{ conflict }` with the recorded one when it has the other, `null`
 * when there is no such item.
 */
export function decideItem(db: Db, itemId: string, orgId: string, decision: Decision): { changed: boolean } | { conflict: Decision } | null {
  return inTransaction(db, () => {
    const row = db.prepare(`SELECT ${ITEM_COLUMNS} FROM items WHERE id = ?`).get(itemId) as ItemRow | undefined;
    if (!row) return null;
    if (row.status === decision) return { changed: false };
    if (row.status !== 'pending') return { conflict: row.status };
    const now = nowIso();
    const changed = db.prepare(`UPDATE items SET status = ?, decided_at = ? WHERE id = ? AND status = 'pending'`).run(decision, now, itemId).changes;
    if (changed === 1 && decision === 'adopted') {
      insertReceipt(db, {
        orgId,
        subscriptionId: row.subscription_id,
        kind: 'adopt',
        itemId,
        quantity: 1,
        amountMicros: row.unit_price_micros,
        createdAt: now,
      });
    }
    return { changed: changed === 1 };
  });
}

interface DeliveryRow {
  delivery_id: string;
  subscription_id: string;
  vertical_id: string;
  created_at: string;
  item_count: number;
  pending: number;
  adopted: number;
  disputed: number;
}

const DELIVERY_SELECT = `
  SELECT d.delivery_id, d.subscription_id, d.vertical_id, d.created_at,
         COUNT(i.id) AS item_count,
         COALESCE(SUM(i.status = 'pending'), 0) AS pending,
         COALESCE(SUM(i.status = 'adopted'), 0) AS adopted,
         COALESCE(SUM(i.status = 'disputed'), 0) AS disputed
  FROM deliveries d
  JOIN subscriptions s ON s.subscription_id = d.subscription_id
  LEFT JOIN items i ON i.delivery_id = d.delivery_id`;

const toDelivery = ({ pending, adopted, disputed, ...row }: DeliveryRow): Delivery => ({
  ...row,
  status_counts: { pending, adopted, disputed },
});

/** The organization's deliveries, newest first. */
export function listDeliveries(db: Db, orgId: string, limit: number): Delivery[] {
  const rows = db
    .prepare(`${DELIVERY_SELECT} WHERE s.org_id = ? GROUP BY d.delivery_id ORDER BY d.created_at DESC, d.seq DESC LIMIT ?`)
    .all(orgId, limit) as DeliveryRow[];
  return rows.map(toDelivery);
}

/** The subscription a delivery of the organization went to; null for no such delivery or another organization's. */
export function deliverySubscription(db: Db, orgId: string, deliveryId: string): string | null {
  const row = db
    .prepare(
      `SELECT s.org_id, s.subscription_id FROM deliveries d JOIN subscriptions s ON s.subscription_id = d.subscription_id
       WHERE d.delivery_id = ?`,
    )
    .get(deliveryId) as { org_id: string; subscription_id: string } | undefined;
  return row && row.org_id === orgId ? row.subscription_id : null;
}

/** All items of one of the organization's deliveries; null for no such delivery or another organization's. */
export function deliveryItems(db: Db, orgId: string, deliveryId: string): ItemRecord[] | null {
  const owner = db
    .prepare(
      `SELECT s.org_id FROM deliveries d JOIN subscriptions s ON s.subscription_id = d.subscription_id
       WHERE d.delivery_id = ?`,
    )
    .get(deliveryId) as { org_id: string } | undefined;
  if (!owner || owner.org_id !== orgId) return null;
  const rows = db.prepare(`SELECT ${ITEM_COLUMNS} FROM items WHERE delivery_id = ? ORDER BY seq`).all(deliveryId) as ItemRow[];
  return rows.map(toItem);
}
