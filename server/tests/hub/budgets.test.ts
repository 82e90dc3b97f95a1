import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentialsSchema, type DemoCredentials } from '../../../src/api/contract';
import { ENGINES, startTestHub, type TestHub } from './hub-harness';
import { adoptReceipts, pullItems, type PulledItem } from './decisions-kit';

/*
 * Budgets on the hub: set by admins, read by every member with what was spent, enforced before a
 * charged adopt is forwarded, under one lock, in the hub's own UTC day and month. The vendor's
 * receipts are the judge of what was spent.
 */

const DAY = 86_400_000;

describe.each(ENGINES)('hub budgets on %s', (engine) => {
  let t: TestHub;
  let vendor: DemoCredentials;
  let admin = '';
  let reviewer1 = '';
  let reviewer2 = '';
  /** The hub's clock: the tests move it across a day and a month. */
  let now = Date.UTC(2031, 0, 30, 22, 0);

  const setBudgets = async (body: unknown) => {
    const answer = await t.call('PUT', '/hub/v1/budgets', { cookie: admin, body });
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };
  const adopt = (item: PulledItem, cookie: string) => t.call('POST', `/v1/data/items/${item.id}/adopt`, { cookie });
  const receiptsOf = async (items: PulledItem[]) => {
    const receipts = await adoptReceipts(t.hub.simulator!.url, vendor.api_key);
    return items.flatMap((i) => receipts.get(i.id) ?? []);
  };
  const memberId = async (cookie: string) => (await t.call('GET', '/hub/v1/me', { cookie })).body.member.id as string;

  beforeAll(async () => {
    t = await startTestHub(engine, { simulator: true, clock: () => now });
    vendor = demoCredentialsSchema.parse(JSON.parse(readFileSync(t.hub.simulator!.credentialsFile, 'utf8')));
    admin = await t.signIn(t.accounts.admin);
    reviewer1 = await t.signIn(t.accounts.reviewer1);
    reviewer2 = await t.signIn(t.accounts.reviewer2);
  });
  afterAll(() => t?.close());

  it('every member reads the budgets; only an admin in person sets them, from the hub’s origin, with a valid body', async () => {
    const viewer = await t.signIn(t.accounts.viewer);
    const token = (await t.call('POST', '/hub/v1/tokens', { cookie: admin, body: { name: 'ci', scope: 'read', subscriptions: ['*'], expires_in_days: 1 } }))
      .body.token as string;
    for (const as of [{ cookie: admin }, { cookie: reviewer1 }, { cookie: viewer }, { token, origin: null }]) {
      const read = await t.call('GET', '/hub/v1/budgets', as);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ day: '2031-01-30', month: '2031-01', limits: { organization: { daily_micros: null, monthly_micros: null } } });
    }
    const body = { organization: { daily_micros: 50_000 } };
    for (const [as, code] of [
      [{ cookie: reviewer1 }, 'FORBIDDEN'],
      [{ cookie: viewer }, 'FORBIDDEN'],
      [{ token, origin: null }, 'SESSION_REQUIRED'],
      [{ cookie: admin, origin: 'https://evil.example' }, 'CROSS_ORIGIN_REFUSED'],
      [{ cookie: admin, origin: null }, 'CROSS_ORIGIN_REFUSED'],
    ] as const) {
      const refused = await t.call('PUT', '/hub/v1/budgets', { ...as, body });
      expect(refused.status).toBe(403);
      expect(refused.body.errorCode).toBe(code);
    }
    for (const bad of [
      { organization: { daily_micros: -1 } },
      { organization: { daily_micros: 0.5 } },
      { organization: { daily_micros: '50000' } },
      { organization: { weekly_micros: 1 } },
      { subscriptions: [{ subscription_id: 'a b', daily_micros: 1 }] },
      {
        subscriptions: [
          { subscription_id: 'sub_sim_retail', daily_micros: 1 },
          { subscription_id: 'sub_sim_retail', monthly_micros: 2 },
        ],
      },
      { members: [{ member_id: 'mem_nobody', daily_micros: 1 }] },
      [],
      'budgets',
    ]) {
      const refused = await t.call('PUT', '/hub/v1/budgets', { cookie: admin, body: bad });
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(refused.body.errorCode).toBe('INVALID_BODY');
    }
    expect((await t.call('GET', '/hub/v1/budgets', { cookie: admin })).body.limits.organization.daily_micros).toBeNull();
    const set = await setBudgets({
      organization: { daily_micros: 50_000, monthly_micros: 1_000_000 },
      subscriptions: [{ subscription_id: 'sub_sim_retail', daily_micros: 7 }],
    });
    expect(set.limits).toMatchObject({
      organization: { daily_micros: 50_000, monthly_micros: 1_000_000 },
      per_member: { daily_micros: null, monthly_micros: null },
      subscriptions: [{ subscription_id: 'sub_sim_retail', daily_micros: 7, monthly_micros: null }],
    });
    const audited = await t.hub.store.db.selectFrom('audit').selectAll().where('action', '=', 'budget.set').execute();
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ actor_id: await memberId(admin), outcome: 'ok' });
    expect(JSON.parse(audited[0]!.details!).after).toContain('50000');
    await setBudgets({});
  });

  it('20 priced adopts at once from two reviewers never pass the daily limit together: vendor receipts ≤ the limit', async () => {
    const items = await pullItems(t, reviewer1, 'sub_sim_retail', 20);
    expect(items).toHaveLength(20);
    const limit = Math.floor(items.reduce((s, i) => s + i.price, 0) / 2);
    await setBudgets({ organization: { daily_micros: limit } });
    const answers = await Promise.all(items.map((item, i) => adopt(item, i % 2 ? reviewer1 : reviewer2)));
    const sent = items.filter((_, i) => answers[i]!.status === 200);
    const held = answers.filter((a) => a.status === 409);
    expect(sent.length + held.length).toBe(20);
    expect(held.length).toBeGreaterThan(0);
    for (const a of held) expect(a.body).toMatchObject({ success: false, errorCode: 'BUDGET_HELD', hold_id: expect.stringMatching(/^hold_/) });
    const receipts = await receiptsOf(items);
    expect(receipts).toHaveLength(sent.length);
    const spent = receipts.reduce((s, r) => s + r, 0);
    expect(spent).toBeLessThanOrEqual(limit);
    // The hub's ledger is the vendor's receipts, counted once.
    const budgets = (await t.call('GET', '/hub/v1/budgets', { cookie: reviewer1 })).body;
    expect(budgets.spent.organization.day_micros).toBe(spent);
    expect(budgets.spent.subscriptions).toContainEqual({ subscription_id: 'sub_sim_retail', day_micros: spent, month_micros: spent });
    const perMember = budgets.spent.members as { email: string; day_micros: number }[];
    expect(perMember.reduce((s, m) => s + m.day_micros, 0)).toBe(spent);
    expect(perMember.map((m) => m.email).sort()).toEqual(['reviewer1@demo.hub', 'reviewer2@demo.hub']);
  });

  it('a per-member limit holds one reviewer and not the other; a member’s own limit overrides it', async () => {
    now += 2 * DAY;
    const items = await pullItems(t, reviewer1, 'sub_sim_support', 4);
    await setBudgets({ per_member: { daily_micros: items[0]!.price + items[1]!.price } });
    expect((await adopt(items[0]!, reviewer1)).status).toBe(200);
    expect((await adopt(items[1]!, reviewer1)).status).toBe(200);
    const held = await adopt(items[2]!, reviewer1);
    expect(held.status).toBe(409);
    expect(held.body.errorMessage).toMatch(/member daily/);
    expect((await adopt(items[2]!, reviewer2)).status).toBe(409); // the same item is held, whoever repeats it
    expect((await adopt(items[3]!, reviewer2)).status).toBe(200);
    // An item nobody has decided (the vendor's first pending one is the item held above).
    const more = (await pullItems(t, reviewer1, 'sub_sim_support', 10)).find((i) => !items.some((j) => j.id === i.id));
    await setBudgets({ per_member: { daily_micros: 10_000_000 }, members: [{ member_id: await memberId(reviewer2), daily_micros: 0 }] });
    const own = await adopt(more!, reviewer2);
    expect(own.status).toBe(409);
    expect(own.body.errorCode).toBe('BUDGET_HELD');
    expect(own.body.hold_id).not.toBe(held.body.hold_id);
    expect(await receiptsOf(items)).toHaveLength(3);
  });

  it('days and months are the hub’s clock (UTC): a new day opens the daily limit, a new month the monthly one', async () => {
    now = Date.UTC(2031, 2, 30, 23, 30);
    const items = await pullItems(t, reviewer1, 'sub_sim_product', 4);
    // b the dearest: a and b pass a daily limit that a and c each fit.
    const [b, a, c, d] = [...items].sort((x, y) => y.price - x.price) as [PulledItem, PulledItem, PulledItem, PulledItem];
    await setBudgets({ organization: { daily_micros: Math.max(a.price, c.price) } });
    expect((await adopt(a, reviewer1)).status).toBe(200);
    expect((await adopt(b, reviewer1)).body.errorMessage).toMatch(/organization daily/);
    now += DAY; // 31 March
    const read = (await t.call('GET', '/hub/v1/budgets', { cookie: reviewer2 })).body;
    expect(read).toMatchObject({ day: '2031-03-31', month: '2031-03', spent: { organization: { day_micros: 0 } } });
    expect(read.spent.organization.month_micros).toBeGreaterThanOrEqual(a.price);
    expect((await adopt(c, reviewer1)).status).toBe(200);
    const month = read.spent.organization.month_micros + c.price;
    await setBudgets({ organization: { monthly_micros: month } });
    const held = await adopt(d, reviewer1);
    expect(held.body.errorMessage).toMatch(/organization monthly/);
    // Dropped, then decided again in April: a new month.
    expect((await t.call('DELETE', `/hub/v1/holds/${held.body.hold_id as string}`, { cookie: reviewer1 })).status).toBe(200);
    now = Date.UTC(2031, 3, 1, 0, 5);
    expect((await adopt(d, reviewer1)).status).toBe(200);
    expect((await t.call('GET', '/hub/v1/budgets', { cookie: reviewer1 })).body).toMatchObject({
      month: '2031-04',
      spent: { organization: { day_micros: d.price, month_micros: d.price } },
    });
    expect(await receiptsOf([a, b, c, d])).toEqual([a.price, c.price, d.price]);
  });
});
