import { z } from './contract/zod';
import { hubMeSchema, teamSettingsResponse, teamSubscriptionsSchema, type TeamSettings, type TeamSubscription } from './contract/hub-session';
import { request, type HttpConfig, type RequestSpec } from './http';

/**
 * The team hub's own endpoints the console calls (`/hub/v1/…`, docs/hub.md), on the console's own
 * origin with the session cookie (`credentials: 'same-origin'`): never a key, never Authorization.
 */

export const hubConfig = (baseUrl: string): HttpConfig => ({ baseUrl, credentials: 'same-origin', maxAttempts: 1 });

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
  /** The team's shared settings: the reason codes (any member reads; an admin saves the whole document). */
  settings: (signal?: AbortSignal): Promise<TeamSettings> =>
    request(hubConfig(baseUrl), { method: 'GET', path: '/hub/v1/settings', schema: teamSettingsResponse, signal }),
  saveSettings: (body: Pick<TeamSettings, 'reason_codes'>): Promise<TeamSettings> =>
    request(hubConfig(baseUrl), { method: 'PUT', path: '/hub/v1/settings', body, schema: teamSettingsResponse }),
});

/**
 * One call to the hub serving this console (its own origin, read at call time): the team pages'
 * client, through the same request as every other call (envelope errors, redaction, contract check).
 */
export const hubCall = <S extends z.ZodType>(schema: S, path: string, init: { method?: RequestSpec<S>['method']; body?: unknown } = {}): Promise<z.output<S>> =>
  request(hubConfig(window.location.origin), { method: init.method ?? 'GET', path: `/hub/v1${path}`, body: init.body, schema });
