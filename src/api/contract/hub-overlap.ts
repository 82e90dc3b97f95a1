import { isValidId } from './ids';
import { z } from './zod';

/*
 * Overlap, the lead's queue, agreement and reviewers' figures (issue 26) on the hub's wire
 * (/hub/v1/overlap, /hub/v1/disagreements, /hub/v1/agreement, /hub/v1/reviewers/figures), shared by
 * the hub (server/hub/routes/overlap.ts), the console's team pages and the hub's OpenAPI document.
 */

export const OVERLAP_RULES = ['unanimous', 'majority'] as const;
export type OverlapRule = (typeof OVERLAP_RULES)[number];
export const OVERLAP_MAX = 10;

const overlapSetting = z.strictObject({
  subscription_id: z.string().min(1).max(200).refine(isValidId, 'must be a subscription ID'),
  /** Reviewers per item: 1 is today's (a vote is the team's decision). */
  overlap: z.number().int().min(1, 'overlap is at least 1').max(OVERLAP_MAX, `overlap is at most ${OVERLAP_MAX}`),
  rule: z.enum(OVERLAP_RULES),
});
export type OverlapSetting = z.infer<typeof overlapSetting>;

/** `GET /hub/v1/overlap` answers it (every team subscription, default 1 unanimous); `PUT` takes the ones to set. */
export const overlapSettingsSchema = z.strictObject({
  settings: z
    .array(overlapSetting)
    .max(100)
    .refine((list) => new Set(list.map((s) => s.subscription_id)).size === list.length, 'each subscription may be listed once'),
});

/**
 * What a vote answers while the team has not decided (202, the vendor's success shape plus this as
 * `hub`): `votes` of `needed` are in; `outcome` is the team's decision once the rule made it, or
 * `lead` when the item went to the lead's queue.
 */
export const hubVoteStateSchema = z.object({
  state: z.literal('voted'),
  votes: z.number().int(),
  needed: z.number().int(),
  outcome: z.enum(['adopt', 'dispute', 'lead']).nullable(),
});
export type HubVoteState = z.infer<typeof hubVoteStateSchema>;

const voteSchema = z.object({
  member: z.object({ id: z.string(), email: z.string().nullable() }),
  vote: z.enum(['adopt', 'dispute']),
  reason: z.string().nullable(),
  at: z.string(),
});

const disagreementSchema = z.object({
  family: z.enum(['data', 'live']),
  item_id: z.string(),
  subscription_id: z.string().nullable(),
  needed: z.number().int(),
  rule: z.enum(OVERLAP_RULES),
  votes: z.array(voteSchema),
  /** The item as delivered (from the shared inbox), null when the hub has not kept it. */
  payload: z.unknown().nullable(),
  price_micros: z.number().int().nullable(),
  since: z.string(),
});
export type HubDisagreement = z.infer<typeof disagreementSchema>;
export const disagreementsResponse = z.object({ disagreements: z.array(disagreementSchema) });

/** `POST /hub/v1/disagreements/settle`: the lead's decision, which is the team's. */
export const settleBody = z.strictObject({
  family: z.enum(['data', 'live']),
  item_id: z.string().min(1).max(200),
  decision: z.enum(['adopt', 'dispute']),
  reason: z.string().trim().max(2000).optional(),
});
/** What settling answers: the vendor's own answer to the decision plus `hub` (sent or queued), as a decision through /v1 would. */
export const settleResponse = z.looseObject({ ok: z.boolean(), hub: z.looseObject({ state: z.string(), decision_id: z.string() }) });

const agreementFigures = z.object({
  /** Items with at least two votes. */
  items: z.number().int(),
  raters: z.number().int(),
  /** Share of agreeing pairs of votes (0…1); null with nothing to compare. */
  percent: z.number().nullable(),
  kappa: z.number().nullable(),
  method: z.enum(['cohen', 'fleiss']).nullable(),
});
export type AgreementFigures = z.infer<typeof agreementFigures>;

export const agreementResponse = z.object({
  subscriptions: z.array(agreementFigures.extend({ subscription_id: z.string() })),
  reviewers: z.array(agreementFigures.extend({ member: z.object({ id: z.string(), email: z.string().nullable() }) })),
});

const figureRow = z.object({
  member: z.object({ id: z.string(), email: z.string().nullable() }),
  /** UTC day (YYYY-MM-DD), or `all` for the member's whole range. */
  day: z.string(),
  items: z.number().int(),
  adopts: z.number().int(),
  /** adopts / items. */
  acceptance: z.number().nullable(),
  /** Items per hour of work (gaps over 10 minutes are breaks, not work). */
  items_per_hour: z.number().nullable(),
  /** Median seconds between one item and the next (breaks left out). */
  seconds_per_item: z.number().nullable(),
  /** Share of their votes equal to the team's decision, over items the team decided. */
  agreement_with_team: z.number().nullable(),
  decided: z.number().int(),
});
export type ReviewerFigures = z.infer<typeof figureRow>;
export const figuresQuery = z.strictObject({ member: z.string().max(64).optional() });
export const figuresResponse = z.object({ rows: z.array(figureRow) });
