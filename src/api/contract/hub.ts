import { z } from './zod';
import { isValidId } from './ids';
import { subscriptionKindSchema } from './resources';

/**
 * The team hub's own wire shapes the console reads (`/hub/v1/…`, docs/hub.md), shared with the hub's
 * routes. The vendor's interface stays in the other contract files: a hub speaks it unchanged on /v1.
 */

const HUB_ROLES = ['admin', 'reviewer', 'viewer'] as const;

const hubMemberSchema = z.object({
  id: z.string().min(1),
  email: z.string(),
  role: z.enum(HUB_ROLES),
});
export type HubMember = z.infer<typeof hubMemberSchema>;

/** `GET /hub/v1/me` and `POST /hub/v1/session`: who is signed in (other fields are the hub's business). */
export const hubMeSchema = z.looseObject({ member: hubMemberSchema });

/** One subscription the team reviews: what the console's connection is made of in hub mode. */
const teamSubscriptionSchema = z.strictObject({
  id: z.string().min(1).max(200).refine(isValidId, 'must be a subscription ID (letters, digits, ".", "_", ":" and "-")'),
  kind: subscriptionKindSchema,
  label: z.string().trim().min(1).max(200).optional(),
});
export type TeamSubscription = z.infer<typeof teamSubscriptionSchema>;

const MAX_TEAM_SUBSCRIPTIONS = 100;

/** `GET /hub/v1/subscriptions` answers it; `PUT` takes it (the whole list, in order). */
export const teamSubscriptionsSchema = z.strictObject({
  subscriptions: z
    .array(teamSubscriptionSchema)
    .max(MAX_TEAM_SUBSCRIPTIONS)
    .refine((list) => new Set(list.map((s) => s.id)).size === list.length, 'each subscription may be listed once'),
});
