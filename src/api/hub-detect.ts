import type { SignedInMember } from './contract/hub';

/**
 * What the console's origin is: a hub (signed in, or not yet), not a hub at all (personal mode), or
 * not known because nothing answered (offline, or the server is down: src/app/hub-mode.ts decides).
 */
export type HubDetection = { mode: 'personal' } | { mode: 'hub'; member: SignedInMember | null } | { mode: 'unreachable' };

const ROLES: readonly string[] = ['admin', 'reviewer', 'viewer'];

/** The member of a `GET /hub/v1/me` answer, checked by hand: this runs on every first page, where zod's schemas would cost their bytes. */
export function memberOf(body: unknown): SignedInMember | null {
  const member = (body as { member?: unknown } | null)?.member as Partial<SignedInMember> | undefined;
  if (!member || typeof member.id !== 'string' || !member.id || typeof member.email !== 'string' || !ROLES.includes(member.role as string)) return null;
  return { id: member.id, email: member.email, role: member.role! };
}

/**
 * `GET /hub/v1/me` on the console's origin, once at start (docs/hub.md, "The console"): 200 → a
 * hub, signed in; 401 NOT_SIGNED_IN → a hub, sign in first; no answer at all (the request failed:
 * offline, nothing listening) or a proxy's 502/503/504 → unreachable; any other answer (404, index.html from a static host or
 * the simulator, non-JSON) → personal mode, as before hubs existed.
 */
export async function detectHub(baseUrl: string, fetcher: typeof fetch = globalThis.fetch.bind(globalThis)): Promise<HubDetection> {
  let response: Response;
  try {
    response = await fetcher(new URL('/hub/v1/me', baseUrl), { credentials: 'same-origin', cache: 'no-store', referrerPolicy: 'no-referrer' });
  } catch {
    return { mode: 'unreachable' };
  }
  // A proxy's own answer for a hub it cannot reach: as offline, not personal mode.
  if (response.status === 502 || response.status === 503 || response.status === 504) return { mode: 'unreachable' };
  try {
    const body: unknown = await response.json();
    if (response.status === 200) {
      const member = memberOf(body);
      return member ? { mode: 'hub', member } : { mode: 'personal' };
    }
    if (response.status === 401 && (body as { errorCode?: unknown } | null)?.errorCode === 'NOT_SIGNED_IN') return { mode: 'hub', member: null };
    return { mode: 'personal' };
  } catch {
    return { mode: 'personal' };
  }
}
