import {
  microsToUsd,
  type Delivery,
  type DeliveryItem,
  type SimulatedItem,
  type SimulatedStatus,
} from '../../src/api/contract';
import { ApiError } from '../lib/api-error';
import { nowIso } from '../lib/time';
import { inTransaction, type Db } from './db';
import { insertReceipt } from './receipts';

/** Simulated pull (4.10), adopt and dispute (4.11, 4.12), deliveries (4.13, 4.14). */

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

function toItem(row: ItemRow): SimulatedItem {
  return {
    id: row.id,
    vertical_id: row.vertical_id,
    topic_id: row.topic_id,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    quality_score: row.quality_score,
    quality_method: row.quality_method,
    validator_count: row.validator_count,
    consensus_ratio: row.consensus_ratio,
    unit_price_usd: microsToUsd(row.unit_price_micros),
    created_at: row.created_at,
  };
}

/** Pending items of a subscription, oldest first. Reading changes nothing. */
export function pullSimulated(db: Db, subscriptionId: string, limit: number): SimulatedItem[] {
  const rows = db
    .prepare(
      `SELECT ${ITEM_COLUMNS} FROM items WHERE subscription_id = ? AND status = 'pending' ORDER BY seq LIMIT ?`,
    )
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

/**
 * Moves a pending item to adopted or disputed. Adopting charges the unit price once,
 * in the same transaction as the status change; repeating a decision is a no-op,
 * reversing one is 409 FEEDBACK_CONFLICT.
 */
export function decideItem(db: Db, itemId: string, orgId: string, decision: 'adopted' | 'disputed'): void {
  inTransaction(db, () => {
    const row = db.prepare(`SELECT ${ITEM_COLUMNS} FROM items WHERE id = ?`).get(itemId) as ItemRow | undefined;
    if (!row) throw new ApiError('NOT_FOUND', `item ${itemId} not found`);
    if (row.status === decision) return;
    if (row.status !== 'pending') {
      throw new ApiError('FEEDBACK_CONFLICT', `item ${itemId} is already ${row.status}`, { recorded: row.status });
    }
    const now = nowIso();
    const changed = db
      .prepare(`UPDATE items SET status = ?, decided_at = ? WHERE id = ? AND status = 'pending'`)
      .run(decision, now, itemId).changes;
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
    .prepare(
      `${DELIVERY_SELECT} WHERE s.org_id = ? GROUP BY d.delivery_id ORDER BY d.created_at DESC, d.seq DESC LIMIT ?`,
    )
    .all(orgId, limit) as DeliveryRow[];
  return rows.map(toDelivery);
}

/** All items of one of the organization's deliveries; another organization's is NOT_FOUND. */
export function deliveryItems(db: Db, orgId: string, deliveryId: string): DeliveryItem[] {
  const owner = db
    .prepare(
      `SELECT s.org_id FROM deliveries d JOIN subscriptions s ON s.subscription_id = d.subscription_id
       WHERE d.delivery_id = ?`,
    )
    .get(deliveryId) as { org_id: string } | undefined;
  if (!owner || owner.org_id !== orgId) throw new ApiError('NOT_FOUND', `delivery ${deliveryId} not found`);
  const rows = db
    .prepare(`SELECT ${ITEM_COLUMNS} FROM items WHERE delivery_id = ? ORDER BY seq`)
    .all(deliveryId) as ItemRow[];
  return rows.map((row) => ({ ...toItem(row), status: row.status, delivery_id: row.delivery_id, decided_at: row.decided_at }));
}
