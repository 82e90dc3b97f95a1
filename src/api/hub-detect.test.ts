import { describe, expect, it } from 'vitest';
import { detectHub } from './hub-detect';

const answer = (status: number, body: string) => async () => new Response(body, { status, headers: { 'Content-Type': 'application/json' } });

describe('detectHub (GET /hub/v1/me on the console’s origin)', () => {
  const origin = 'http://127.0.0.1:8787';
  it('is hub mode, signed in, on 200 with a member', async () => {
    const member = { id: 'm1', email: 'r@demo.hub', role: 'reviewer' };
    expect(await detectHub(origin, answer(200, JSON.stringify({ member, via: 'session' })))).toEqual({ mode: 'hub', member });
  });
  it('is hub mode, to sign in, on 401 NOT_SIGNED_IN', async () => {
    expect(await detectHub(origin, answer(401, '{"success":false,"errorCode":"NOT_SIGNED_IN","errorMessage":"sign in"}'))).toEqual({
      mode: 'hub',
      member: null,
    });
  });
  it('is personal mode on a 404, index.html, another 401 or a bad member', async () => {
    expect(await detectHub(origin, answer(404, '{"success":false,"errorCode":"NOT_FOUND","errorMessage":"no"}'))).toEqual({ mode: 'personal' });
    expect(await detectHub(origin, answer(200, '<!doctype html><div id="root"></div>'))).toEqual({ mode: 'personal' });
    expect(await detectHub(origin, answer(401, '{"success":false,"errorCode":"INVALID_API_KEY","errorMessage":"no"}'))).toEqual({ mode: 'personal' });
    expect(await detectHub(origin, answer(200, '{"member":{"id":"m","email":"e","role":"owner"}}'))).toEqual({ mode: 'personal' });
  });
  it('is unreachable when nothing answers (offline, nothing listening): hub-mode.ts decides then', async () => {
    expect(
      await detectHub(origin, async () => {
        throw new TypeError('Failed to fetch');
      }),
    ).toEqual({ mode: 'unreachable' });
  });
  it('is unreachable on a proxy’s 502, 503 or 504 page (the hub behind it down), not personal mode', async () => {
    for (const status of [502, 503, 504])
      expect(await detectHub(origin, answer(status, '<html>Bad Gateway</html>')), String(status)).toEqual({ mode: 'unreachable' });
  });
});
