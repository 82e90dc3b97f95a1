/** One delivered item's row in the local store's `items` table (db.ts); its own file so the change feed can name it without importing the database. */
export type DeliveryVia = 'incremental' | 'reread' | 'pending' | 'delivery' | 'recover';

export interface StoredItem {
  scope: string;
  subscriptionId: string;
  itemId: string;
  kind: 'live' | 'simulated';
  /** Delivery order within the scope: receivedAt in µs plus the position in its page. */
  seq: number;
  receivedAt: number;
  via: DeliveryVia;
  /** 1 while no decision is recorded (by this console or, as far as the service said, anywhere). */
  open: 0 | 1;
  /** The service's own decision when the record carried one (live `consumer_feedback`, simulated status). */
  serverDecision: 'adopt' | 'dispute' | null;
  taskId: string | null;
  campaignId: string | null;
  frontierId: string | null;
  verticalId: string | null;
  topicId: string | null;
  qualityScore: number | null;
  qualityGrade: string | null;
  qualityMethod: string | null;
  source: string | null;
  priceMicros: number | null;
  validatorCount: number | null;
  consensusRatio: number | null;
  createdAt: string | null;
  /** The `pages` row holding this item's record. */
  page?: number;
}
