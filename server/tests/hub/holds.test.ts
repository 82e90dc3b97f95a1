import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentialsSchema, type DemoCredentials } from '../../../src/api/contract';
import { ENGINES, startTestHub, type CallOptions, type TestHub } from './hub-harness';
import { adoptReceipts, pullItems, type PulledItem } from './decisions-kit';

/*
 * Held adopts: kept on the hub, seen by the reviewer who made them and by admins and viewers,
 * released (sent, and counted) only by an admin, dropped by an admin or their reviewer. Every
 * state change is refused from another origin.
 */

describe.each(ENGINES)('hub holds on %s', (engine) => {
  let t: TestHub;
  let vendor: DemoCredentials;
  let admin = '';
  let reviewer1 = '';
  let reviewer2 = '';
  let viewer = '';
  let x: PulledItem;
  let y: PulledItem;
  let z: PulledItem;
  const holdOf: Record<string, string> = {};

  const vendorStatus = async (itemId: string) => {
    const key = { Authorization: `Bearer ${vendor.api_key}` };
    const deliveries = (await (await fetch(`${t.hub.simulator!.url}/v1/data/deliveries?limit=100`, { headers: key })).json()) as {
      data: { delivery_id: string }[];
    };
    for (const d of deliveries.data) {
      const items = (await (await fetch(`${t.hub.simulator!.url}/v1/data/deliveries/${d.delivery_id}/items`, { headers: key })).json()) as {
        data: { id: string; status: string }[];
      };
      const found = items.data.find((i) => i.id === itemId);
      if (found) return found.status;
    }
    return undefined;
  };
  const holds = async (as: CallOptions, query = '') => {
    const answer = await t.call('GET', `/hub/v1/holds${query}`, as);
    expect(answer.status).toBe(200);
    return answer.body.holds as { id: string; item_id: string; state: string; decision_state: string; member: { email: string } }[];
  };
  const items = (list: { item_id: string }[]) => list.map((h) => h.item_id).sort();

  beforeAll(async () => {
    t = await startTestHub(engine, { simulator: true });
    vendor = demoCredentialsSchema.parse(JSON.parse(readFileSync(t.hub.simulator!.credentialsFile, 'utf8')));
    admin = await t.signIn(t.accounts.admin);
    reviewer1 = await t.signIn(t.accounts.reviewer1);
    reviewer2 = await t.signIn(t.accounts.reviewer2);
    viewer = await t.signIn(t.accounts.viewer);
    // Nothing priced may pass: every charged adopt is held.
    expect((await t.call('PUT', '/hub/v1/budgets', { cookie: admin, body: { organization: { daily_micros: 0 } } })).status).toBe(200);
    [x, y, z] = (await pullItems(t, reviewer1, 'sub_sim_retail', 3)) as [PulledItem, PulledItem, PulledItem];
    for (const [item, cookie] of [
      [x, reviewer1],
      [y, reviewer1],
      [z, reviewer2],
    ] as const) {
      const held = await t.call('POST', `/v1/data/items/${item.id}/adopt`, { cookie });
      expect(held.status).toBe(409);
      expect(held.body).toEqual({
        success: false,
        errorCode: 'BUDGET_HELD',
        errorMessage: expect.stringMatching(/organization daily/),
        hold_id: expect.any(String),
      });
      holdOf[item.id] = held.body.hold_id as string;
    }
  });
  afterAll(() => t?.close());

  it('a held adopt stays on the hub: a repeat answers the same hold, the other decision is refused, nothing reaches the vendor', async () => {
    const again = await t.call('POST', `/v1/data/items/${x.id}/adopt`, { cookie: reviewer2 });
    expect(again.status).toBe(409);
    expect(again.body.hold_id).toBe(holdOf[x.id]);
    expect((await t.call('POST', `/v1/data/items/${x.id}/dispute`, { cookie: reviewer1 })).body.errorCode).toBe('ALREADY_DECIDED');
    expect(await vendorStatus(x.id)).toBe('pending');
    expect((await adoptReceipts(t.hub.simulator!.url, vendor.api_key)).has(x.id)).toBe(false);
    const audit = await t.hub.store.db.selectFrom('audit').selectAll().where('item_id', '=', x.id).orderBy('seq').execute();
    expect(audit.map((r) => `${r.action} ${r.outcome}`)).toEqual(['v1.adopt BUDGET_HELD', 'v1.dispute ALREADY_DECIDED']);
    expect(audit[0]).toMatchObject({ amount_micros: x.price, subscription_id: 'sub_sim_retail' });
  });

  it('a reviewer sees their own holds, an admin and a viewer every one (a token reads too)', async () => {
    expect(items(await holds({ cookie: reviewer1 }))).toEqual([x.id, y.id].sort());
    expect(items(await holds({ cookie: reviewer2 }))).toEqual([z.id]);
    expect(items(await holds({ cookie: admin }))).toEqual([x.id, y.id, z.id].sort());
    expect(items(await holds({ cookie: viewer }))).toEqual([x.id, y.id, z.id].sort());
    const token = (
      await t.call('POST', '/hub/v1/tokens', { cookie: reviewer2, body: { name: 'ci', scope: 'decide', subscriptions: ['*'], expires_in_days: 1 } })
    ).body.token as string;
    expect(items(await holds({ token, origin: null }))).toEqual([z.id]);
    const [one] = (await holds({ cookie: admin })).filter((h) => h.item_id === z.id);
    expect(one).toMatchObject({
      id: holdOf[z.id],
      kind: 'adopt',
      family: 'data',
      subscription_id: 'sub_sim_retail',
      price_micros: z.price,
      member: { email: 'reviewer2@demo.hub' },
      limit: 'organization.daily',
      state: 'open',
      decision_state: 'held',
    });
    expect((await t.call('GET', '/hub/v1/holds?state=closed', { cookie: admin })).body.errorCode).toBe('INVALID_PARAMETER');
  });

  it('only an admin in person, from the hub’s origin, releases: the adopt is sent and its spend counted', async () => {
    const release = (as: CallOptions) => t.call('POST', `/hub/v1/holds/${holdOf[x.id]}/release`, as);
    expect((await release({ cookie: reviewer1 })).body.errorCode).toBe('FORBIDDEN');
    expect((await release({ cookie: viewer })).body.errorCode).toBe('FORBIDDEN');
    expect((await release({ cookie: admin, origin: 'https://evil.example' })).body.errorCode).toBe('CROSS_ORIGIN_REFUSED');
    expect((await release({ cookie: admin, origin: null })).body.errorCode).toBe('CROSS_ORIGIN_REFUSED');
    expect(await vendorStatus(x.id)).toBe('pending');

    const released = await release({ cookie: admin });
    expect(released.status).toBe(200);
    // Who released it, by email too: the reviewer's console says so (a reviewer cannot list members).
    expect(released.body.hold).toMatchObject({
      id: holdOf[x.id],
      state: 'released',
      decision_state: 'sent',
      outcome: 'ok',
      resolved_by_email: expect.stringMatching(/@/),
    });
    expect(await vendorStatus(x.id)).toBe('adopted');
    expect((await adoptReceipts(t.hub.simulator!.url, vendor.api_key)).get(x.id)).toEqual([x.price]);
    expect((await t.call('GET', '/hub/v1/budgets', { cookie: reviewer1 })).body.spent.organization.day_micros).toBe(x.price);
    // Resolved once; the reviewer's repeat now answers what the vendor said.
    const twice = await release({ cookie: admin });
    expect(twice.status).toBe(409);
    expect(twice.body.errorCode).toBe('HOLD_RESOLVED');
    const repeat = await t.call('POST', `/v1/data/items/${x.id}/adopt`, { cookie: reviewer1 });
    expect(repeat.status).toBe(200);
    expect(repeat.body).toMatchObject({ ok: true, item_id: x.id, status: 'adopted', hub: { state: 'sent' } });
    expect((await t.call('POST', '/hub/v1/holds/hold_nope/release', { cookie: admin })).status).toBe(404);
  });

  it('the reviewer who made it, or an admin, drops a hold from the hub’s origin; the item is free to decide again', async () => {
    const drop = (item: PulledItem, as: CallOptions) => t.call('DELETE', `/hub/v1/holds/${holdOf[item.id]}`, as);
    expect((await drop(y, { cookie: reviewer2 })).status).toBe(404);
    expect((await drop(y, { cookie: viewer })).body.errorCode).toBe('FORBIDDEN');
    expect((await drop(y, { cookie: reviewer1, origin: 'https://evil.example' })).body.errorCode).toBe('CROSS_ORIGIN_REFUSED');
    const dropped = await drop(y, { cookie: reviewer1 });
    expect(dropped.status).toBe(200);
    expect(dropped.body.hold).toMatchObject({ state: 'dropped', decision_state: 'dropped', item_id: y.id, resolved_by_email: expect.stringMatching(/@/) });
    expect(await vendorStatus(y.id)).toBe('pending');
    expect((await drop(y, { cookie: reviewer1 })).body.errorCode).toBe('HOLD_RESOLVED');
    const dispute = await t.call('POST', `/v1/data/items/${y.id}/dispute`, { cookie: reviewer1 });
    expect(dispute.status).toBe(200);
    expect(await vendorStatus(y.id)).toBe('disputed');

    expect((await drop(z, { cookie: admin })).status).toBe(200);
    expect(await holds({ cookie: admin })).toEqual([]);
    const all = await holds({ cookie: admin }, '?state=all');
    expect(Object.fromEntries(all.map((h) => [h.item_id, h.state]))).toEqual({ [x.id]: 'released', [y.id]: 'dropped', [z.id]: 'dropped' });
    const actions = await t.hub.store.db.selectFrom('audit').select(['action', 'item_id']).where('action', 'like', 'hold.%').orderBy('seq').execute();
    expect(actions).toEqual([
      { action: 'hold.release', item_id: x.id },
      { action: 'hold.drop', item_id: y.id },
      { action: 'hold.drop', item_id: z.id },
    ]);
  });
});
