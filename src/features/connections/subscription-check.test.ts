import { describe, expect, it } from 'vitest';
import { ApiError, ContractError, NetworkError } from '../../api/errors';
import { checkOf, checkSubscriptionsWith, isRefused } from './subscription-check';

const sub = { id: 'sub_x', kind: 'live' } as const;
const api = (status: number, code: string) => new ApiError(status, code, `${code} message`, '');

describe('checkOf', () => {
  it('names each refusal: unknown, not covered by this key, no data access', () => {
    expect(checkOf(api(404, 'NOT_FOUND'), sub)).toMatchObject({ status: 'unknown', message: expect.stringMatching(/^Unknown: .*sub_x/) });
    expect(checkOf(api(403, 'SUBSCRIPTION_NOT_IN_SCOPE'), sub)).toMatchObject({
      status: 'not-covered',
      message: expect.stringMatching(/^Not covered by this key/),
    });
    expect(checkOf(api(403, 'NO_DATA_ACCESS'), sub)).toMatchObject({ status: 'no-data-access', message: expect.stringMatching(/^No data access/) });
    // Another service's own code still says what it can.
    expect(checkOf(api(403, 'FORBIDDEN_SOMEHOW'), sub)).toMatchObject({ status: 'refused', message: expect.stringContaining('FORBIDDEN_SOMEHOW') });
  });

  it('reads as fine, and counts a service that did not answer as not checked (never refused)', () => {
    expect(checkOf(null, sub)).toEqual({ status: 'fine' });
    expect(checkOf(new ContractError('/v1/live/pull', 'data.items[0]', 'bad', '{}'), sub)).toEqual({ status: 'fine' });
    for (const error of [new NetworkError('Failed to fetch', false), api(503, 'INTERNAL_ERROR'), api(429, 'RATE_LIMITED')]) {
      const check = checkOf(error, sub);
      expect(check.status).toBe('unreachable');
      expect(isRefused(check)).toBe(false);
    }
    expect(isRefused(checkOf(api(404, 'NOT_FOUND'), sub))).toBe(true);
    expect(isRefused({ status: 'fine' })).toBe(false);
  });
});

describe('checkSubscriptionsWith', () => {
  it('checks each ID with its family’s read; a 400 there tries the other family and says to switch the kind', async () => {
    const probed: string[] = [];
    const world: Record<string, unknown> = {
      'live sub_live': null,
      'simulated sub_sim': null,
      'live sub_sim': api(400, 'INVALID_PARAMETER'),
      'live sub_gone': api(404, 'NOT_FOUND'),
      'simulated sub_other': api(403, 'SUBSCRIPTION_NOT_IN_SCOPE'),
    };
    const probe = (s: { id: string; kind: 'live' | 'simulated' }) => {
      probed.push(`${s.kind} ${s.id}`);
      const error = world[`${s.kind} ${s.id}`];
      return error ? Promise.reject(error) : Promise.resolve({});
    };
    const checks = await checkSubscriptionsWith(probe, [
      { id: 'sub_live', kind: 'live' },
      { id: 'sub_sim', kind: 'live' },
      { id: 'sub_gone', kind: 'live' },
      { id: 'sub_other', kind: 'simulated' },
    ]);
    expect(checks.map((c) => c.status)).toEqual(['fine', 'wrong-kind', 'unknown', 'not-covered']);
    expect(checks[1]).toMatchObject({ message: expect.stringContaining('Choose Simulated') });
    expect(probed.sort()).toEqual(['live sub_gone', 'live sub_live', 'live sub_sim', 'simulated sub_other', 'simulated sub_sim']);
  });
});
