import { z } from './contract/zod';
import { hubMeSchema, teamSubscriptionsSchema, type TeamSubscription } from './contract/hub';
import { request, type HttpConfig } from './http';

/**
 * The team hub's own endpoints the console calls (`/hub/v1/…`, docs/hub.md), on the console's own
 * origin with the session cookie (`credentials: 'same-origin'`): never a key, never Authorization.
 */

const hubConfig = (baseUrl: string): HttpConfig => ({ baseUrl, credentials: 'same-origin', maxAttempts: 1 });

const signedIn = z.looseObject({ member: hubMeSchema.shape.member });
const ended = z.looseObject({ ended: z.number() });

export const hubApi = (baseUrl: string) => ({
  /** Who is signed in now (a 401 ApiError when nobody is). */
  me: () => request(hubConfig(baseUrl), { method: 'GET', path: '/hub/v1/me', schema: hubMeSchema }).then((r) => r.member),
  signIn: (email: string, password: string) =>
    request(hubConfig(baseUrl), { method: 'POST', path: '/hub/v1/session', body: { email, password }, schema: signedIn }).then((r) => r.member),
  /** This session, or with `everywhere` every session of the member on every device. */
  signOut: (everywhere: boolean) => request(hubConfig(baseUrl), { method: 'DELETE', path: `/hub/v1/session${everywhere ? '?all=true' : ''}`, schema: ended }),
  subscriptions: (signal?: AbortSignal): Promise<TeamSubscription[]> =>
    request(hubConfig(baseUrl), { method: 'GET', path: '/hub/v1/subscriptions', schema: teamSubscriptionsSchema, signal }).then((r) => r.subscriptions),
});
