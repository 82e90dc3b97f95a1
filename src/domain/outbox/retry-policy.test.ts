import { describe, expect, it } from 'vitest';
import { ApiError, ConnectionBlockedError, ContractError, NetworkError } from '../../api/errors';
import { backoffMs, classifyFailure, MAX_ATTEMPTS } from './retry-policy';

const half = () => 0.5;

describe('retry policy', () => {
  it('retries a request that got no answer (offline, unreachable, timed out) for as long as it takes, never failing it', () => {
    for (const error of [new NetworkError('down', false), new NetworkError('no answer within 15 s', true)]) {
      for (const attempts of [1, MAX_ATTEMPTS, 10 * MAX_ATTEMPTS]) expect(classifyFailure(error, { attempts, random: half }).kind).toBe('retry');
    }
    // Still spaced out: capped at 30 s.
    expect(classifyFailure(new NetworkError('down', false), { attempts: 100, random: () => 1 })).toEqual({ kind: 'retry', delayMs: 30_000 });
  });

  it('retries 5xx, 429, contract breaks and unknown errors until the 8th failure', () => {
    const errors = [
      new ApiError(502, null, 'bad gateway', ''),
      new ApiError(429, null, 'slow', ''),
      new ContractError('/x', 'data', 'bad', ''),
      new TypeError('odd'),
    ];
    for (const error of errors) {
      expect(classifyFailure(error, { attempts: 1, random: half }).kind).toBe('retry');
      expect(classifyFailure(error, { attempts: MAX_ATTEMPTS - 1, random: half }).kind).toBe('retry');
      expect(classifyFailure(error, { attempts: MAX_ATTEMPTS, random: half })).toEqual({ kind: 'failed' });
    }
  });

  it('stops at a 409 with the recorded decision, and fails other 4xx at once', () => {
    expect(classifyFailure(new ApiError(409, 'FEEDBACK_CONFLICT', 'x', '', 'adopt'), { attempts: 1 })).toEqual({ kind: 'conflict', recorded: 'adopt' });
    expect(classifyFailure(new ApiError(400, 'INVALID_BODY', 'x', ''), { attempts: 1 })).toEqual({ kind: 'failed' });
    expect(classifyFailure(new ApiError(404, 'NOT_FOUND', 'x', ''), { attempts: 1 })).toEqual({ kind: 'failed' });
  });

  it('pauses the scope on a 401 or a blocked connection, and only the subscription on a 403', () => {
    expect(classifyFailure(new ApiError(401, 'KEY_REVOKED', 'x', ''), { attempts: 1 })).toEqual({ kind: 'pause-scope', refusedKey: true });
    expect(classifyFailure(new ConnectionBlockedError('disconnected'), { attempts: 1 })).toEqual({ kind: 'pause-scope', refusedKey: false });
    expect(classifyFailure(new ApiError(403, 'SUBSCRIPTION_NOT_IN_SCOPE', 'x', ''), { attempts: 1 })).toEqual({ kind: 'pause-subscription' });
  });

  it('backs off exponentially with jitter, capped', () => {
    expect(backoffMs(1, () => 1)).toBe(500);
    expect(backoffMs(1, () => 0)).toBe(250);
    expect(backoffMs(3, () => 1)).toBe(2_000);
    expect(backoffMs(20, () => 1)).toBe(30_000);
  });
});

describe('retry policy through a team hub', () => {
  const once = { attempts: 1 };
  it('takes 409 BUDGET_HELD as held by the team’s budget, never retried', () => {
    expect(classifyFailure(new ApiError(409, 'BUDGET_HELD', 'over the team’s daily limit', ''), once)).toEqual({ kind: 'team-held', holdId: undefined });
    expect(classifyFailure(new ApiError(409, 'BUDGET_HELD', 'held', '', undefined, 'h-1'), once)).toEqual({ kind: 'team-held', holdId: 'h-1' });
  });
  it('takes 409 ALREADY_DECIDED as decided by the team', () => {
    expect(classifyFailure(new ApiError(409, 'ALREADY_DECIDED', 'decided', ''), once)).toEqual({ kind: 'conflict', recorded: 'a decision by the team' });
  });
  it('takes 404 ITEM_NOT_DELIVERED (an adopt of an item the hub never delivered) as failed at once, not a conflict or a retry', () => {
    expect(classifyFailure(new ApiError(404, 'ITEM_NOT_DELIVERED', 'item x was never delivered through this hub: pull it first', ''), once)).toEqual({
      kind: 'failed',
    });
  });
});
