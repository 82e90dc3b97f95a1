import { ApiError, ConnectionBlockedError, ContractError, NetworkError } from '../../api/errors';

/**
 * What a failed send leads to. Kept apart from the engine so each rule is tested alone:
 * - 409: the service holds a decision already (`recorded`): stop, show it. Through a team hub,
 *   409 BUDGET_HELD: the hub holds the adopt under the team's budget ('held-team', not retried).
 * - 401, or requests blocked for the connection: the key must be fixed; the whole scope pauses.
 * - 403 (e.g. SUBSCRIPTION_NOT_IN_SCOPE): this key may not touch that subscription; only it pauses.
 * - no answer at all (offline, the service unreachable, no answer in time): retried with jittered
 *   exponential backoff, capped, for as long as it takes. The service may be back at any time, and
 *   the console says these decisions wait until it answers: they never turn "failed" for it.
 * - 5xx, 429, an answer that breaks the contract and unknown errors: retried the same way, until
 *   the `maxAttempts`-th failure, which is final.
 * - any other 4xx: final at once (sending it again cannot change the answer).
 */
export type FailureOutcome =
  | { kind: 'conflict'; recorded: string | undefined }
  | { kind: 'team-held'; holdId: string | undefined }
  | { kind: 'pause-scope'; refusedKey: boolean }
  | { kind: 'pause-subscription' }
  | { kind: 'retry'; delayMs: number }
  | { kind: 'failed' };

export interface RetryOptions {
  /** Attempts so far, including the one that just failed. */
  attempts: number;
  maxAttempts?: number;
  baseMs?: number;
  capMs?: number;
  /** 0..1: spreads retries so tabs and entries do not retry in step. */
  random?: () => number;
}

export const MAX_ATTEMPTS = 8;

function isRetryable(error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500 || error.status === 429;
  // Network errors, contract breaks and anything unexpected may pass: sending again is safe
  // (a decision the service already holds comes back as 409, never twice).
  return error instanceof NetworkError || error instanceof ContractError || !(error instanceof ConnectionBlockedError);
}

/** The delay before attempt `attempts + 1`: base · 2^(attempts-1), capped, times 0.5..1. */
export function backoffMs(attempts: number, random: () => number, baseMs = 500, capMs = 30_000): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, attempts - 1)) * (0.5 + random() / 2);
}

export function classifyFailure(error: unknown, options: RetryOptions): FailureOutcome {
  // A team hub's answers (docs/hub.md): it kept the adopt under the team's budget (never sent
  // again from here: the hub has it), or a teammate decided the item first.
  if (error instanceof ApiError && error.status === 409 && error.code === 'BUDGET_HELD') return { kind: 'team-held', holdId: error.holdId };
  if (error instanceof ApiError && error.status === 409 && error.code === 'ALREADY_DECIDED')
    return { kind: 'conflict', recorded: error.recorded ?? 'a decision by the team' };
  if (error instanceof ApiError && error.status === 409) return { kind: 'conflict', recorded: error.recorded };
  if (error instanceof ApiError && error.status === 401) return { kind: 'pause-scope', refusedKey: true };
  if (error instanceof ConnectionBlockedError) return { kind: 'pause-scope', refusedKey: false };
  if (error instanceof ApiError && error.status === 403) return { kind: 'pause-subscription' };
  if (error instanceof NetworkError || (isRetryable(error) && options.attempts < (options.maxAttempts ?? MAX_ATTEMPTS))) {
    return { kind: 'retry', delayMs: backoffMs(options.attempts, options.random ?? Math.random, options.baseMs, options.capMs) };
  }
  return { kind: 'failed' };
}
