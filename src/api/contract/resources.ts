import { z } from './zod';

/**
 * Wire resources of spec section 2. Objects are loose: fields a server adds are kept,
 * a field of the wrong type is an error. Types come from z.infer only.
 */
const numericText = z.string().regex(/^[0-9]+$/, 'expected numeric text');
const payload = z.record(z.string(), z.unknown());

/** Spec 2.2. */
export const frontierSchema = z.looseObject({
  frontier_id: numericText,
  title: z.string(),
  status: z.string(),
  task_count: z.number().int().nonnegative(),
  total_submissions: z.number().int().nonnegative(),
});
export type Frontier = z.infer<typeof frontierSchema>;

/** Spec 2.3. */
export const frontierTaskSchema = z.looseObject({
  task_id: numericText,
  frontier_id: z.string(),
  name: z.string(),
  task_type: z.string(),
  status: z.string(),
  submission_count: z.number().int().nonnegative(),
});
export type FrontierTask = z.infer<typeof frontierTaskSchema>;

/** Spec 2.4. */
export const verticalSchema = z.looseObject({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  base_price_usd: z.number().nonnegative(),
});
export type Vertical = z.infer<typeof verticalSchema>;

const LIVE_FEEDBACK = ['adopt', 'dispute'] as const;
const liveFeedbackSchema = z.enum(LIVE_FEEDBACK);
export type LiveFeedback = z.infer<typeof liveFeedbackSchema>;

/** Spec 2.5. `campaign_id` is our addition (docs/contract.md); optional so a real server may omit it. */
export const liveSubmissionSchema = z.looseObject({
  submission_id: numericText,
  task_id: z.string(),
  frontier_id: z.string(),
  data: payload,
  quality_score: z.number(),
  quality_grade: z.string(),
  source: z.string(),
  created_at: z.string(),
  consumer_feedback: liveFeedbackSchema.nullable(),
  campaign_id: z.string().nullish(),
});
export type LiveSubmission = z.infer<typeof liveSubmissionSchema>;

/** Spec 2.6: 2.5 minus task_id, frontier_id, consumer_feedback, plus the audit fields. */
export const previewSubmissionSchema = z.looseObject({
  submission_id: numericText,
  data: payload,
  quality_score: z.number(),
  quality_grade: z.string(),
  source: z.string(),
  created_at: z.string(),
  audit_rating: z.number().int(),
  audit_reason: z.string().nullable(),
});
export type PreviewSubmission = z.infer<typeof previewSubmissionSchema>;

/** Spec 2.7. */
export const simulatedItemSchema = z.looseObject({
  id: z.string(),
  vertical_id: z.string(),
  topic_id: z.string(),
  payload,
  quality_score: z.number(),
  quality_method: z.string(),
  validator_count: z.number().int().nonnegative(),
  consensus_ratio: z.number(),
  unit_price_usd: z.number().nonnegative(),
  created_at: z.string(),
});
export type SimulatedItem = z.infer<typeof simulatedItemSchema>;

export type SimulatedStatus = 'pending' | 'adopted' | 'disputed';

export type ReceiptKind = 'pull' | 'adopt';

/**
 * Spec 2.9 leaves the receipt open; our shape is in docs/contract.md. Parsing is
 * tolerant: `kind` may be a value we do not know, ids may be absent, unknown fields stay.
 */
export const receiptSchema = z.looseObject({
  receipt_id: z.string(),
  subscription_id: z.string(),
  kind: z.string(),
  submission_id: z.string().nullish(),
  item_id: z.string().nullish(),
  quantity: z.number().int().nonnegative(),
  amount_usd: z.number().nonnegative(),
  created_at: z.string(),
});
export type Receipt = z.infer<typeof receiptSchema>;

/** Spec 2.9 leaves the delivery open; ours (docs/contract.md). `status_counts` is our addition. */
export const deliverySchema = z.looseObject({
  delivery_id: z.string(),
  subscription_id: z.string(),
  vertical_id: z.string(),
  item_count: z.number().int().nonnegative(),
  created_at: z.string(),
  status_counts: z
    .looseObject({
      pending: z.number().int().nonnegative(),
      adopted: z.number().int().nonnegative(),
      disputed: z.number().int().nonnegative(),
    })
    .optional(),
});
export type Delivery = z.infer<typeof deliverySchema>;

/** A delivery item: the simulated item plus its status (docs/contract.md); `decided_at` is our addition. */
export const deliveryItemSchema = simulatedItemSchema.extend({
  status: z.string(),
  delivery_id: z.string().optional(),
  decided_at: z.string().nullish(),
});
export type DeliveryItem = z.infer<typeof deliveryItemSchema>;

const SUBSCRIPTION_KINDS = ['live', 'simulated'] as const;
export const subscriptionKindSchema = z.enum(SUBSCRIPTION_KINDS);
export type SubscriptionKind = z.infer<typeof subscriptionKindSchema>;

/** Spec 2.9 leaves the subscription open; no endpoint lists them (docs/contract.md). */
export const subscriptionSchema = z.looseObject({
  subscription_id: z.string().min(1),
  kind: subscriptionKindSchema,
  frontier_id: z.string().optional(),
  vertical_id: z.string().optional(),
  name: z.string().optional(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;
