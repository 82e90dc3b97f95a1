import { isValidId } from './ids';
import { z } from './zod';

/*
 * Sampling lots: the value the console keeps for a lot (in IndexedDB in personal mode, on the team
 * hub in hub mode: /hub/v1/lots) and the hub's wire format for them. The sampling feature
 * (src/features/sampling) owns what the value means; the schema lives here so the hub checks the
 * very same one (server/ may import only the contract).
 */

// prettier-ignore
/** The AQL columns of MIL-STD-105E's master tables (src/features/sampling/aql-tables.ts). */
export const AQLS = [
  '0.010', '0.015', '0.025', '0.040', '0.065', '0.10', '0.15', '0.25', '0.40', '0.65', '1.0', '1.5', '2.5', '4.0', '6.5',
  '10', '15', '25', '40', '65', '100', '150', '250', '400', '650', '1000',
] as const;
export const LEVELS = ['S-1', 'S-2', 'S-3', 'S-4', 'I', 'II', 'III'] as const;

/** Bounds of a lot on the hub: a lot of 10,000 items of 200-character IDs stays under the lots' 1 MiB body limit. */
export const LOT_LIMITS = { items: 10_000, itemIdChars: 200, textChars: 2_000, filters: 40, extensions: 1_000, bodyBytes: 1024 * 1024 } as const;

const text = z.string().max(LOT_LIMITS.textChars);
const itemId = z.string().min(1).max(LOT_LIMITS.itemIdChars);

/**
 * A lot as kept (`value`): where it came from, the item IDs it held when it was made, the plan, the
 * sample drawn once (extensions appended, each a uniform draw from the items not yet sampled, so
 * the whole stays a uniform sample), and what the user did with the rest. Decisions themselves
 * live in the outbox and the service; the outcome is computed from them, and frozen into `action`
 * when the user accepts or disputes the rest.
 */
const zeroPlanSchema = z.object({
  kind: z.literal('zero-acceptance').optional(),
  lotSize: z.number().int().positive(),
  confidencePct: z.number().int().min(1).max(99),
  defectRateBp: z.number().int().min(1).max(9999),
  sampleSize: z.number().int().nonnegative(),
  assumedDefects: z.number().int().nonnegative(),
  binomialSize: z.number().int().nonnegative(),
  formula: text,
});

/** A plan of the standard's master tables (aql-tables.ts), with the switching state it was drawn under. */
const standardPlanSchema = z.object({
  kind: z.literal('standard'),
  lotSize: z.number().int().positive(),
  level: z.enum(LEVELS),
  aql: z.enum(AQLS),
  severity: z.enum(['normal', 'tightened', 'reduced']),
  codeLetter: z.string().max(2),
  planLetter: z.string().max(2),
  arrow: z.enum(['v', '^']).nullable(),
  /** The table's sample size; the lot's sample is the smaller of it and the lot (all of a small lot). */
  tableSampleSize: z.number().int().positive(),
  sampleSize: z.number().int().positive(),
  ac: z.number().int().nonnegative(),
  re: z.number().int().positive(),
  /** Ac of the plan one AQL step tighter for the same code letter (the switching score); null at the first column. */
  tighterAc: z.number().int().nonnegative().nullable(),
  /** Why the switching rules gave this severity when the lot was drawn. */
  switchingWhy: text,
  /** The user said the supplier had acted (resuming after discontinuation). */
  resumed: z.boolean(),
  /** The user approved reduced inspection (production steady, the authority agrees). */
  approvedReduced: z.boolean(),
});

const planSchema = z.union([standardPlanSchema, zeroPlanSchema]);
export type LotPlan = z.infer<typeof planSchema>;
export type StandardLotPlan = z.infer<typeof standardPlanSchema>;

const sourceSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('filter'),
    /** The items view's filters as they were in the URL (undecided added). */
    filters: z
      .record(z.string().max(100), z.union([z.string().max(LOT_LIMITS.textChars), z.number()]))
      .refine((filters) => Object.keys(filters).length <= LOT_LIMITS.filters, `at most ${LOT_LIMITS.filters} filters`),
    description: text,
  }),
  z.object({ kind: z.literal('delivery'), deliveryId: z.string().max(LOT_LIMITS.itemIdChars), description: text }),
]);

const snapshotSchema = z.object({
  reviewed: z.number().int().nonnegative(),
  defects: z.number().int().nonnegative(),
  lower: z.number().nullable(),
  upper: z.number().nullable(),
  recommendation: z.enum(['accept', 'dispute', 'review-sample', 'review-more']),
  decision: z.enum(['accepted', 'rejected', 'accepted-return', 'pending']).optional(),
});

const actionSchema = z.object({
  decision: z.enum(['adopt', 'dispute']),
  at: z.number(),
  /** How many of the rest were recorded. */
  recorded: z.number().int().nonnegative(),
  /** The exact charge the confirmation named (simulated adopts), in micro-USD. */
  totalMicros: z.number().int().nullable(),
  /** The sample's outcome when the user acted. */
  outcome: snapshotSchema,
});

/** Each ID once: the sample is drawn from the lot's items, without replacement. */
const noRepeats = (ids: readonly string[], ctx: z.RefinementCtx, path: string) => {
  const seen = new Set<string>();
  for (const [index, id] of ids.entries()) {
    if (seen.has(id)) {
      ctx.addIssue({ code: 'custom', path: [path, index], message: `item ${id} is listed twice` });
      return;
    }
    seen.add(id);
  }
};

export const lotValueSchema = z
  .object({
    version: z.literal(1),
    kind: z.enum(['live', 'simulated']),
    source: sourceSchema,
    itemIds: z.array(itemId).max(LOT_LIMITS.items),
    plan: planSchema,
    sampleIds: z.array(itemId).max(LOT_LIMITS.items),
    extensions: z.array(z.object({ at: z.number(), added: z.number().int() })).max(LOT_LIMITS.extensions),
    action: actionSchema.nullable(),
  })
  .superRefine((value, ctx) => {
    noRepeats(value.itemIds, ctx, 'itemIds');
    noRepeats(value.sampleIds, ctx, 'sampleIds');
    const items = new Set(value.itemIds);
    const stranger = value.sampleIds.findIndex((id) => !items.has(id));
    if (stranger >= 0) ctx.addIssue({ code: 'custom', path: ['sampleIds', stranger], message: `sampled item ${value.sampleIds[stranger]} is not in the lot` });
  });

export type LotValue = z.infer<typeof lotValueSchema>;
export type LotAction = z.infer<typeof actionSchema>;
export type LotSource = z.infer<typeof sourceSchema>;

/* ---- The hub's wire format (/hub/v1/lots) ---- */

/** A lot's ID: made by the console (`lot_` and 16 hex digits), so a retried create is recognised. */
const lotId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, dashes or underscores');
const subscriptionId = z.string().min(1).max(200).refine(isValidId, 'must be letters, digits, . _ : or -');

/** `POST /hub/v1/lots` (reviewer, admin). */
export const newLotBody = z.strictObject({ id: lotId, subscription_id: subscriptionId, value: lotValueSchema });
export type NewLotBody = z.input<typeof newLotBody>;

/**
 * `PUT /hub/v1/lots/:id` (reviewer, admin): the lot's new value, given the revision it was made
 * from; a stale revision is 409 `LOT_CHANGED` (re-read, re-apply). Only the sample may grow (the
 * drawn IDs kept in order, the new ones from the lot's items) and the action on the rest change:
 * where the lot came from, its items and its plan are fixed when it is drawn.
 */
export const lotUpdateBody = z.strictObject({ revision: z.number().int().min(1), value: lotValueSchema });
export type LotUpdateBody = z.input<typeof lotUpdateBody>;

const author = z.object({ id: z.string(), email: z.string().nullable() }).nullable();

const hubLotSchema = z.object({
  id: z.string(),
  subscription_id: z.string(),
  /** Starts at 1; every accepted update adds one. */
  revision: z.number().int(),
  created_at: z.string(),
  created_by: author,
  updated_at: z.string(),
  updated_by: author,
  value: lotValueSchema,
});
export type HubLot = z.infer<typeof hubLotSchema>;
/**
 * The team's decisions on a lot's sampled items, as the hub holds them (accepted: queued, being
 * sent or sent; not held, refused or dropped): a member's browser keeps only its own decisions, so
 * the lot's outcome counts these too.
 */
const sampleDecisionSchema = z.object({ item_id: z.string(), decision: z.enum(['adopt', 'dispute']), by: z.string().nullable() });
export type SampleDecision = z.infer<typeof sampleDecisionSchema>;
export const lotResponse = z.object({ lot: hubLotSchema, sample_decisions: z.array(sampleDecisionSchema) });
/** The list: each lot with the team's decisions on its sample (the switching rules' history counts them). */
export const lotsResponse = z.object({ lots: z.array(hubLotSchema.extend({ sample_decisions: z.array(sampleDecisionSchema) })) });
