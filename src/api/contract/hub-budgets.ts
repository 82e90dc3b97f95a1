import { isValidId } from './ids';
import { z } from './zod';

/*
 * The hub's budgets and held adopts (/hub/v1/budgets, /hub/v1/holds) as the console reads and
 * writes them: integer micro-USD on the wire, null = no limit. The hub checks the same bounds
 * (server/hub/routes/budgets.ts); the console checks them first so a bad limit is named in its field.
 */

/** Up to a million dollars a period (the hub's own bound). */
export const HUB_LIMIT_MAX_MICROS = 1_000_000_000_000;
/** A subscription id as the hub's budgets take it: the same rule as the team's subscriptions. */
export const isBudgetSubscriptionId = (id: string) => id.length >= 1 && id.length <= 200 && isValidId(id);

const micros = z.number().int().min(0).max(HUB_LIMIT_MAX_MICROS).nullable();
const limitSchema = z.object({ daily_micros: micros, monthly_micros: micros });
export type HubLimit = z.infer<typeof limitSchema>;
const spentSchema = z.object({ day_micros: z.number().int(), month_micros: z.number().int() });
export type HubSpent = z.infer<typeof spentSchema>;

/** Instants ISO 8601; all null before the first read. */
const receiptSync = z.object({
  synced_at: z.string().nullable(),
  attempted_at: z.string().nullable(),
  outcome: z.string().nullable(),
});

export const budgetsResponse = z.object({
  /** The hub's current UTC day (YYYY-MM-DD) and month (YYYY-MM): the periods `spent` is counted in. */
  day: z.string(),
  month: z.string(),
  limits: z.object({
    organization: limitSchema,
    per_member: limitSchema,
    subscriptions: z.array(limitSchema.extend({ subscription_id: z.string() })),
    members: z.array(limitSchema.extend({ member_id: z.string() })),
  }),
  spent: z.object({
    /** Everything the organization's limits count: the hub's ledger plus `outside`. */
    organization: spentSchema,
    /** The vendor's receipts the hub did not cause (another key, a script), by the receipt's UTC day and month, as last synced. */
    outside: spentSchema,
    subscriptions: z.array(spentSchema.extend({ subscription_id: z.string() })),
    members: z.array(spentSchema.extend({ member_id: z.string(), email: z.string().nullable() })),
  }),
  /** When the hub last read the vendor's receipts (4.7), and how its last attempt went (`ok`, or why not: `UPSTREAM_UNREACHABLE`, …). */
  receipts: receiptSync,
});
export type HubBudgets = z.infer<typeof budgetsResponse>;

/** PUT /hub/v1/budgets as the hub checks it: null (or absent) is no limit. */
const microsIn = micros.default(null);
const limitIn = z.strictObject({ daily_micros: microsIn, monthly_micros: microsIn });
export const budgetsBody = z.strictObject({
  organization: limitIn.optional(),
  per_member: limitIn.optional(),
  subscriptions: z
    .array(limitIn.extend({ subscription_id: z.string().refine(isBudgetSubscriptionId, 'must be a subscription id') }))
    .max(500)
    .default([]),
  members: z
    .array(limitIn.extend({ member_id: z.string().min(1).max(100) }))
    .max(500)
    .default([]),
});

/** GET /hub/v1/holds: the open ones (default), or all. */
export const holdsListQuery = z.strictObject({ state: z.enum(['open', 'all']).optional() });

/** PUT /hub/v1/budgets: every limit at once (what is left out has no limit). */
export interface HubBudgetsInput {
  organization: HubLimit;
  per_member: HubLimit;
  subscriptions: (HubLimit & { subscription_id: string })[];
  members: (HubLimit & { member_id: string })[];
}

const holdSchema = z.object({
  id: z.string(),
  decision_id: z.string(),
  item_id: z.string(),
  family: z.string(),
  kind: z.string(),
  subscription_id: z.string().nullable(),
  price_micros: z.number().int().nullable(),
  member: z.object({ id: z.string(), email: z.string().nullable() }),
  /** The limit it would have passed: `organization.daily`, `member.monthly`, … or `price_unknown`. */
  limit: z.string(),
  created_at: z.string(),
  state: z.string(),
  resolved_at: z.string().nullable(),
  /** The member who released or dropped it: their id, and their email (null for a member whose row is gone). */
  resolved_by: z.string().nullable(),
  resolved_by_email: z.string().nullable(),
  decision_state: z.string(),
  outcome: z.string().nullable(),
});
export type HubHold = z.infer<typeof holdSchema>;
export const holdsResponse = z.object({ holds: z.array(holdSchema) });
export const holdResponse = z.object({ hold: holdSchema });
