import { z } from './zod';

/*
 * The team queue (issue 26, "work without collisions"): a reviewer takes the next batch of a
 * subscription's undecided items from the hub's shared inbox, leased to them until they release
 * it or stop renewing it for the subscription's idle time; an admin sees who holds what and takes
 * a lease back. The filters are the items view's own terms (src/domain/triage/search.ts), as URL
 * text or JSON, so a queue link reads like an items-view link and the hub checks the same schema.
 */

/** Bounds of the queue: a batch's size, and how long a lease may stay idle (seconds). */
export const LEASE_LIMITS = { batchMin: 1, batchMax: 200, batchDefault: 20, idleMinS: 5, idleMaxS: 24 * 3600, idleDefaultS: 600, listText: 2000 } as const;

const list = z
  .string()
  .max(LEASE_LIMITS.listText)
  .regex(/^[^,]+(,[^,]+)*$/, 'a comma-separated list of values')
  .optional();
const bound = z.coerce.number().pipe(z.number().finite()).optional();

/**
 * The queue's filters, in the items view's words: quality and price ranges (price in USD, as the
 * view types it), and lists of tasks, sources, grades, verticals and topics. The queue is always
 * the undecided items nobody holds; `state` is not a filter here.
 */
const queueFilterSchema = z.strictObject({
  quality_min: bound,
  quality_max: bound,
  price_min: bound,
  price_max: bound,
  task: list,
  source: list,
  grade: list,
  vertical: list,
  topic: list,
});
export type QueueFilters = z.infer<typeof queueFilterSchema>;

const subscriptionId = z.string().min(1).max(200);
const batchId = z.string().min(1).max(100);
const itemRef = z.strictObject({ family: z.enum(['data', 'live']), item_id: z.string().min(1).max(200) });

export const takeBatchBody = z.strictObject({
  subscription_id: subscriptionId,
  size: z.number().int().min(LEASE_LIMITS.batchMin).max(LEASE_LIMITS.batchMax).optional(),
  filters: queueFilterSchema.optional(),
});

export const renewBody = z.strictObject({ batch_id: batchId });
/** Release a batch, or only some of its items (the rest stay leased). */
export const releaseBody = z.strictObject({ batch_id: batchId, items: z.array(itemRef).max(LEASE_LIMITS.batchMax).optional() });

export const leaseSettingsBody = z.strictObject({
  subscription_id: subscriptionId,
  idle_seconds: z.number().int().min(LEASE_LIMITS.idleMinS).max(LEASE_LIMITS.idleMaxS),
});
export const leaseSettingsQuery = z.strictObject({ subscription_id: subscriptionId });
export const leaseSettingsResponse = z.object({ subscription_id: z.string(), idle_seconds: z.number().int() });

const iso = z.string();
const memberRef = z.object({ id: z.string(), email: z.string() });

const leasedItemSchema = z.object({
  family: z.enum(['data', 'live']),
  item_id: z.string(),
  seq: z.number().int(),
  /** The item as the vendor delivered it (the shared inbox's copy). */
  payload: z.unknown(),
  price_micros: z.number().int().nullable(),
});

const batchSchema = z.object({
  id: z.string(),
  subscription_id: z.string(),
  member: memberRef,
  taken_at: iso,
  expires_at: iso,
  idle_seconds: z.number().int(),
  /**
   * The member's hand in this subscription after the take: undecided items held under live leases
   * (this batch's included), and the most one member may hold at once. A take past the limit gets
   * what is left under it; one with the hand full is 409 LEASE_CAP_REACHED.
   */
  hold: z.object({ held: z.number().int(), limit: z.number().int() }),
  items: z.array(leasedItemSchema),
});
export type LeaseBatch = z.infer<typeof batchSchema>;
export const batchResponse = z.object({ batch: batchSchema });

export const renewResponse = z.object({
  batch_id: z.string(),
  expires_at: iso.nullable(),
  /** The batch's items the member still holds; an item taken back or expired and re-leased is gone. */
  held: z.array(itemRef),
  /** Items of the batch no longer held (taken back, expired, released). */
  lost: z.array(itemRef),
});
export const releaseResponse = z.object({ batch_id: z.string(), released: z.number().int() });

const holderSchema = z.object({
  batch_id: z.string(),
  subscription_id: z.string(),
  member: memberRef,
  items: z.number().int(),
  item_ids: z.array(z.string()),
  taken_at: iso,
  renewed_at: iso,
  expires_at: iso,
});
export type LeaseHolder = z.infer<typeof holderSchema>;
export const leasesQuery = z.strictObject({ subscription_id: subscriptionId.optional() });
export const leasesResponse = z.object({ leases: z.array(holderSchema) });
export const revokeResponse = z.object({ batch_id: z.string(), revoked: z.number().int() });

/**
 * The undecided items of a subscription under another member's live lease: the hub refuses the
 * caller's decision on them (409 ITEM_LEASED) while the lease lives, so a bulk decision names and
 * skips them before it is confirmed.
 */
export const heldByOthersQuery = z.strictObject({ subscription_id: subscriptionId });
export const heldByOthersResponse = z.object({
  subscription_id: z.string(),
  items: z.array(z.object({ family: z.enum(['data', 'live']), item_id: z.string(), member: z.object({ email: z.string() }) })),
});

export const queueCountsQuery = queueFilterSchema.extend({ subscription_id: subscriptionId });
export const queueCountsResponse = z.object({
  subscription_id: z.string(),
  /** Items in the shared inbox matching the filters. */
  total: z.number().int(),
  /** Of those, not decided by the team. */
  undecided: z.number().int(),
  /** Of the undecided, held by a live lease. */
  leased: z.number().int(),
  /** Undecided and held by nobody: what "take next batch" can give. */
  available: z.number().int(),
  holders: z.array(z.object({ member: memberRef, items: z.number().int() })),
  idle_seconds: z.number().int(),
});
