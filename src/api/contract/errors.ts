import { z } from './zod';

/**
 * Every failure on every endpoint has this body (spec 7.1, extended to all endpoints
 * in docs/contract.md). `recorded` is our addition on FEEDBACK_CONFLICT: the decision
 * the server already holds, so a client can show it instead of guessing.
 */
export const ERROR_CODES = [
  'INVALID_PARAMETER',
  'INVALID_CURSOR',
  'INVALID_BODY',
  'MISSING_API_KEY',
  'INVALID_API_KEY',
  'KEY_REVOKED',
  'KEY_EXPIRED',
  'INVALID_TOKEN',
  'SUBSCRIPTION_NOT_IN_SCOPE',
  'NO_DATA_ACCESS',
  'NOT_FOUND',
  'FEEDBACK_CONFLICT',
  'BODY_TOO_LARGE',
  'INTERNAL_ERROR',
] as const;

export const errorCodeSchema = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

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
  FEEDBACK_CONFLICT: 409,
  BODY_TOO_LARGE: 413,
  INTERNAL_ERROR: 500,
} as const satisfies Record<ErrorCode, 400 | 401 | 403 | 404 | 409 | 413 | 500>;
/** The status of one error code, as a literal type (the server's ApiError is typed from it). */
export type ErrorStatus<C extends ErrorCode = ErrorCode> = (typeof ERROR_STATUS)[C];

/** The error body. `errorCode` stays a plain string so a real server's unknown codes still parse. */
export const errorBodySchema = z.looseObject({
  success: z.literal(false),
  errorCode: z.string(),
  errorMessage: z.string(),
  recorded: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
