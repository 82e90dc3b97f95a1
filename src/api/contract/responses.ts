import { z } from './zod';
import {
  deliveryItemSchema,
  deliverySchema,
  frontierSchema,
  frontierTaskSchema,
  liveSubmissionSchema,
  previewSubmissionSchema,
  receiptSchema,
  simulatedItemSchema,
  verticalSchema,
  type Receipt,
} from './resources';

const list = <T extends z.ZodType>(item: T) => z.looseObject({ data: z.array(item) });

/** 4.1–4.4 */
export const frontiersResponseSchema = list(frontierSchema);
export const frontierTasksResponseSchema = list(frontierTaskSchema);
export const verticalsResponseSchema = list(verticalSchema);
export const previewResponseSchema = list(previewSubmissionSchema);

/**
 * A receipt slot "may be empty": we accept a receipt, `{}`, null or absence,
 * and normalise the empty forms to null.
 */
export const optionalReceiptSchema = z
  .union([receiptSchema, z.object({}).strict(), z.null()])
  .optional()
  .transform((value): Receipt | null => (value && 'receipt_id' in value ? (value as Receipt) : null));

/** `next_cursor` is a string; "" and null both mean "no further page". */
const nextCursor = z
  .string()
  .nullish()
  .transform((value) => (value ? value : null));

/** 4.6, first form: the envelope with `data.items`. */
export const livePullEnvelopeSchema = z.looseObject({
  success: z.literal(true),
  errorCode: z.string().nullish(),
  errorMessage: z.string().nullish(),
  data: z.looseObject({
    items: z.array(liveSubmissionSchema),
    count: z.number().int().nonnegative(),
    has_more: z.boolean(),
    next_cursor: nextCursor,
    receipt: optionalReceiptSchema,
  }),
});

/** 4.6, second form: `data` is the array, paging fields beside it. */
export const livePullFlatSchema = z.looseObject({
  success: z.literal(true).optional(),
  data: z.array(liveSubmissionSchema),
  count: z.number().int().nonnegative(),
  has_more: z.boolean(),
  next_cursor: nextCursor,
  receipt: optionalReceiptSchema,
});

/** Either form of 4.6, normalised to one shape. */
export const livePullResponseSchema = z.union([livePullEnvelopeSchema, livePullFlatSchema]).transform((body) => {
  if (Array.isArray(body.data)) {
    const flat = body as z.output<typeof livePullFlatSchema>;
    return {
      items: flat.data,
      count: flat.count,
      hasMore: flat.has_more,
      nextCursor: flat.next_cursor,
      receipt: flat.receipt,
    };
  }
  const page = body.data;
  return {
    items: page.items,
    count: page.count,
    hasMore: page.has_more,
    nextCursor: page.next_cursor,
    receipt: page.receipt,
  };
});
export type LivePullPage = z.infer<typeof livePullResponseSchema>;

export const LIVE_PULL_FORMS = ['envelope', 'flat'] as const;
export type LivePullForm = (typeof LIVE_PULL_FORMS)[number];

/** 4.7 (shape is ours). */
export const usageResponseSchema = z.looseObject({
  data: z.array(receiptSchema),
  count: z.number().int().nonnegative(),
});

/** 4.8 / 4.9 */
export const liveFeedbackResponseSchema = z.looseObject({
  ok: z.boolean(),
  submission_id: z.string(),
  feedback: z.enum(['adopt', 'dispute']),
});

/** 4.10 */
export const simulatedPullResponseSchema = z.looseObject({
  data: z.array(simulatedItemSchema),
  count: z.number().int().nonnegative(),
});

/** 4.11 / 4.12 */
export const simulatedFeedbackResponseSchema = z.looseObject({
  ok: z.boolean(),
  item_id: z.string(),
  status: z.enum(['adopted', 'disputed']),
});

/** 4.13 / 4.14 (shapes are ours). */
export const deliveriesResponseSchema = z.looseObject({
  data: z.array(deliverySchema),
  count: z.number().int().nonnegative(),
});
export const deliveryItemsResponseSchema = z.looseObject({
  data: z.array(deliveryItemSchema),
  count: z.number().int().nonnegative(),
});
