import type { z } from './contract/zod';
import { redactSecrets } from '../lib/redact';

/**
 * The client's whole error family. Each keeps what a "details" view needs; none holds
 * a key or token: messages and raw bodies are redacted here, when the error is made, so
 * nothing that stores, logs (an error boundary's console.error) or shows one can leak an echo.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind = 'api' as const;
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
    readonly rawBody: string,
    /** FEEDBACK_CONFLICT: the decision the server holds. */
    readonly recorded?: string,
    /** A team hub's BUDGET_HELD: the hold it keeps the adopt under. */
    readonly holdId?: string,
  ) {
    super(redactSecrets(message));
    this.rawBody = redactSecrets(rawBody);
    if (recorded !== undefined) this.recorded = redactSecrets(recorded);
  }
}

export class ContractError extends Error {
  override readonly name = 'ContractError';
  readonly kind = 'contract' as const;
  constructor(
    readonly endpoint: string,
    /** e.g. `data.items[3].quality_score` */
    readonly path: string,
    message: string,
    readonly rawBody: string,
    readonly issues: readonly z.core.$ZodIssue[] = [],
  ) {
    super(redactSecrets(message));
    this.rawBody = redactSecrets(rawBody);
  }
}

export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  readonly kind = 'network' as const;
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

/**
 * No request is sent with this connection's key: it was refused earlier, or the connection is
 * disconnected. The message is the reason alone ("the service refused this key (KEY_REVOKED)"),
 * so whoever shows it adds its own words without doubling a prefix.
 */
export class ConnectionBlockedError extends Error {
  override readonly name = 'ConnectionBlockedError';
  readonly kind = 'blocked' as const;
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** Authentication failures that stop a connection (spec 5, 7.2). */
const AUTH_ERROR_CODES = new Set(['MISSING_API_KEY', 'INVALID_API_KEY', 'KEY_REVOKED', 'KEY_EXPIRED']);

export function isAuthFailure(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 401 && (error.code === null || AUTH_ERROR_CODES.has(error.code));
}

export interface ErrorSummary {
  title: string;
  message: string;
  details?: string;
}

/** A user-facing summary: what went wrong, in words, with the raw response for "details". */
export function describeError(error: unknown): ErrorSummary {
  if (error instanceof ApiError) {
    return {
      title: error.code ? `${error.code} (HTTP ${error.status})` : `HTTP ${error.status}`,
      message: redactSecrets(error.message),
      details: error.rawBody || undefined,
    };
  }
  if (error instanceof ContractError) {
    return {
      title: 'Unexpected response from the server',
      message: `${error.endpoint}: ${error.message}${error.path ? ` at ${error.path}` : ''}`,
      details: error.rawBody,
    };
  }
  if (error instanceof NetworkError) {
    return { title: error.timedOut ? 'The request timed out' : 'Network error', message: error.message };
  }
  if (error instanceof ConnectionBlockedError) return { title: 'Requests are paused', message: `Not sent: ${error.message}.` };
  // The console's own errors may name themselves for the user (`title`).
  const title = error instanceof Error ? (error as { title?: unknown }).title : undefined;
  if (error instanceof Error && typeof title === 'string') return { title, message: redactSecrets(error.message) };
  return { title: 'Something went wrong', message: error instanceof Error ? redactSecrets(error.message) : 'Unknown error' };
}

/** Redacted before it is cut: a cut through a key would leave a part of it no pattern knows. */
export const redactBody = (text: string) => {
  const redacted = redactSecrets(text);
  return redacted.length > 20_000 ? `${redacted.slice(0, 20_000)}…` : redacted;
};
