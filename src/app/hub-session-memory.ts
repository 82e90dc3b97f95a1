import { memberOf } from '../api/hub-detect';
import type { SignedInMember, TeamSubscription } from '../api/contract/hub';
import type { Connection } from '../data';
import { hubConnection } from '../data/hub-connection';

/**
 * The last member signed in to the hub on this browser, with the team's subscriptions: what lets
 * a console opened while the hub cannot be reached (offline: a reload, a new tab, through the
 * offline app shell) open that member's review on what the browser's store holds, rather than
 * fall back to personal mode's connect form. No secret: the session cookie stays the browser's
 * (HttpOnly); this names whose store to show. Written at each signed-in start, cleared at a start
 * that finds no session (after a sign-out, an expired session), so it never outlives the session by
 * more than the offline spell in which it is needed. Loaded only in hub mode or with no network, not
 * on every first page.
 */
const KEY = 'dds.hub.lastMember';

interface Remembered {
  member: SignedInMember;
  subscriptions: TeamSubscription[];
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: offline starts fall back to personal mode, as before
  }
}

/** `subscriptions` null: the hub could not list them now; the ones kept for this member stay (another member's never do). */
export function rememberHubMember(member: SignedInMember, subscriptions: readonly TeamSubscription[] | null): void {
  const kept = subscriptions ?? (rememberedHubMember()?.member.id === member.id ? rememberedHubMember()!.subscriptions : []);
  try {
    storage()?.setItem(KEY, JSON.stringify({ member, subscriptions: kept }));
  } catch {
    // Storage full: an offline start will not find the member, the online one is unaffected.
  }
}

export function forgetHubMember(): void {
  storage()?.removeItem(KEY);
}

const KINDS: readonly string[] = ['live', 'simulated'];

/** Checked by hand, as the member of `/hub/v1/me` is (hub-detect.ts): what an earlier page, perhaps an older build, wrote. */
function subscriptionOf(entry: unknown): TeamSubscription | null {
  const s = entry as Partial<TeamSubscription> | null;
  if (!s || typeof s.id !== 'string' || !s.id || !KINDS.includes(s.kind as string)) return null;
  return { id: s.id, kind: s.kind!, ...(typeof s.label === 'string' && s.label ? { label: s.label } : {}) };
}

/** The member remembered, or null (none, or damaged: then the console starts as if never signed in here). */
export function rememberedHubMember(): Remembered | null {
  try {
    const parsed = JSON.parse(storage()?.getItem(KEY) ?? 'null') as { member?: unknown; subscriptions?: unknown } | null;
    const member = memberOf(parsed);
    if (!member || !Array.isArray(parsed?.subscriptions)) return null;
    return { member, subscriptions: parsed.subscriptions.flatMap((s) => subscriptionOf(s) ?? []) };
  } catch {
    return null;
  }
}

/** The connection of the member remembered, made as a signed-in start makes it; null when none is. */
export function rememberedConnection(origin: string): Connection | null {
  const remembered = rememberedHubMember();
  return remembered ? hubConnection(origin, remembered.member, remembered.subscriptions) : null;
}
