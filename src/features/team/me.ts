import { queryOptions } from '@tanstack/react-query';
import type { HubMe, HubRole } from '../../api/contract/hub';
import { ApiError, ContractError, NetworkError } from '../../api/errors';

/*
 * Who is signed in to the hub: the one team read made while routing (/team's guard), so it stays
 * small and loads with the first page: a hand check of the answer rather than the contract's zod
 * schemas (which load with the team pages).
 */

/** The hub's roles (the contract's HUB_ROLES), checked here without loading the contract's schemas. */
const ROLES = ['admin', 'reviewer', 'viewer'] as const satisfies readonly HubRole[];

function asMe(body: unknown): HubMe | null {
  const member = (body as { member?: { id?: unknown; email?: unknown; role?: unknown; created_at?: unknown } } | null)?.member;
  if (!member || typeof member.id !== 'string' || typeof member.email !== 'string' || typeof member.created_at !== 'string') return null;
  if (!(ROLES as readonly unknown[]).includes(member.role)) return null;
  const via = (body as { via?: unknown }).via === 'token' ? 'token' : 'session';
  return { member: { id: member.id, email: member.email, role: member.role as HubRole, created_at: member.created_at }, via };
}

/** GET /hub/v1/me on the console's own origin, with the session cookie: the member, or the ApiError (401 = sign in, 404 = no hub). */
async function fetchMe(): Promise<HubMe> {
  let response: Response;
  try {
    response = await fetch('/hub/v1/me', { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  } catch (error) {
    throw new NetworkError(error instanceof Error ? error.message : 'the hub could not be reached', false);
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: not a hub */
  }
  if (!response.ok) {
    const code = (body as { errorCode?: unknown } | null)?.errorCode;
    throw new ApiError(response.status, typeof code === 'string' ? code : null, `HTTP ${response.status}`, text);
  }
  const me = asMe(body);
  if (!me) throw new ContractError('GET /hub/v1/me', 'member', 'not the hub’s answer', text);
  return me;
}

export const meQuery = () => queryOptions({ queryKey: ['hub', 'me'], queryFn: fetchMe, retry: false, staleTime: 30_000 });

/** What /team's guard makes of the answer: the member, sign in first, or no hub here. */
export async function teamGate(ensure: () => Promise<HubMe>): Promise<{ me: HubMe['member'] } | { signIn: true } | { me: null }> {
  try {
    return { me: (await ensure()).member };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return { signIn: true };
    if (error instanceof ApiError || error instanceof NetworkError || error instanceof ContractError) return { me: null };
    throw error;
  }
}
