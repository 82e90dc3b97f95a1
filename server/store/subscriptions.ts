import type { SubscriptionKind } from '../../src/api/contract';
import type { Db } from './db';

export interface SubscriptionRow {
  subscription_id: string;
  org_id: string;
  kind: SubscriptionKind;
  frontier_id: string | null;
  vertical_id: string | null;
  name: string;
  /** Tasks a live subscription is narrowed to; null = every task of its frontier. */
  task_ids: string[] | null;
  position: number;
}

export function getSubscription(db: Db, subscriptionId: string): SubscriptionRow | null {
  const row = db.prepare('SELECT * FROM subscriptions WHERE subscription_id = ?').get(subscriptionId) as
    (Omit<SubscriptionRow, 'task_ids'> & { task_ids: string | null }) | undefined;
  if (!row) return null;
  return { ...row, task_ids: row.task_ids ? (JSON.parse(row.task_ids) as string[]) : null };
}
