import { isValidId } from './ids';
import { subscriptionKindSchema } from './resources';
import { z } from './zod';

/*
 * The part of the hub's wire format (hub.ts) a console reads at every start in hub mode: who is
 * signed in, what the team reviews and its settings. Its own module so that the first page does not
 * load the rest of the hub's schemas (members, tokens, the audit log, vendor keys); hub.ts re-exports it.
 */

export const HUB_ROLES = ['admin', 'reviewer', 'viewer'] as const;
export type HubRole = (typeof HUB_ROLES)[number];

const isoInstant = z.string();

export const teamSettingsResponse = z.object({
  reason_codes: z.array(z.object({ code: z.string(), label: z.string() })),
  /** When and by whom they were last saved; null before the first save. */
  updated_at: isoInstant.nullable(),
  updated_by: z.string().nullable(),
});
export type TeamSettings = z.infer<typeof teamSettingsResponse>;

/* ---- Hub mode: who is signed in, and what the team reviews ---- */

const signedInMemberSchema = z.object({ id: z.string().min(1), email: z.string(), role: z.enum(HUB_ROLES) });
/** The member a console in hub mode works as: only what it needs of `/me` (other fields are the hub's business). */
export type SignedInMember = z.infer<typeof signedInMemberSchema>;

/** `GET /hub/v1/me` and `POST /hub/v1/session` as the console's hub mode reads them. */
export const hubMeSchema = z.looseObject({ member: signedInMemberSchema });

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
