import { ERROR_STATUS, type ErrorCode } from '../../src/api/contract';

/** A failure with its contract error code; the HTTP layer turns it into the error body. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }
}

/** A failure of a CLI or import step: printed as one line, never as a stack. */
export class UsageError extends Error {
  override name = 'UsageError';
}
