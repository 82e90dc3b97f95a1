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
