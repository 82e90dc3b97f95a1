import type { SsoFailure } from '../../api/contract/hub-sign-in';
import { ApiError, ContractError, NetworkError } from '../../api/errors';

/** What the sign-in form says about a failed sign-in: never a stack, never the password. */
export function signInError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'INVALID_CREDENTIALS') return 'Wrong email or password.';
    // The hub's own message names the wait ("too many failed sign-ins: try again in 30 s").
    if (error.status === 429) return `Too many failed sign-ins. ${capitalised(error.message.replace(/^too many failed sign-ins:\s*/i, ''))}`;
    if (error.code === 'INVALID_BODY' || error.status === 400) return 'Enter your email address and password.';
    if (error.status === 503 || error.status >= 500) return `The team hub cannot sign you in right now (${error.code ?? error.status}): try again shortly.`;
    if (error.code === 'CROSS_ORIGIN_REFUSED') return 'The team hub refused this page’s origin: open the console at the hub’s own address.';
    return `The team hub refused the sign-in (${error.code ?? error.status}): ${error.message}`;
  }
  if (error instanceof NetworkError) return 'The team hub cannot be reached: check that it is running, then try again.';
  if (error instanceof ContractError) return 'The team hub answered something this console does not understand: try again, or ask its admin.';
  return 'The sign-in failed: try again.';
}

const capitalised = (text: string) => (text ? text[0]!.toUpperCase() + text.slice(1) : text) + (/[.!?]$/.test(text) ? '' : '.');

/** Why a single sign-on came back without a session (the hub's `?sso=` code; never the provider's own words). */
const SSO_FAILURE_TEXT: Record<SsoFailure, string> = {
  unavailable: 'The sign-in provider did not answer the team hub. Try again shortly, or sign in with your email and password.',
  denied: 'The sign-in was cancelled at the provider.',
  expired: 'That sign-in took longer than 10 minutes, or was started in another browser. Start it again.',
  invalid: 'The provider’s answer could not be verified, so nobody was signed in. Start again; if it happens again, tell your hub’s admin.',
  no_email: 'The provider did not share an email address with the team hub. Ask your admin to allow the email scope.',
  email_not_verified: 'The provider has not verified your email address, so the team hub cannot match it to a member.',
  no_member: 'No member of this team hub has the email address your provider gave. Ask an admin of the hub to add you.',
  throttled: 'Too many sign-ins from this address matched no member. Wait a few minutes, then try again.',
};

/** The text for a `?sso=` code; one this console does not know (a newer hub's) still says the sign-in did not end in a session. */
export const ssoFailureText = (code: string): string =>
  Object.hasOwn(SSO_FAILURE_TEXT, code) ? SSO_FAILURE_TEXT[code as SsoFailure] : 'The single sign-on did not complete. Start it again.';
