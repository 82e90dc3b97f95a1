import { ERROR_STATUS, type ErrorCode, type ErrorStatus } from '../../src/api/contract';

/**
 * A failure with its contract error code, thrown by the HTTP layer (routes, middleware) and
 * turned into the error body by the app's onError. The status comes from the error table, so
 * `new ServiceError('NOT_FOUND', …).status` is the literal 404. The store never throws it: it
 * returns results and the route decides. Named apart from the console's `ApiError` (src/api/errors.ts),
 * which is the same failure as the client reads it.
 */
export class ServiceError<C extends ErrorCode = ErrorCode> extends Error {
  readonly status: ErrorStatus<C>;
  constructor(
    readonly code: C,
    message: string,
    readonly extra: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ServiceError';
    this.status = ERROR_STATUS[code];
  }
}

/** A failure of a CLI or import step: printed as one line, never as a stack. */
export class UsageError extends Error {
  override name = 'UsageError';
}
