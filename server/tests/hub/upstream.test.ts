import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestHub, type TestHub } from './hub-harness';

/*
 * The hub's side of the exchange with a vendor that misbehaves: an upstream that echoes the
 * request's headers (the key with them) and sets headers of its own; one that is down; none at all.
 */

const KEY = `dds_live_sk_${'E'.repeat(32)}`;

interface Echo {
  server: Server;
  url: string;
  received: { method: string; url: string; headers: IncomingHttpHeaders }[];
}

async function echoUpstream(): Promise<Echo> {
  const received: Echo['received'] = [];
  const server = createServer((request, response) => {
    received.push({ method: request.method!, url: request.url!, headers: request.headers });
    response.writeHead(request.url!.startsWith('/v1/html') ? 502 : 200, {
      'Content-Type': request.url!.startsWith('/v1/html') ? 'text/html' : 'application/json',
      'Set-Cookie': 'vendor_session=abc',
      'X-Api-Key': request.headers.authorization ?? '',
      'X-RateLimit-Remaining': '41',
    });
    response.end(request.url!.startsWith('/v1/html') ? '<html>bad gateway</html>' : JSON.stringify({ echoed: request.headers.authorization }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  return { server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, received };
}

describe.each(ENGINES)('hub /v1 upstream handling on %s', (engine) => {
  let echo: Echo;
  let t: TestHub;
  let down: TestHub;
  let none: TestHub;
  beforeAll(async () => {
    echo = await echoUpstream();
    t = await startTestHub(engine, { upstream: echo.url });
    // A port that was free a moment ago: nothing listens there.
    const closed = await echoUpstream();
    await new Promise((done) => closed.server.close(done));
    down = await startTestHub(engine, { upstream: closed.url });
    none = await startTestHub(engine);
  });
  afterAll(async () => {
    await Promise.all([t?.close(), down?.close(), none?.close()]);
    echo?.server.close();
  });

  const addKey = async (hub: TestHub, subscriptions: string[]) => {
    const admin = await hub.signIn(hub.accounts.admin);
    const added = await hub.call('POST', '/hub/v1/vendor-keys', { cookie: admin, body: { name: 'vendor', key: KEY, subscriptions } });
    expect(added.status).toBe(201);
    return admin;
  };

  it('sends only the vendor key, never the member’s cookie or token, and hands back no vendor header or echo of the key', async () => {
    const admin = await addKey(t, ['*']);
    const token = (await t.call('POST', '/hub/v1/tokens', { cookie: admin, body: { name: 'script', scope: 'read', subscriptions: ['*'], expires_in_days: 1 } }))
      .body.token as string;
    for (const as of [{ cookie: admin }, { token, origin: null }]) {
      const answer = await t.call('GET', '/v1/data/pull?subscription_id=sub_x&limit=1', { ...as, headers: { 'X-Forwarded-For': '10.0.0.1' } });
      expect(answer.status).toBe(200);
      const sent = echo.received.at(-1)!;
      expect(sent.url).toBe('/v1/data/pull?subscription_id=sub_x&limit=1');
      expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(sent.headers.cookie).toBeUndefined();
      expect(sent.headers['x-forwarded-for']).toBeUndefined();
      expect(JSON.stringify(sent.headers)).not.toContain(token);
      expect(JSON.stringify(sent.headers)).not.toContain(admin.split('=')[1]);
      expect(answer.body).toEqual({ echoed: 'Bearer [vendor key]' });
      expect(answer.headers.get('x-ratelimit-remaining')).toBe('41');
      expect(answer.headers.get('x-api-key')).toBeNull();
      expect(answer.headers.getSetCookie()).toEqual([]);
      expect(answer.text + JSON.stringify([...answer.headers])).not.toContain(KEY);
    }
    const html = await t.call('GET', '/v1/html', { cookie: admin });
    expect(html.status).toBe(502);
    expect(html.body.errorCode).toBe('UPSTREAM_BAD_RESPONSE');
    expect(t.logs.join('\n')).not.toContain(KEY);
  });

  it('an upstream that is down is a 502 envelope, not a stack; no vendor key is a clear 404; no upstream a 503', async () => {
    const admin = await addKey(down, ['sub_a']);
    const unreachable = await down.call('GET', '/v1/data/pull?subscription_id=sub_a', { cookie: admin });
    expect(unreachable.status).toBe(502);
    expect(unreachable.body).toMatchObject({ success: false, errorCode: 'UPSTREAM_UNREACHABLE' });
    expect(unreachable.body.errorMessage).toMatch(/cannot be reached/);
    expect(unreachable.text).not.toMatch(/\bat \w+ \(/);
    const uncovered = await down.call('GET', '/v1/data/pull?subscription_id=sub_b', { cookie: admin });
    expect(uncovered.status).toBe(404);
    expect(uncovered.body).toMatchObject({ errorCode: 'NO_VENDOR_KEY', errorMessage: expect.stringMatching(/no vendor key for subscription sub_b/) });
    const noUpstream = await none.call('GET', '/v1/data/pull?subscription_id=sub_a', { cookie: await none.signIn(none.accounts.viewer) });
    expect(noUpstream.status).toBe(503);
    expect(noUpstream.body.errorCode).toBe('NO_UPSTREAM');
  });
});
