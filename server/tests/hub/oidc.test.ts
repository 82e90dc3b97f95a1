import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, TEST_OIDC_CLIENT, type TestProvider } from '../oidc-provider';
import { DEFAULT_THROTTLE } from '../../hub/store/throttle';
import { cookieOf, ENGINES, startTestHub, type TestHub } from './hub-harness';

/*
 * Single sign-on against a real OpenID Connect provider (oidc-provider on loopback, its development
 * login), driven as a browser goes: the hub's start, the provider's login and consent pages, the
 * callback, then the console with a session. Cookies are kept per origin and sent as a browser
 * would, so the flow's cookie and the session cookie are what the hub really set.
 */

type Jar = Map<string, Map<string, string>>;

/** Keeps what Set-Cookie says for an origin (a Max-Age=0 removes), as a browser's jar does. */
function keep(jar: Jar, url: string, headers: Headers) {
  const origin = new URL(url).origin;
  const cookies = jar.get(origin) ?? jar.set(origin, new Map()).get(origin)!;
  for (const line of headers.getSetCookie()) {
    const [pair] = line.split(';');
    const at = pair!.indexOf('=');
    const [name, value] = [pair!.slice(0, at).trim(), pair!.slice(at + 1)];
    if (/max-age=0|expires=thu, 01 jan 1970/i.test(line)) cookies.delete(name);
    else cookies.set(name, value);
  }
}

async function visit(jar: Jar, url: string, init: { method?: string; form?: Record<string, string> } = {}) {
  const cookies = jar.get(new URL(url).origin);
  const headers: Record<string, string> = {};
  if (cookies?.size) headers.Cookie = [...cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  let body: string | undefined;
  if (init.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  const response = await fetch(url, { method: init.method ?? 'GET', headers, body, redirect: 'manual' });
  keep(jar, url, response.headers);
  const location = response.headers.get('location');
  return { response, location: location ? new URL(location, url).href : null, text: await response.text() };
}

/** Follows redirects from `url` until one leaves the provider (to the hub's callback) or a page answers. */
async function follow(jar: Jar, url: string, stopAt: string) {
  let at = url;
  for (let hops = 0; hops < 10; hops++) {
    const step = await visit(jar, at);
    if (!step.location) return { url: at, page: step.text };
    if (step.location.startsWith(stopAt)) return { url: step.location, page: null };
    at = step.location;
  }
  throw new Error(`too many redirects from ${url}`);
}

/** The provider's development login (any password) and its consent, as a person fills them; the URL it sends the browser back to. */
async function atProvider(jar: Jar, authorizeUrl: string, hubUrl: string, login: string): Promise<string> {
  const loginPage = await follow(jar, authorizeUrl, hubUrl);
  expect(loginPage.page).toContain('name="login"');
  const submitted = await visit(jar, loginPage.url, { method: 'POST', form: { prompt: 'login', login, password: 'any' } });
  const consent = await follow(jar, submitted.location!, hubUrl);
  if (consent.page === null) return consent.url;
  expect(consent.page).toContain('value="consent"');
  const agreed = await visit(jar, consent.url, { method: 'POST', form: { prompt: 'consent' } });
  const back = await follow(jar, agreed.location!, hubUrl);
  expect(back.page).toBeNull();
  return back.url;
}

describe.each(ENGINES)('single sign-on (OpenID Connect) on %s', (engine) => {
  let provider: TestProvider;
  let t: TestHub;
  let callback = '';

  beforeAll(async () => {
    provider = await startOidcProvider();
    // A few sign-ins that match no member lock the address (the last test), and a provider that hangs is given up on in 1 s.
    t = await startTestHub(engine, {
      oidc: { issuer: provider.issuer, ...TEST_OIDC_CLIENT, label: 'Test SSO', timeoutSeconds: 1 },
      throttle: { ...DEFAULT_THROTTLE, perAddress: 4 },
    });
    callback = `${t.url}/hub/v1/oidc/callback`;
    provider.serve([callback]);
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  /** The hub's start for `redirect`: its redirect to the provider, and the flow's cookie in the jar (with the jar's session, if any: a same-site navigation). */
  const start = async (jar: Jar, redirect = '/team/audit') => {
    const started = await visit(jar, `${t.url}/hub/v1/oidc/start?redirect=${encodeURIComponent(redirect)}`);
    expect(started.response.status).toBe(302);
    return { started, authorize: started.location! };
  };

  it('offers the provider on the sign-in page', async () => {
    const answer = await t.call('GET', '/hub/v1/sign-in-methods', { origin: null });
    expect(answer.body).toEqual({ password: true, sso: { label: 'Test SSO', start: '/hub/v1/oidc/start' } });
  });

  it('signs in the member whose verified email the provider vouches for, lands where they were going, and audits it', async () => {
    const jar: Jar = new Map();
    const { started, authorize } = await start(jar);
    // The code flow with PKCE, a state and a nonce, back to the hub's own callback.
    const asked = new URL(authorize);
    expect(asked.origin).toBe(provider.issuer);
    expect(Object.fromEntries(asked.searchParams)).toMatchObject({
      client_id: TEST_OIDC_CLIENT.clientId,
      redirect_uri: callback,
      response_type: 'code',
      scope: 'openid email',
      code_challenge_method: 'S256',
    });
    expect(asked.searchParams.get('state')).toMatch(/^.{20,}$/);
    expect(asked.searchParams.get('nonce')).toMatch(/^.{20,}$/);
    // The flow's state rides in a cookie only the callback's path sees, sealed (no verifier in clear).
    const flowCookie = started.response.headers.getSetCookie().find((c) => c.startsWith('ddh_oidc_flow='))!;
    expect(flowCookie).toMatch(/HttpOnly/i);
    expect(flowCookie).toMatch(/SameSite=Lax/i);
    expect(flowCookie).toMatch(/Path=\/hub\/v1\/oidc/i);

    const back = await atProvider(jar, authorize, callback, t.accounts.reviewer2.email);
    expect(back.startsWith(`${callback}?`)).toBe(true);
    const landed = await visit(jar, back);
    expect(landed.response.status).toBe(303);
    expect(landed.location).toBe(`${t.url}/team/audit`);
    const session = cookieOf(landed.response.headers)!;
    expect(landed.response.headers.getSetCookie().find((c) => c.startsWith('ddh_session='))).toMatch(/HttpOnly.*SameSite=Strict|SameSite=Strict.*HttpOnly/i);
    const me = await t.call('GET', '/hub/v1/me', { cookie: session });
    expect(me.body.member).toMatchObject({ email: t.accounts.reviewer2.email, role: 'reviewer' });

    const admin = await t.signIn(t.accounts.admin);
    const audit = await t.call('GET', '/hub/v1/audit?action=session.sign_in&limit=500', { cookie: admin });
    const row = (audit.body.rows as { via: string; target: string; outcome: string; actor_id: string }[]).findLast((r) => r.via === 'oidc');
    expect(row).toMatchObject({ target: t.accounts.reviewer2.email, outcome: 'ok', actor_id: me.body.member.id });

    // The flow is spent: its callback again (a replayed URL) signs nobody in.
    const replay = await visit(jar, back);
    expect(replay.location).toBe(`${t.url}/sign-in?sso=expired`);
    expect(cookieOf(replay.response.headers)).toBeUndefined();
  });

  it.each([
    ['nobody@elsewhere.example', 'no_member'],
    ['unverified.admin@demo.hub', 'email_not_verified'],
    ['no-address-at-all', 'no_email'],
  ])('refuses %s (%s) with no session', async (login, failure) => {
    const jar: Jar = new Map();
    const { authorize } = await start(jar);
    const landed = await visit(jar, await atProvider(jar, authorize, callback, login));
    expect(landed.location).toBe(`${t.url}/sign-in?sso=${failure}`);
    expect(cookieOf(landed.response.headers)).toBeUndefined();
  });

  it('refuses an answer that belongs to another browser’s sign-in, or comes with no flow or a forged one', async () => {
    // Alice's code and state, delivered to Mallory's browser (login CSRF): Mallory's flow does not match.
    const alice: Jar = new Map();
    const mallory: Jar = new Map();
    const aliceBack = await atProvider(alice, (await start(alice)).authorize, callback, t.accounts.reviewer1.email);
    await start(mallory);
    const crossed = await visit(mallory, aliceBack);
    expect(crossed.location).toBe(`${t.url}/sign-in?sso=invalid`);
    expect(cookieOf(crossed.response.headers)).toBeUndefined();

    const bare = await visit(new Map(), aliceBack);
    expect(bare.location).toBe(`${t.url}/sign-in?sso=expired`);

    const forged: Jar = new Map([[new URL(t.url).origin, new Map([['ddh_oidc_flow', 'v1.0000.forged']])]]);
    expect((await visit(forged, aliceBack)).location).toBe(`${t.url}/sign-in?sso=invalid`);
  });

  it('says so when the person declines at the provider', async () => {
    const jar: Jar = new Map();
    const loginPage = await follow(jar, (await start(jar)).authorize, callback);
    const aborted = await follow(jar, `${loginPage.url}/abort`, callback);
    const landed = await visit(jar, aborted.url);
    expect(landed.location).toBe(`${t.url}/sign-in?sso=denied`);
  });

  it('signs in a removed member no more, and ends the session a browser came with (fixation)', async () => {
    const admin = await t.signIn(t.accounts.admin);
    const added = await t.call('POST', '/hub/v1/members', { cookie: admin, body: { email: 'leaver@demo.hub', role: 'viewer', password: 'leaver-password-1' } });
    await t.call('DELETE', `/hub/v1/members/${added.body.member.id}`, { cookie: admin });
    const jar: Jar = new Map();
    expect((await visit(jar, await atProvider(jar, (await start(jar)).authorize, callback, 'leaver@demo.hub'))).location).toBe(
      `${t.url}/sign-in?sso=no_member`,
    );

    // The session the browser had when it started (a same-site navigation sends the Strict cookie) is
    // not the one it ends with, and it ends: the callback comes from the provider's site, which sends
    // no Strict cookie, so the hub must remember it from the start.
    const planted = await t.signIn(t.accounts.viewer);
    const [name, value] = [planted.split('=')[0]!, planted.split('=')[1]!];
    const victim: Jar = new Map([[new URL(t.url).origin, new Map([[name, value]])]]);
    const { authorize } = await start(victim);
    const back = await atProvider(victim, authorize, callback, t.accounts.reviewer1.email);
    victim.get(new URL(t.url).origin)!.delete(name);
    const landed = await visit(victim, back);
    expect(landed.response.status).toBe(303);
    expect(cookieOf(landed.response.headers)).not.toBe(planted);
    expect((await t.call('GET', '/hub/v1/me', { cookie: planted })).status).toBe(401);
  });

  it('refuses an ID token the provider did not sign, whatever address it names', async () => {
    provider.forgeIdTokens(t.accounts.admin.email);
    try {
      const jar: Jar = new Map();
      const landed = await visit(jar, await atProvider(jar, (await start(jar)).authorize, callback, t.accounts.viewer.email));
      expect(landed.location).toBe(`${t.url}/sign-in?sso=invalid`);
      expect(cookieOf(landed.response.headers)).toBeUndefined();
    } finally {
      provider.forgeIdTokens(null);
    }
  });

  it.each([
    // K here is the Kelvin sign (U+212A), which lowercases to an ASCII k: another mailbox than kate@.
    ['an address only Unicode case mapping makes a member’s', '\u212aate@demo.hub'],
    ['an address longer than 254 characters', `${'a'.repeat(250)}@demo.hub`],
  ])('refuses %s', async (_what, login) => {
    const admin = await t.signIn(t.accounts.admin);
    await t.call('POST', '/hub/v1/members', { cookie: admin, body: { email: 'kate@demo.hub', role: 'admin', password: 'kate-password-12' } });
    expect('\u212aate@demo.hub'.toLowerCase()).toBe('kate@demo.hub');
    const jar: Jar = new Map();
    const landed = await visit(jar, await atProvider(jar, (await start(jar)).authorize, callback, login));
    expect(landed.location).toBe(`${t.url}/sign-in?sso=invalid`);
    expect(cookieOf(landed.response.headers)).toBeUndefined();
  });

  it('gives up on a provider that does not answer, and says it did not answer', async () => {
    provider.hang('/token');
    try {
      const jar: Jar = new Map();
      const landed = await visit(jar, await atProvider(jar, (await start(jar)).authorize, callback, t.accounts.viewer.email));
      expect(landed.location).toBe(`${t.url}/sign-in?sso=unavailable`);
    } finally {
      provider.hang(null);
    }
  });

  it('takes only a path of the console to return to', async () => {
    // DEL (and any byte a Location header cannot carry) too: it reached the header once, a 500 after the session was made.
    for (const redirect of ['//evil.example/x', 'https://evil.example/', '/hub/v1/members', '/v1/data/pull', '/\\evil.example', '/review\u007f', '/review/é']) {
      const answer = await t.call('GET', `/hub/v1/oidc/start?redirect=${encodeURIComponent(redirect)}`, { origin: null });
      expect(answer.status, redirect).toBe(400);
      expect(answer.body).toMatchObject({ success: false, errorCode: 'INVALID_PARAMETER' });
    }
  });

  // Last: it locks this address. Sign-ins that match no member count as failed sign-ins, as wrong passwords do.
  it('slows an address whose sign-ins keep matching no member, then refuses even a member from it', async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 6 && outcomes.at(-1) !== `${t.url}/sign-in?sso=throttled`; i++) {
      const jar: Jar = new Map();
      outcomes.push((await visit(jar, await atProvider(jar, (await start(jar)).authorize, callback, `stranger${i}@elsewhere.example`))).location!);
    }
    expect(outcomes.at(-1)).toBe(`${t.url}/sign-in?sso=throttled`);
    expect(outcomes.slice(0, -1).every((o) => o.endsWith('sso=no_member'))).toBe(true);
    const jar: Jar = new Map();
    const member = await visit(jar, await atProvider(jar, (await start(jar)).authorize, callback, t.accounts.reviewer1.email));
    expect(member.location).toBe(`${t.url}/sign-in?sso=throttled`);
    expect(cookieOf(member.response.headers)).toBeUndefined();
  });
});

describe('single sign-on, not set up or unreachable', () => {
  let plain: TestHub;
  let unreachable: TestHub;
  beforeAll(async () => {
    plain = await startTestHub('sqlite');
    // A provider that took its port and never answers: the hub says so, and keeps serving.
    const gone = await startOidcProvider();
    await gone.close();
    unreachable = await startTestHub('sqlite', { oidc: { issuer: gone.issuer, ...TEST_OIDC_CLIENT } });
  });
  afterAll(async () => {
    await plain?.close();
    await unreachable?.close();
  });

  it('offers no provider and answers its paths 404 when none is set up', async () => {
    expect((await plain.call('GET', '/hub/v1/sign-in-methods', { origin: null })).body).toEqual({ password: true, sso: null });
    for (const path of ['/hub/v1/oidc/start', '/hub/v1/oidc/callback?code=x&state=y']) {
      const answer = await plain.call('GET', path, { origin: null });
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ success: false, errorCode: 'NOT_FOUND' });
    }
  });

  it('sends the browser back to the sign-in page when the provider does not answer', async () => {
    const answer = await fetch(`${unreachable.url}/hub/v1/oidc/start`, { redirect: 'manual' });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/sign-in?sso=unavailable');
    expect((await unreachable.call('GET', '/hub/v1/me', { origin: null })).status).toBe(401);
  });
});

describe('npm run hub’s single sign-on flags', () => {
  const TSX = new URL('../../../node_modules/.bin/tsx', import.meta.url).pathname;
  const CLI = new URL('../../cli/hub.ts', import.meta.url).pathname;
  const refused = (args: string[]) =>
    spawnSync(TSX, [CLI, '--port', '0', '--data', join(tmpdir(), 'hub-oidc-flags-never-made'), ...args], { encoding: 'utf8' });

  it.each([
    [['--oidc-client-id', 'hub'], '--oidc-client-id needs --oidc-issuer'],
    [['--oidc-issuer', 'https://id.example'], '--oidc-client-id is required'],
    [['--oidc-issuer', 'http://id.example', '--oidc-client-id', 'hub'], 'https URL (http only on a loopback address)'],
    [
      ['--oidc-issuer', 'https://id.example', '--oidc-client-id', 'hub', '--oidc-redirect-uri', 'https://hub.example/elsewhere'],
      'must end in /hub/v1/oidc/callback',
    ],
  ])('refuses %j before starting, with a usage line', (args, message) => {
    const run = refused(args);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(message);
    expect(existsSync(join(tmpdir(), 'hub-oidc-flags-never-made'))).toBe(false);
  });
});
