import { z } from 'zod';
import { API_KEY_PATTERN } from '../../../src/api/contract';
import { ROLES, TOKEN_SCOPES } from '../db/schema';
import { PASSWORD_MAX, PASSWORD_MIN } from '../passwords';

/** The hub's request bodies and queries (its own: the vendor contract knows nothing of members). */

const email = z
  .string()
  .trim()
  .max(320)
  .regex(/^[^\s@]+@[^\s@]+$/, 'must be an email address');

export const signInBody = z.strictObject({ email, password: z.string().min(1).max(PASSWORD_MAX) });

export const signOutQuery = z.strictObject({ all: z.enum(['true', 'false']).optional() });

export const newMemberBody = z.strictObject({
  email,
  role: z.enum(ROLES),
  password: z.string().min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`).max(PASSWORD_MAX),
});

export const roleBody = z.strictObject({ role: z.enum(ROLES) });

const MAX_TOKEN_DAYS = 365;

const subscriptions = z
  .array(z.string().regex(/^(\*|[A-Za-z0-9_-]{1,64})$/, 'must be a subscription id, or * for every one'))
  .min(1)
  .max(100);

export const newTokenBody = z.strictObject({
  name: z.string().trim().min(1).max(100),
  scope: z.enum(TOKEN_SCOPES),
  subscriptions,
  expires_in_days: z.number().int().min(1).max(MAX_TOKEN_DAYS),
});

export const tokensQuery = z.strictObject({ all: z.enum(['true', 'false']).optional() });

const instant = z
  .string()
  .refine((v) => /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(v) && !Number.isNaN(Date.parse(v)), 'must be an ISO-8601 date or date-time')
  .transform((v) => Date.parse(v));

export const auditQuery = z.strictObject({
  member: z.string().max(64).optional(),
  action: z.string().max(64).optional(),
  from: instant.optional(),
  to: instant.optional(),
  after: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

// The messages never quote the value: a key pasted in the wrong field must not come back in an error.
const vendorKey = z.string().regex(API_KEY_PATTERN, 'must be the vendor’s API key (<service>_live_sk_ and 32 URL-safe characters)');
const vendorJwt = z
  .string()
  .max(8192)
  .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/, 'must be a JWT (three base64url parts)');

export const newVendorKeyBody = z.strictObject({
  name: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1 to 64 letters, digits, dots, dashes or underscores'),
  key: vendorKey,
  jwt: vendorJwt.optional(),
  subscriptions,
});

export const rotateVendorKeyBody = z.strictObject({ key: vendorKey, jwt: vendorJwt.optional() });
