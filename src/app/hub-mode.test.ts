import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Connection } from '../data';
import { composeHubMode } from './hub-mode';
import { rememberedHubMember, rememberHubMember } from './hub-session-memory';

const member = { id: 'm1', email: 'r@demo.hub', role: 'reviewer' as const };
const subscriptions = [{ id: 'sub_sim_retail', kind: 'simulated' as const, label: 'Retail' }];

/** The connection store as composeHubMode uses it: what it enters. */
function fakeStore() {
  const entered: (Connection | null)[] = [];
  return { entered, store: { enterHub: (c: Connection | null) => void entered.push(c) } as unknown as Parameters<typeof composeHubMode>[0] };
}

/** The origin's answers, by path; `offline` rejects every request as a browser with no network does. */
function answers(byPath: Record<string, [number, unknown]> | 'offline') {
  vi.stubGlobal('fetch', async (input: URL | string) => {
    if (byPath === 'offline') throw new TypeError('Failed to fetch');
    const [status, body] = byPath[new URL(String(input)).pathname] ?? [404, { success: false, errorCode: 'NOT_FOUND', errorMessage: 'no' }];
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
}

afterEach(() => void vi.unstubAllGlobals());

describe('composeHubMode: a start with no answer (offline, the offline app shell)', () => {
  it('opens hub mode for the member last signed in here, with the team’s subscriptions as they were', async () => {
    answers({ '/hub/v1/me': [200, { member }], '/hub/v1/subscriptions': [200, { subscriptions }] });
    await composeHubMode(fakeStore().store);
    expect(rememberedHubMember()).toEqual({ member, subscriptions });

    answers('offline');
    const { entered, store } = fakeStore();
    const mode = await composeHubMode(store);
    expect(mode).toEqual({ origin: window.location.origin, member, forget: expect.any(Function) });
    expect(entered).toHaveLength(1);
    expect(entered[0]).toMatchObject({
      id: 'hub:m1',
      apiKey: '',
      hub: { member },
      subscriptions: [{ id: 'sub_sim_retail', kind: 'simulated', label: 'Retail' }],
    });
    // A sign-out forgets them at once: the next offline start is personal mode.
    mode!.forget!();
    expect(rememberedHubMember()).toBeNull();
    expect(await composeHubMode(fakeStore().store)).toBeNull();
  });

  it('is personal mode, as before, when no member was signed in here (or what was kept is damaged)', async () => {
    answers('offline');
    expect(await composeHubMode(fakeStore().store)).toBeNull();
    window.localStorage.setItem('dds.hub.lastMember', '{"member":{"id":"m1","email":"e","role":"owner"},"subscriptions":[]}');
    expect(await composeHubMode(fakeStore().store)).toBeNull();
  });

  it('forgets the member at a start that finds no session (signed out, expired): an offline start then opens no one’s review', async () => {
    rememberHubMember(member, subscriptions);
    answers({ '/hub/v1/me': [401, { success: false, errorCode: 'NOT_SIGNED_IN', errorMessage: 'sign in' }] });
    expect(await composeHubMode(fakeStore().store)).toEqual({ origin: window.location.origin, member: null });
    expect(rememberedHubMember()).toBeNull();
    answers('offline');
    expect(await composeHubMode(fakeStore().store)).toBeNull();
  });

  it('a hub that cannot list the subscriptions now keeps the ones kept for the same member, never another member’s', async () => {
    answers({ '/hub/v1/me': [200, { member }], '/hub/v1/subscriptions': [200, { subscriptions }] });
    await composeHubMode(fakeStore().store);
    answers({ '/hub/v1/me': [200, { member }] });
    await composeHubMode(fakeStore().store);
    expect(rememberedHubMember()).toEqual({ member, subscriptions });
    const other = { id: 'm2', email: 'o@demo.hub', role: 'viewer' as const };
    answers({ '/hub/v1/me': [200, { member: other }] });
    await composeHubMode(fakeStore().store);
    expect(rememberedHubMember()).toEqual({ member: other, subscriptions: [] });
  });

  it('keeps no secret: the member and the subscriptions, nothing else', async () => {
    answers({ '/hub/v1/me': [200, { member, via: 'session', token: 'hub_secret' }], '/hub/v1/subscriptions': [200, { subscriptions }] });
    await composeHubMode(fakeStore().store);
    const kept = window.localStorage.getItem('dds.hub.lastMember')!;
    expect(JSON.parse(kept)).toEqual({ member, subscriptions });
  });
});
