import { z } from '../api/contract/zod';
import { apiKeySchema, jwtSchema, subscriptionKindSchema } from '../api/contract';
import type { SignedInMember } from '../api/contract/hub';

/** A connection: where the service is and the secrets to use it (never put in a URL). */
const connectionSubscriptionSchema = z.object({
  id: z.string().trim().min(1).max(200),
  kind: subscriptionKindSchema,
  label: z.string().max(200).optional(),
});
export type ConnectionSubscription = z.infer<typeof connectionSubscriptionSchema>;

/** An http(s) URL without credentials in it. */
export function isServiceUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
  } catch {
    return false;
  }
}

// The messages a person reads are the connect form's (src/features/connections), off the first page.
const baseUrlSchema = z
  .string()
  .trim()
  .refine(isServiceUrl)
  .transform((value) => value.replace(/\/+$/, ''));

export const connectionSchema = z.object({
  id: z.string().min(1),
  name: z.string().trim().min(1).max(80),
  baseUrl: baseUrlSchema,
  /** Empty after Disconnect: the connection's shell stays, its secrets do not. */
  apiKey: z.union([apiKeySchema, z.literal('')]),
  jwt: jwtSchema.optional(),
  subscriptions: z.array(connectionSubscriptionSchema).max(100),
  remember: z.boolean(),
  /** Whose key it is, as the service said when it was verified (spec 4.5): not a secret. */
  verified: z.object({ org_id: z.string(), key_id: z.string(), key_name: z.string() }).optional(),
});
export type Connection = z.infer<typeof connectionSchema> & {
  /**
   * Hub mode (src/data/hub-mode.ts): the connection is the team hub serving this console, made of
   * the signed-in member and the team's subscriptions. No key: the hub holds the vendor's, and the
   * browser's session is an HttpOnly cookie. Never stored (so not in the stored schema).
   */
  hub?: { member: SignedInMember };
};

export const isConnected = (connection: Connection | null): connection is Connection =>
  !!connection && (connection.apiKey !== '' || connection.hub !== undefined);

/**
 * What local data belongs to: one organization (the key's `org_id` from verify-key) on one base
 * URL. Not the key, which rotates, and not the tab, which closes.
 */
export const scopeOf = (baseUrl: string, orgId: string) => `${baseUrl.replace(/\/+$/, '')} ${orgId}`;
