import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentialsSchema, usdToMicros, type DemoCredentials } from '../../../src/api/contract';
import { eventually } from './decisions-kit';
import { ENGINES, startTestHub, type CallOptions, type TestHub } from './hub-harness';

/*
 * /v1 through the hub, against a real simulator started in this process as its upstream: the
 * hub's roles, token scopes and subscriptions decide what reaches the vendor; the vendor's own
 * records (asked directly with its key) show what did.
 */

describe.each(ENGINES)('hub /v1 forwarding on %s', (engine) => {
  let t: TestHub;
  let vendor: DemoCredentials;
  let reviewer = '';
  let admin = '';
  /** Every hub answer in this suite, body and headers: none may carry the vendor key or JWT. */
  const seen: string[] = [];
  const call = async (method: string, path: string, options: CallOptions = {}) => {
    const answer = await t.call(method, path, options);
    seen.push(`${answer.text}\n${JSON.stringify([...answer.headers])}`);
    return answer;
  };
  /** The simulator asked directly, with the vendor key: what it recorded. */
  const atVendor = async (path: string) => {
    const response = await fetch(`${t.hub.simulator!.url}${path}`, { headers: { Authorization: `Bearer ${vendor.api_key}` } });
    return (await response.json()) as { data: Record<string, unknown>[] };
  };
  const vendorStatus = async (itemId: string) => {
    for (const delivery of (await atVendor('/v1/data/deliveries?limit=100')).data) {
      const item = (await atVendor(`/v1/data/deliveries/${delivery.delivery_id as string}/items`)).data.find((i) => i.id === itemId);
      if (item) return item.status;
    }
    return undefined;
  };
  const pull = (subscription: string, as: CallOptions) => call('GET', `/v1/data/pull?subscription_id=${subscription}&limit=3`, as);
  const makeToken = async (cookie: string, scope: 'read' | 'decide', subscriptions: string[]) =>
    (await call('POST', '/hub/v1/tokens', { cookie, body: { name: 'script', scope, subscriptions, expires_in_days: 1 } })).body.token as string;
  const auditRows = async () => (await t.hub.store.db.selectFrom('audit').selectAll().orderBy('seq').execute()) as Record<string, unknown>[];

  beforeAll(async () => {
    t = await startTestHub(engine, { simulator: true });
    vendor = demoCredentialsSchema.parse(JSON.parse(readFileSync(t.hub.simulator!.credentialsFile, 'utf8')));
    reviewer = await t.signIn(t.accounts.reviewer1);
    admin = await t.signIn(t.accounts.admin);
  });
  afterAll(() => t?.close());

  it('a reviewer pulls and adopts through the hub; the simulator records the adopt, the audit names the reviewer, item and price', async () => {
    const pulled = await pull('sub_sim_retail', { cookie: reviewer });
    expect(pulled.status).toBe(200);
    expect(pulled.body.count).toBeGreaterThan(0);
    const item = pulled.body.data[0] as { id: string; unit_price_usd: number };
    expect(await vendorStatus(item.id)).toBe('pending');

    const adopted = await call('POST', `/v1/data/items/${item.id}/adopt`, { cookie: reviewer });
    expect(adopted.status).toBe(200);
    expect(adopted.body).toEqual({ ok: true, item_id: item.id, status: 'adopted', hub: { state: 'sent', decision_id: expect.any(String) } });
    expect(await vendorStatus(item.id)).toBe('adopted');

    // The vendor's answer is recorded just after the browser has it.
    await eventually(async () => (await auditRows()).some((r) => r.action === 'decision.send' && r.item_id === item.id));
    const rows = await auditRows();
    const me = (await call('GET', '/hub/v1/me', { cookie: reviewer })).body.member.id;
    expect(rows.find((r) => r.action === 'v1.pull' && r.actor_id === me)).toMatchObject({
      subscription_id: 'sub_sim_retail',
      outcome: 'ok',
      details: JSON.stringify({ count: pulled.body.count, status: 200 }),
    });
    expect(rows.find((r) => r.action === 'v1.adopt' && r.item_id === item.id)).toMatchObject({
      actor_id: me,
      via: 'session',
      subscription_id: 'sub_sim_retail',
      amount_micros: usdToMicros(item.unit_price_usd),
      outcome: 'accepted',
    });
    // A dispute after the adopt is refused by the hub, which holds the team's decision, and recorded as such.
    const again = await call('POST', `/v1/data/items/${item.id}/dispute`, { cookie: reviewer });
    expect(again.status).toBe(409);
    expect(again.body.errorCode).toBe('ALREADY_DECIDED');
    expect((await auditRows()).filter((r) => r.item_id === item.id).map((r) => `${r.action as string} ${r.outcome as string}`)).toEqual([
      'v1.adopt accepted',
      'decision.send ok',
      'v1.dispute ALREADY_DECIDED',
    ]);
  });

  it('a viewer reads but cannot adopt, and nothing of the refused adopt reaches the simulator', async () => {
    const viewer = await t.signIn(t.accounts.viewer);
    const pulled = await pull('sub_sim_support', { cookie: viewer });
    expect(pulled.status).toBe(200);
    const itemId = pulled.body.data[0].id as string;
    const refused = await call('POST', `/v1/data/items/${itemId}/adopt`, { cookie: viewer });
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe('FORBIDDEN');
    expect(await vendorStatus(itemId)).toBe('pending');
    expect((await auditRows()).find((r) => r.item_id === itemId)).toMatchObject({ action: 'v1.adopt', outcome: 'FORBIDDEN' });
  });

  it('a viewer and a read token cannot pull new live items: the team’s position stays; re-reads and the inbox still answer', async () => {
    const viewer = await t.signIn(t.accounts.viewer);
    const pullNew = (as: CallOptions) => call('GET', '/v1/live/pull?subscription_id=sub_live_support&limit=2', as);
    const refused = await pullNew({ cookie: viewer });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, errorCode: 'FORBIDDEN', errorMessage: expect.stringMatching(/viewer cannot pull new items/) });
    const viewerToken = await makeToken(viewer, 'read', ['*']);
    const readToken = await makeToken(reviewer, 'read', ['*']);
    for (const token of [viewerToken, readToken]) expect((await pullNew({ token, origin: null })).body.errorCode).toBe('FORBIDDEN');

    // A re-read moves nothing: the viewer may, and it shows where the subscription begins.
    const reread = await call('GET', '/v1/live/pull?subscription_id=sub_live_support&limit=2&from=beginning', { cookie: viewer });
    expect(reread.status).toBe(200);
    const first = (reread.body.data.items as { submission_id: string }[]).map((i) => i.submission_id);
    // Nothing refused moved the vendor's position: the team's first pull starts at the beginning.
    const pulled = await pullNew({ cookie: reviewer });
    expect(pulled.status).toBe(200);
    expect((pulled.body.data.items as { submission_id: string }[]).map((i) => i.submission_id)).toEqual(first);
    // And the viewer reads what the team pulled, from the shared inbox.
    const inbox = await call('GET', '/hub/v1/inbox?subscription_id=sub_live_support', { cookie: viewer });
    expect(inbox.status).toBe(200);
    expect((inbox.body.items as { item_id: string }[]).map((i) => i.item_id)).toEqual(expect.arrayContaining(first));
  });

  it('a read token cannot decide; a decide token can', async () => {
    const itemId = (await pull('sub_sim_product', { cookie: reviewer })).body.data[0].id as string;
    const read = await makeToken(reviewer, 'read', ['*']);
    expect((await pull('sub_sim_product', { token: read, origin: null })).status).toBe(200);
    const refused = await call('POST', `/v1/data/items/${itemId}/dispute`, { token: read, origin: null });
    expect(refused.status).toBe(403);
    expect(refused.body.errorMessage).toMatch(/scope read/);
    expect(await vendorStatus(itemId)).toBe('pending');
    const decide = await makeToken(reviewer, 'decide', ['*']);
    expect((await call('POST', `/v1/data/items/${itemId}/dispute`, { token: decide, origin: null })).status).toBe(200);
    expect(await vendorStatus(itemId)).toBe('disputed');
  });

  it('a token limited to a subscription cannot pull, adopt or read across others', async () => {
    const limited = await makeToken(reviewer, 'decide', ['sub_sim_retail', 'sub_live_streets']);
    const otherItem = (await pull('sub_sim_support', { cookie: reviewer })).body.data[0].id as string;
    const as = { token: limited, origin: null } as const;
    expect((await pull('sub_sim_support', as)).status).toBe(403);
    const crossAdopt = await call('POST', `/v1/data/items/${otherItem}/adopt`, as);
    expect(crossAdopt.status).toBe(403);
    expect(crossAdopt.body.errorMessage).toMatch(/does not cover subscription sub_sim_support/);
    expect(await vendorStatus(otherItem)).toBe('pending');
    expect((await call('GET', '/v1/live/pull?subscription_id=sub_live_support&limit=1', as)).status).toBe(403);
    // Organization-wide lists are not tied to a subscription: not for a limited token.
    expect((await call('GET', '/v1/data/deliveries', as)).status).toBe(403);

    const own = await pull('sub_sim_retail', as);
    expect(own.status).toBe(200);
    const live = await call('GET', '/v1/live/pull?subscription_id=sub_live_streets&limit=2', as);
    expect(live.status).toBe(200);
    const submission = live.body.data.items[0].submission_id as string;
    const liveAdopt = await call('POST', `/v1/live/items/${submission}/adopt`, { ...as, body: { subscription_id: 'sub_live_streets' } });
    expect(liveAdopt.status).toBe(200);
    const liveDispute = await call('POST', `/v1/live/items/${live.body.data.items[1].submission_id as string}/dispute`, {
      ...as,
      body: { subscription_id: 'sub_live_support', reason: 'blurry' },
    });
    expect(liveDispute.status).toBe(403);
    const rows = await auditRows();
    expect(rows.find((r) => r.action === 'v1.adopt' && r.item_id === submission)).toMatchObject({
      subscription_id: 'sub_live_streets',
      outcome: 'accepted',
      via: expect.stringMatching(/^pat:/),
    });
    expect(rows.find((r) => r.action === 'v1.dispute' && r.reason === 'blurry')).toMatchObject({ subscription_id: 'sub_live_support', outcome: 'FORBIDDEN' });
  });

  it('anonymous callers, vendor keys and foreign origins are refused before anything is forwarded', async () => {
    const anonymous = await call('GET', '/v1/data/pull?subscription_id=sub_sim_retail');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.errorCode).toBe('NOT_SIGNED_IN');
    const withKey = await call('GET', '/v1/data/pull?subscription_id=sub_sim_retail', { headers: { Authorization: `Bearer ${vendor.api_key}` } });
    expect(withKey.body.errorCode).toBe('VENDOR_KEY_NOT_ACCEPTED');
    const itemId = (await pull('sub_sim_retail', { cookie: reviewer })).body.data[0].id as string;
    const foreign = await call('POST', `/v1/data/items/${itemId}/adopt`, { cookie: reviewer, origin: 'https://evil.example' });
    expect(foreign.body.errorCode).toBe('CROSS_ORIGIN_REFUSED');
    expect(await vendorStatus(itemId)).toBe('pending');
  });

  it('a removed member’s next /v1 call is refused, by session and by token', async () => {
    const cookie = await t.signIn(t.accounts.reviewer2);
    const token = await makeToken(cookie, 'decide', ['*']);
    expect((await pull('sub_sim_retail', { cookie })).status).toBe(200);
    expect((await pull('sub_sim_retail', { token, origin: null })).status).toBe(200);
    const id = (await call('GET', '/hub/v1/me', { cookie })).body.member.id as string;
    expect((await call('DELETE', `/hub/v1/members/${id}`, { cookie: admin })).status).toBe(200);
    expect((await pull('sub_sim_retail', { cookie })).status).toBe(401);
    expect((await pull('sub_sim_retail', { token, origin: null })).status).toBe(401);
  });

  it('the vendor key and JWT appear in no hub answer, header, log line or audit row', async () => {
    // The preview is the endpoint that takes the JWT: forwarded with it.
    const preview = await call('GET', '/v1/frontiers/101/tasks/1001/preview?limit=1', { cookie: reviewer });
    expect(preview.status).toBe(200);
    const everything = [...seen, t.logs.join('\n'), JSON.stringify(await auditRows())].join('\n');
    expect(seen.length).toBeGreaterThan(30);
    for (const secret of [vendor.api_key, vendor.jwt]) {
      expect(everything).not.toContain(secret);
      expect(everything).not.toContain(secret.slice(-16));
    }
  });
});
