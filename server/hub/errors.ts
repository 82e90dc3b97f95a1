/*
 * The hub's failures, in the simulator's error body (`{ success: false, errorCode, errorMessage }`),
 * with the hub's own codes: sign-in, roles, Origin and the database are not the vendor's business,
 * so they live here rather than in the vendor contract (src/api/contract/errors.ts).
 */

export const HUB_ERROR_STATUS = {
  INVALID_PARAMETER: 400,
  INVALID_BODY: 400,
  NOT_SIGNED_IN: 401,
  INVALID_CREDENTIALS: 401,
  INVALID_TOKEN: 401,
  TOKEN_EXPIRED: 401,
  TOKEN_REVOKED: 401,
  VENDOR_KEY_NOT_ACCEPTED: 401,
  MEMBER_CHANGED: 401,
  FORBIDDEN: 403,
  SESSION_REQUIRED: 403,
  CROSS_ORIGIN_REFUSED: 403,
  NOT_FOUND: 404,
  NO_VENDOR_KEY: 404,
  ITEM_NOT_DELIVERED: 404,
  MEMBER_EXISTS: 409,
  VENDOR_KEY_EXISTS: 409,
  VENDOR_KEY_OVERLAP: 409,
  LAST_ADMIN: 409,
  BUDGET_HELD: 409,
  ALREADY_DECIDED: 409,
  HOLD_RESOLVED: 409,
  WITH_THE_LEAD: 409,
  NOT_WITH_THE_LEAD: 409,
  LOT_EXISTS: 409,
  LOT_CHANGED: 409,
  ITEM_LEASED: 409,
  LEASE_CAP_REACHED: 409,
  BODY_TOO_LARGE: 413,
  MISDIRECTED_REQUEST: 421,
  TOO_MANY_ATTEMPTS: 429,
  INTERNAL_ERROR: 500,
  HUB_SECRET_MISMATCH: 500,
  UPSTREAM_UNREACHABLE: 502,
  UPSTREAM_BAD_RESPONSE: 502,
  DATABASE_UNAVAILABLE: 503,
  PULL_BUSY: 503,
  NO_UPSTREAM: 503,
  TOO_MANY_STREAMS: 503,
  UPSTREAM_TIMEOUT: 504,
} as const;

export type HubErrorCode = keyof typeof HUB_ERROR_STATUS;

export class HubError extends Error {
  override name = 'HubError';
  readonly status: (typeof HUB_ERROR_STATUS)[HubErrorCode];
  constructor(
    readonly code: HubErrorCode,
    message: string,
    /** Response headers the failure needs (Retry-After). */
    readonly headers: Record<string, string> = {},
    /** A decision's conflict in words the console shows as what the hub holds (the envelope's `recorded`): "dispute by bob@…", "leased to bob@… now". */
    readonly recorded?: string,
  ) {
    super(message);
    this.status = HUB_ERROR_STATUS[code];
  }
}

export const hubErrorBody = (error: HubError) => ({
  success: false as const,
  errorCode: error.code,
  errorMessage: error.message,
  ...(error.recorded !== undefined ? { recorded: error.recorded } : {}),
});

/** Connection-level failures of either engine (not a bad query): the database is down or unreachable. */
const PG_UNAVAILABLE = /^(08|57P0[1-3]|53300|3D000)/;
const NODE_UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN']);
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|READONLY)/;

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NODE_UNAVAILABLE.has(code) || PG_UNAVAILABLE.test(code) || SQLITE_UNAVAILABLE.test(code))) return true;
  // pg's own wording for a connection that died or never came (no code on these).
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable/i.test(
    error.message,
  );
}
