import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../api/errors';
import { SSO_FAILURES } from '../../api/contract/hub-sign-in';
import { signInError, ssoFailureText } from './sign-in-errors';

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

describe('ssoFailureText', () => {
  it('names each failure the hub can send back, and says something true of a code it does not know', () => {
    const texts = SSO_FAILURES.map(ssoFailureText);
    expect(new Set(texts).size).toBe(SSO_FAILURES.length);
    expect(ssoFailureText('no_member')).toMatch(/No member of this team hub has the email address/);
    for (const unknown of ['constructor', '__proto__', 'toString', 'something_new'])
      expect(ssoFailureText(unknown)).toBe('The single sign-on did not complete. Start it again.');
  });
});
