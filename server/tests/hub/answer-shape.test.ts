import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../../src/api/contract';
import { ENGINES, startTestHub, type TestHub } from './hub-harness';
import { holdVendorKey, pullItems, startVendor, type Vendor } from './decisions-kit';

/*
 * How the hub's answers leave and its requests' bodies are limited, on the path of every request
 * (issue 25's added latency). An answer goes out whole, its length declared: a header set after
 * the handler (the security headers, no-store) once made Hono copy it and stream the copy out in
 * chunks. A body's limit is judged by its declared length, or by reading a chunked one.
 */
describe.each(ENGINES)('the hub’s answers and request bodies on %s', (engine) => {
  let vendor: Vendor;
  let t: TestHub;
  let reviewer = '';
  let admin = '';

  beforeAll(async () => {
    vendor = await startVendor();
    t = await startTestHub(engine, { upstream: vendor.url });
    admin = await t.signIn(t.accounts.admin);
    await holdVendorKey(t, admin, vendor.credentials);
    reviewer = await t.signIn(t.accounts.reviewer1);
  });
  afterAll(async () => {
    await t?.close();
    await vendor?.close();
  });

  it('go out whole, with their length, the security headers and no-store: own, forwarded, decided and refused alike', async () => {
    const [item] = await pullItems(t, reviewer, 'sub_sim_retail', 1);
    const answers = {
      me: await t.call('GET', '/hub/v1/me', { cookie: reviewer }),
      pull: await t.call('GET', '/v1/data/pull?subscription_id=sub_sim_retail&limit=3', { cookie: reviewer }),
      adopt: await t.call('POST', `/v1/data/items/${item!.id}/adopt`, { cookie: reviewer }),
      notSignedIn: await t.call('GET', '/hub/v1/me'),
      noRoute: await t.call('GET', '/hub/v1/nowhere', { cookie: reviewer }),
    };
    const shapes = Object.fromEntries(
      Object.entries(answers).map(([name, a]) => [
        name,
        {
          status: a.status,
          length: a.headers.get('content-length'),
          chunked: a.headers.get('transfer-encoding'),
          frame: a.headers.get('x-frame-options'),
          cache: a.headers.get('cache-control'),
        },
      ]),
    );
    const whole = (status: number, text: string) => ({ status, length: String(Buffer.byteLength(text)), chunked: null, frame: 'DENY', cache: 'no-store' });
    expect(shapes).toEqual({
      me: whole(200, answers.me.text),
      pull: whole(200, answers.pull.text),
      adopt: whole(200, answers.adopt.text),
      notSignedIn: whole(401, answers.notSignedIn.text),
      noRoute: whole(404, answers.noRoute.text),
    });
    expect(answers.adopt.body).toMatchObject({ ok: true, item_id: item!.id, hub: { state: 'sent' } });
  });

  /** A PUT of the team's subscriptions with `body` sent in chunks, no length declared. */
  const chunked = (body: string) =>
    new Promise<{ status: number; body: { errorCode?: string } }>((resolve, reject) => {
      const sent = request(
        `${t.url}/hub/v1/subscriptions`,
        { method: 'PUT', headers: { Cookie: admin, Origin: t.url, 'Content-Type': 'application/json' } },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as { errorCode?: string } }));
        },
      );
      sent.on('error', reject);
      const half = Math.floor(body.length / 2);
      sent.write(body.slice(0, half));
      sent.end(body.slice(half));
    });

  it('are limited by their declared length, or by what is read of a chunked one', async () => {
    const over = JSON.stringify({ subscriptions: [{ id: 'sub_sim_retail', kind: 'simulated', label: 'x'.repeat(MAX_BODY_BYTES) }] });
    const declared = await t.call('PUT', '/hub/v1/subscriptions', { cookie: admin, body: over });
    expect([declared.status, declared.body.errorCode]).toEqual([413, 'BODY_TOO_LARGE']);
    const streamed = await chunked(over);
    expect([streamed.status, streamed.body.errorCode]).toEqual([413, 'BODY_TOO_LARGE']);
    // Under the limit, a chunked body is read whole.
    const fits = await chunked(JSON.stringify({ subscriptions: [{ id: 'sub_sim_retail', kind: 'simulated', label: 'Retail' }] }));
    expect(fits).toEqual({ status: 200, body: { subscriptions: [{ id: 'sub_sim_retail', kind: 'simulated', label: 'Retail' }] } });
    expect((await t.call('GET', '/hub/v1/subscriptions', { cookie: reviewer })).body.subscriptions).toHaveLength(1);
  });
});
