import { z } from './zod';

/** Spec 5.4: `<service>_live_sk_` followed by 32 URL-safe characters. */
export const API_KEY_PATTERN = /^[a-z][a-z0-9]*_live_sk_[A-Za-z0-9_-]{32}$/;
/** The local service's own prefix. */
export const LOCAL_KEY_PREFIX = 'dds_live_sk_';
/** How a key looks, in the same words for the form's hint and its error. */
export const API_KEY_SHAPE = `${LOCAL_KEY_PREFIX} (or your service's prefix) followed by 32 URL-safe characters`;
export const KEY_EXPIRY_CHOICES = ['7d', '30d', '90d', '1y', 'never'] as const;

export const apiKeySchema = z.string().regex(API_KEY_PATTERN, `An API key is ${API_KEY_SHAPE}.`);

/** A compact JWS: three base64url parts. Signature is checked by the server only. */
const JWT_PATTERN = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
export const jwtSchema = z.string().regex(JWT_PATTERN, 'A JWT has three base64url parts separated by dots');

/** Spec 2.8. */
export const keyVerificationSchema = z.looseObject({
  org_id: z.string(),
  key_id: z.string(),
  key_name: z.string(),
});
export type KeyVerification = z.infer<typeof keyVerificationSchema>;
