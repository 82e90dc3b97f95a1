import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { meQuery, teamGate } from './me';

/** /team's guard over what GET /hub/v1/me answers: a member, sign in, or no hub here. */
function answering(status: number, body: string) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(body, { status })),
  );
}

const gate = () => {
  const client = new QueryClient();
  return teamGate(() => client.ensureQueryData(meQuery()));
};

const MEMBER = { id: 'mem_1', email: 'a@team.test', role: 'viewer', created_at: '2026-01-01T00:00:00.000Z' };

afterEach(() => vi.unstubAllGlobals());

describe('the team guard', () => {
  it('lets a member in with their role', async () => {
    answering(200, JSON.stringify({ member: MEMBER, via: 'session' }));
    expect(await gate()).toEqual({ me: MEMBER });
  });

  it('sends someone signed out to sign in', async () => {
    answering(401, JSON.stringify({ success: false, errorCode: 'NOT_SIGNED_IN', errorMessage: 'sign in first' }));
    expect(await gate()).toEqual({ signIn: true });
  });

  it.each([
    ['a 404 (a console not served by a hub)', 404, JSON.stringify({ success: false, errorCode: 'NOT_FOUND', errorMessage: 'no route' })],
    ['an HTML page', 200, '<!doctype html><title>console</title>'],
    ['a member with an unknown role', 200, JSON.stringify({ member: { ...MEMBER, role: 'owner' } })],
    ['a 502 from a proxy', 502, 'Bad gateway'],
  ])('finds no hub behind %s', async (_, status, body) => {
    answering(status, body);
    expect(await gate()).toEqual({ me: null });
  });

  it('finds no hub when the network fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    expect(await gate()).toEqual({ me: null });
  });

  it('sends the session cookie and no Authorization header', async () => {
    answering(200, JSON.stringify({ member: MEMBER, via: 'session' }));
    await gate();
    const [url, init] = vi.mocked(fetch).mock.calls[0]!;
    expect(url).toBe('/hub/v1/me');
    expect(init).toMatchObject({ credentials: 'same-origin' });
    expect(new Headers(init?.headers).has('Authorization')).toBe(false);
  });
});
