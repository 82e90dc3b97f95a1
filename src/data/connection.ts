import { jwtDecode } from 'jwt-decode';
import { z } from '../api/contract/zod';
import { apiKeySchema, jwtSchema, subscriptionKindSchema } from '../api/contract';
import type { SignedInMember } from '../api/contract/hub';

/** A connection: where the service is and the secrets to use it (never put in a URL). */
const connectionSubscriptionSchema = z.object({
  id: z.string().trim().min(1, 'Subscription ID is required').max(200),
  kind: subscriptionKindSchema,
  label: z.string().max(200).optional(),
});
export type ConnectionSubscription = z.infer<typeof connectionSubscriptionSchema>;

const baseUrlSchema = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
    } catch {
      return false;
    }
  }, 'Base URL must be an http(s) URL such as https://dds.example.com')
  .transform((value) => value.replace(/\/+$/, ''));

export const connectionSchema = z.object({
  id: z.string().min(1),
  name: z.string().trim().min(1, 'Name is required').max(80),
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

/** What the connect form submits: the key is required and checked for form before any request. */
export const connectionFormSchema = connectionSchema.extend({
  apiKey: apiKeySchema,
  jwt: z
    .string()
    .trim()
    .transform((v) => v || undefined)
    .pipe(jwtSchema.optional()),
});

export interface JwtInfo {
  expiresAt: Date | null;
  expired: boolean;
  subject: string | null;
}

/** Decodes a JWT's claims for display (the signature is the server's business). */
export function jwtInfo(token: string, now = Date.now()): JwtInfo | { error: string } {
  try {
    const claims = jwtDecode<{ exp?: number; sub?: string }>(token);
    const expiresAt = typeof claims.exp === 'number' ? new Date(claims.exp * 1000) : null;
    return { expiresAt, expired: expiresAt !== null && expiresAt.getTime() <= now, subject: claims.sub ?? null };
  } catch {
    return { error: 'This JWT cannot be decoded' };
  }
}

/** A key to send, or a hub session (whose cookie the browser sends): requests may go. */
export const isConnected = (connection: Connection | null): connection is Connection =>
  !!connection && (connection.apiKey !== '' || connection.hub !== undefined);

/**
 * What local data belongs to: one organization (the key's `org_id` from verify-key) on one base
 * URL. Not the key, which rotates, and not the tab, which closes.
 */
export const scopeOf = (baseUrl: string, orgId: string) => `${baseUrl.replace(/\/+$/, '')} ${orgId}`;
