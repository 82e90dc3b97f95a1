import { z } from './zod';

/** Every error code and its HTTP status (spec 7.1, extended to all endpoints in docs/contract.md). */
export const ERROR_STATUS = {
  INVALID_PARAMETER: 400,
  INVALID_CURSOR: 400,
  INVALID_BODY: 400,
  MISSING_API_KEY: 401,
  INVALID_API_KEY: 401,
  KEY_REVOKED: 401,
  KEY_EXPIRED: 401,
  INVALID_TOKEN: 401,
  SUBSCRIPTION_NOT_IN_SCOPE: 403,
  NO_DATA_ACCESS: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  FEEDBACK_CONFLICT: 409,
  BODY_TOO_LARGE: 413,
  UNEXPECTED_BODY: 415,
  MISDIRECTED_REQUEST: 421,
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
} as const satisfies Record<string, 400 | 401 | 403 | 404 | 405 | 408 | 409 | 413 | 415 | 421 | 431 | 500>;
export type ErrorCode = keyof typeof ERROR_STATUS;
/** The status of one error code, as a literal type (the server's ApiError is typed from it). */
export type ErrorStatus<C extends ErrorCode = ErrorCode> = (typeof ERROR_STATUS)[C];

/**
 * The body of every failure. `errorCode` stays a plain string so a real server's unknown codes
 * still parse. `recorded` is our addition on FEEDBACK_CONFLICT: the decision the server already
 * holds, so a client can show it instead of guessing.
 */
export const errorBodySchema = z.looseObject({
  success: z.literal(false),
  errorCode: z.string(),
  errorMessage: z.string(),
  recorded: z.string().optional(),
});
