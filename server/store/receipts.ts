import type { ReceiptKind } from '../../src/api/contract';
import { newId } from '../lib/ids';
import { nowIso } from '../lib/time';
import type { Db } from './db';

/** A receipt as stored: its amount in micro-USD (the route writes the wire's USD). */
export interface ReceiptRecord {
  receipt_id: string;
  subscription_id: string;
  kind: string;
  submission_id: string | null;
  item_id: string | null;
  quantity: number;
  amount_micros: number;
  created_at: string;
}

export interface NewReceipt {
  orgId: string;
  subscriptionId: string;
  kind: ReceiptKind;
  submissionId?: string | null;
  itemId?: string | null;
  quantity: number;
  amountMicros: number;
  createdAt?: string;
  receiptId?: string;
}

/** Inserts a receipt; callers run it inside the transaction of the change it meters. */
export function insertReceipt(db: Db, receipt: NewReceipt): ReceiptRecord {
  const row: ReceiptRecord = {
    receipt_id: receipt.receiptId ?? newId('rcpt'),
    subscription_id: receipt.subscriptionId,
    kind: receipt.kind,
    submission_id: receipt.submissionId ?? null,
    item_id: receipt.itemId ?? null,
    quantity: receipt.quantity,
    amount_micros: receipt.amountMicros,
    created_at: receipt.createdAt ?? nowIso(),
  };
  db.prepare(
    `INSERT INTO receipts (receipt_id, org_id, subscription_id, kind, submission_id, item_id, quantity, amount_micros, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(row.receipt_id, receipt.orgId, row.subscription_id, row.kind, row.submission_id, row.item_id, row.quantity, row.amount_micros, row.created_at);
  return row;
}

/** The organization's receipts, newest first, whatever subscription they belong to (spec 4.7). */
export function listReceipts(db: Db, orgId: string, limit: number): ReceiptRecord[] {
  return db
    .prepare(
      `SELECT receipt_id, subscription_id, kind, submission_id, item_id, quantity, amount_micros, created_at
       FROM receipts WHERE org_id = ? ORDER BY created_at DESC, seq DESC LIMIT ?`,
    )
    .all(orgId, limit) as ReceiptRecord[];
}
