import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../api/errors';
import { signInError } from './sign-in-errors';

describe('signInError', () => {
  it('says a wrong password, the throttle with its wait, and a hub that cannot be reached, each clearly', () => {
    expect(signInError(new ApiError(401, 'INVALID_CREDENTIALS', 'wrong email or password', ''))).toBe('Wrong email or password.');
    expect(signInError(new ApiError(429, 'TOO_MANY_ATTEMPTS', 'too many failed sign-ins: try again in 30 s', ''))).toBe(
      'Too many failed sign-ins. Try again in 30 s.',
    );
    expect(signInError(new NetworkError('Could not reach the service for POST /hub/v1/session', false))).toMatch(/cannot be reached/);
    expect(signInError(new ApiError(503, 'DATABASE_UNAVAILABLE', 'the hub’s database is unavailable', ''))).toMatch(
      /cannot sign you in right now \(DATABASE_UNAVAILABLE\)/,
    );
  });
});
