import { isSafeRedirect } from './safe-redirect';
import { z } from './zod';

/*
 * Single sign-on's part of the hub's wire format (server/hub/oidc.ts, routes/oidc.ts): what the
 * sign-in page offers and why a sign-in through the provider came back without a session. Its own
 * module: only the sign-in page (a route of its own) and the hub read it, not the first page.
 */

/** `GET /hub/v1/sign-in-methods`: what the sign-in page offers. */
export const signInMethodsResponse = z.object({
  password: z.literal(true),
  /** The provider's button, or null when the hub has none (`--oidc-issuer`). */
  sso: z.object({ label: z.string(), start: z.literal('/hub/v1/oidc/start') }).nullable(),
});
export type SignInMethods = z.infer<typeof signInMethodsResponse>;

/**
 * Why a sign-in through the provider ended without a session: the hub sends the browser to
 * `/sign-in?sso=<one of these>` (server/hub/oidc.ts), never with the provider's own words.
 */
export const SSO_FAILURES = ['unavailable', 'denied', 'expired', 'invalid', 'no_email', 'email_not_verified', 'no_member', 'throttled'] as const;
export type SsoFailure = (typeof SSO_FAILURES)[number];

/** A path of the console to land on after signing in: a safe redirect that is not one of the hub's APIs. */
const isConsolePath = (target: string): boolean => isSafeRedirect(target) && !/^\/(hub|v1)([/?#]|$)/.test(target);

/** `GET /hub/v1/oidc/start`: where to land once signed in (the review when absent). */
export const oidcStartQuery = z.strictObject({ redirect: z.string().max(2000).refine(isConsolePath, 'must be a path of the console').optional() });
