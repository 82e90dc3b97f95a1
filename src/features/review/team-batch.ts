import { liveSubmissionSchema, simulatedItemSchema } from '../../api/contract';
import { batchResponse, releaseResponse, renewResponse, type LeaseBatch, type QueueFilters } from '../../api/contract/hub-leases';
import { hubCall } from '../../api/hub';
import { filtersOf } from '../../domain/triage';
import type { Delivered } from '../../domain/store';
import type { ReviewSearch } from './search';

/*
 * The review in hub mode walks a batch leased from the team's queue (POST /hub/v1/queue/take,
 * docs/hub.md "The team queue"). The batch (its ID, items and expiry) is a setting of the local
 * scope, so a reload, another tab or a reviewer gone offline keeps walking the same items; the
 * decisions themselves wait in the outbox as any other.
 */

export interface TeamBatch {
  batchId: string;
  subscriptionId: string;
  itemIds: string[];
  takenAt: string;
  expiresAt: string;
  idleSeconds: number;
  /** Items of the batch the hub says are no longer held (taken back, or expired and re-leased). */
  lost: string[];
  /** The last renewal that reached the hub. */
  renewedAt: string | null;
  /** The queue filters it was taken under (`filtersKeyOf`): other filters in the URL take another batch. */
  filters: string;
  /** The member's hand in the subscription when the batch was taken, and the most one member may hold (absent in batches kept before it). */
  hold?: { held: number; limit: number };
}

const BATCH_SIZE = 20;
/** A working reviewer's lease is renewed at most this often (the idle time is 5 s at the least, 10 min by default). */
export const RENEW_MS = 30_000;

export const batchSettingName = (subscriptionId: string) => `team-batch:${subscriptionId}`;

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

/** A stored batch, or null for anything damaged or of another shape. */
export function parseBatch(value: unknown): TeamBatch | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const texts = ['batchId', 'subscriptionId', 'takenAt', 'expiresAt'] as const;
  if (!texts.every((k) => typeof v[k] === 'string') || !isStrings(v.itemIds) || !isStrings(v.lost) || typeof v.idleSeconds !== 'number') return null;
  if (v.renewedAt !== null && typeof v.renewedAt !== 'string') return null;
  if (v.filters !== undefined && typeof v.filters !== 'string') return null;
  // A batch stored before its filters were: taken under none, as far as anyone can tell.
  return { ...(value as TeamBatch), filters: typeof v.filters === 'string' ? v.filters : filtersKeyOf(undefined) };
}

/** The items view's filters in the URL, in the queue's terms (the queue is always the undecided items: `state` and text are not its filters). */
export function queueFiltersOf(search: ReviewSearch): QueueFilters | undefined {
  const f = filtersOf(search);
  const out: QueueFilters = {
    quality_min: f.quality_min,
    quality_max: f.quality_max,
    price_min: f.price_min,
    price_max: f.price_max,
    task: f.task || undefined,
    source: f.source || undefined,
    grade: f.grade || undefined,
    vertical: f.vertical || undefined,
    topic: f.topic || undefined,
  };
  const set = Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as QueueFilters;
  return Object.keys(set).length ? set : undefined;
}

/** The filters as one comparable string (their keys in the order `queueFiltersOf` writes them). */
export const filtersKeyOf = (filters: QueueFilters | undefined) => JSON.stringify(filters ?? {});

export function toTeamBatch(batch: LeaseBatch, filters: QueueFilters | undefined): TeamBatch {
  return {
    batchId: batch.id,
    subscriptionId: batch.subscription_id,
    itemIds: batch.items.map((i) => i.item_id),
    takenAt: batch.taken_at,
    expiresAt: batch.expires_at,
    idleSeconds: batch.idle_seconds,
    lost: [],
    renewedAt: null,
    filters: filtersKeyOf(filters),
    hold: batch.hold,
  };
}

/** The batch's items as the store keeps them (the queue's copy of the shared inbox), so the review lists them before the inbox's sync has. */
export function deliveredOf(batch: LeaseBatch, kind: 'live' | 'simulated', summary: typeof import('../../domain/store')): Delivered[] {
  const out: Delivered[] = [];
  for (const item of batch.items) {
    if (kind === 'live') {
      const parsed = liveSubmissionSchema.safeParse(item.payload);
      if (parsed.success) out.push({ summary: summary.summaryOfLive(parsed.data), record: parsed.data });
    } else {
      const parsed = simulatedItemSchema.safeParse(item.payload);
      if (parsed.success) out.push({ summary: summary.summaryOfSimulated(parsed.data), record: parsed.data });
    }
  }
  return out;
}

export const queueApi = {
  take: (subscriptionId: string, size: number | undefined, filters: QueueFilters | undefined) =>
    hubCall(batchResponse, '/queue/take', { method: 'POST', body: { subscription_id: subscriptionId, size: size ?? BATCH_SIZE, filters } }).then(
      (r) => r.batch,
    ),
  renew: (batchId: string) => hubCall(renewResponse, '/queue/renew', { method: 'POST', body: { batch_id: batchId } }),
  release: (batchId: string) => hubCall(releaseResponse, '/queue/release', { method: 'POST', body: { batch_id: batchId } }),
};
