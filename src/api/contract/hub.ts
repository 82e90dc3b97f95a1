import { HUB_ROLES } from './hub-session';
import { API_KEY_PATTERN } from './keys';
import { z } from './zod';

// What a console in hub mode reads at every start is its own small module (the first page loads it; the rest of this one loads with the team pages).
export * from './hub-session';

/*
 * The team hub's own wire format (/hub/v1/…): request bodies and queries the hub checks, and the
 * answers it gives, shared by the hub (server/hub), the console's team pages and the hub's OpenAPI
 * document (hub-openapi.ts). The vendor's contract (the rest of this folder) knows nothing of
 * members; nothing here is the vendor's.
 */

const TOKEN_SCOPES = ['read', 'decide'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;
export const MAX_TOKEN_DAYS = 365;

const email = z
  .string()
  .trim()
  .max(320)
  .regex(/^[^\s@]+@[^\s@]+$/, 'must be an email address');

export const signInBody = z.strictObject({ email, password: z.string().min(1).max(PASSWORD_MAX) });

export const signOutQuery = z.strictObject({ all: z.enum(['true', 'false']).optional() });

export const newMemberBody = z.strictObject({
  email,
  role: z.enum(HUB_ROLES),
  password: z.string().min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`).max(PASSWORD_MAX),
});

export const roleBody = z.strictObject({ role: z.enum(HUB_ROLES) });

const SUBSCRIPTION_SELECTOR = /^(\*|[A-Za-z0-9_-]{1,64})$/;

const subscriptions = z.array(z.string().regex(SUBSCRIPTION_SELECTOR, 'must be a subscription id, or * for every one')).min(1).max(100);

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

/** The filters of the audit log, shared by the page (`GET /audit`) and the export. */
const auditFilters = {
  member: z.string().max(64).optional(),
  action: z.string().max(64).optional(),
  from: instant.optional(),
  to: instant.optional(),
};

const AUDIT_PAGE_MAX = 1000;

/** The log's two orders: `asc`, the chain's (oldest first: the default, and the export's and the CLI's only one), and `desc`, newest first. */
const AUDIT_ORDERS = ['asc', 'desc'] as const;
export type AuditOrder = (typeof AUDIT_ORDERS)[number];

export const auditQuery = z.strictObject({
  ...auditFilters,
  order: z.enum(AUDIT_ORDERS).default('asc'),
  // Seq bounds, both exclusive: a page's `next` is `after` oldest first and `before` newest first.
  after: z.coerce.number().int().min(0).optional(),
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(100),
});

const AUDIT_EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type AuditExportFormat = (typeof AUDIT_EXPORT_FORMATS)[number];

export const auditExportQuery = z.strictObject({ ...auditFilters, format: z.enum(AUDIT_EXPORT_FORMATS) });

// The messages never quote the value: a key pasted in the wrong field must not come back in an error.
const vendorKey = z.string().regex(API_KEY_PATTERN, 'must be the vendor’s API key (<service>_live_sk_ and 32 URL-safe characters)');
const vendorJwt = z
  .string()
  .max(8192)
  .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/, 'must be a JWT (three base64url parts)');

const VENDOR_KEY_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

export const newVendorKeyBody = z.strictObject({
  name: z.string().trim().regex(VENDOR_KEY_NAME, 'must be 1 to 64 letters, digits, dots, dashes or underscores'),
  key: vendorKey,
  jwt: vendorJwt.optional(),
  subscriptions,
});

export const rotateVendorKeyBody = z.strictObject({ key: vendorKey, jwt: vendorJwt.optional() });

/*
 * Team settings: the dispute reason codes every member sees (the team's sampling lots are their own
 * resource, /hub/v1/lots: hub-lots.ts). The codes follow the
 * console's own rules (src/features/dispute-reasons/model.ts): snake_case, unique, not a reserved
 * word, so a code from the hub is sent and exported exactly as a local one.
 */
export const SETTINGS_LIMITS = { reasonCodes: 30, codeChars: 32, labelChars: 60 } as const;
const RESERVED_REASON_CODES = ['other', 'no_reason'] as const;

const reasonCode = z.strictObject({
  code: z
    .string()
    .max(SETTINGS_LIMITS.codeChars)
    .regex(/^[a-z][a-z0-9_]*$/, 'must be snake_case: lower-case letters, digits and _, starting with a letter')
    .refine((code) => !(RESERVED_REASON_CODES as readonly string[]).includes(code), 'is reserved (other, no_reason)'),
  label: z.string().trim().min(1).max(SETTINGS_LIMITS.labelChars),
});

const unique =
  <T>(key: (value: T) => string, what: string) =>
  (list: T[], ctx: z.RefinementCtx) => {
    const seen = new Set<string>();
    list.forEach((value, index) => {
      const k = key(value);
      if (seen.has(k)) ctx.addIssue({ code: 'custom', path: [index], message: `${what} ${k} is listed twice` });
      seen.add(k);
    });
  };

/** `PUT /hub/v1/settings`: the whole document, in the order the console shows it. */
export const teamSettingsBody = z.strictObject({
  reason_codes: z
    .array(reasonCode)
    .max(SETTINGS_LIMITS.reasonCodes)
    .superRefine(unique((r) => r.code, 'code')),
});
export type TeamSettingsInput = z.input<typeof teamSettingsBody>;

/* ---- Answers ---- */

const isoInstant = z.string();

const memberSchema = z.object({ id: z.string(), email: z.string(), role: z.enum(HUB_ROLES), created_at: isoInstant });
export type HubMember = z.infer<typeof memberSchema>;

export const meResponse = z.object({
  member: memberSchema,
  via: z.enum(['session', 'token']),
  token: z.object({ id: z.string(), scope: z.enum(TOKEN_SCOPES), subscriptions: z.array(z.string()), expires_at: isoInstant }).optional(),
});

export const signInResponse = z.object({ member: memberSchema, expires_at: isoInstant });
export const signOutResponse = z.object({ ended: z.number().int() });
export const membersResponse = z.object({ members: z.array(memberSchema) });
export const memberResponse = z.object({ member: memberSchema });
export const removedResponse = z.object({ removed: z.string() });

const accessTokenSchema = z.object({
  id: z.string(),
  member_id: z.string(),
  name: z.string(),
  last4: z.string(),
  scope: z.enum(TOKEN_SCOPES),
  subscriptions: z.array(z.string()),
  expires_at: isoInstant,
  created_at: isoInstant,
  last_used_at: isoInstant.nullable(),
  revoked_at: isoInstant.nullable(),
});
export type HubAccessToken = z.infer<typeof accessTokenSchema>;
export const accessTokensResponse = z.object({ access_tokens: z.array(accessTokenSchema) });
/** The one answer that carries a token's value. */
export const newTokenResponse = z.object({ token: z.string(), access_token: accessTokenSchema });
export const revokedResponse = z.object({ revoked: z.string() });

const auditRowSchema = z.object({
  seq: z.number().int(),
  at: isoInstant,
  actor_id: z.string().nullable(),
  via: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  subscription_id: z.string().nullable(),
  item_id: z.string().nullable(),
  amount_micros: z.number().int().nullable(),
  reason: z.string().nullable(),
  outcome: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
  prev_hash: z.string(),
  hash: z.string(),
});
export type HubAuditRow = z.infer<typeof auditRowSchema>;
/** The columns of an audit row, in the order the export writes them. */
export const AUDIT_COLUMNS = Object.keys(auditRowSchema.shape) as (keyof HubAuditRow)[];
export const auditResponse = z.object({ rows: z.array(auditRowSchema), next: z.number().int().nullable() });

const vendorKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  subscriptions: z.array(z.string()),
  has_jwt: z.boolean(),
  created_at: isoInstant,
  rotated_at: isoInstant.nullable(),
});
export type HubVendorKey = z.infer<typeof vendorKeySchema>;
export const vendorKeysResponse = z.object({ vendor_keys: z.array(vendorKeySchema) });
export const vendorKeyResponse = z.object({ vendor_key: vendorKeySchema });
