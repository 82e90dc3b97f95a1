import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentialsSchema } from '../../../src/api/contract/local-demo';
import { eventually } from './decisions-kit';
import { ENGINES, startTestHub, type TestHub } from './hub-harness';

/*
 * The team's shared inbox: every item delivered through the hub kept once, numbered per
 * subscription without gaps (concurrent pulls included), read by any member by seq cursor within
 * a token's subscriptions; the team's incremental pull recovered by the hub when its answer was
 * lost; the scheduled pull.
 */

const SIM = 'sub_sim_retail';
const LIVE = 'sub_live_streets';

describe.each(ENGINES)('the shared inbox on %s', (engine) => {
  let t: TestHub;
  let admin: string;
  let reviewer: string;
  beforeAll(async () => {
    t = await startTestHub(engine, { simulator: true, scheduleTickMs: 100 });
    admin = await t.signIn(t.accounts.admin);
    reviewer = await t.signIn(t.accounts.reviewer1);
  });
  afterAll(() => t?.close());

  const rows = (subscriptionId: string) =>
    t.hub.store.db
      .selectFrom('inbox_items')
      .selectAll()
      .where('subscription_id', '=', subscriptionId)
      .orderBy('seq')
      .execute()
      .then((list) => list.map((r) => ({ ...r, seq: Number(r.seq) })));
  const inbox = async (subscriptionId: string, after = 0, limit = 500, as: { cookie?: string; token?: string } = { cookie: reviewer }) =>
    t.call('GET', `/hub/v1/inbox?subscription_id=${subscriptionId}&after=${after}&limit=${limit}`, as);

  it('keeps each pulled item once, with how, when and by whom, numbered 1…n without gaps under concurrent pulls', async () => {
    const me = (await t.call('GET', '/hub/v1/me', { cookie: reviewer })).body.member.id as string;
    const second = await t.signIn(t.accounts.reviewer2);
    // Pending pulls return the same items until they are decided: eight at once, from two members.
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => t.call('GET', `/v1/data/pull?subscription_id=${SIM}&limit=${5 + i * 5}`, { cookie: i % 2 ? second : reviewer })),
    );
    for (const a of answers) expect(a.status, a.text).toBe(200);
    const delivered = new Set(answers.flatMap((a) => (a.body.data as { id: string }[]).map((i) => i.id)));
    const kept = await rows(SIM);
    expect(kept.map((r) => r.item_id).sort()).toEqual([...delivered].sort());
    expect(kept.map((r) => r.seq)).toEqual(kept.map((_, i) => i + 1));
    const head = await t.hub.store.db.selectFrom('inbox_heads').select('seq').where('subscription_id', '=', SIM).executeTakeFirstOrThrow();
    expect(Number(head.seq)).toBe(kept.length);
    expect(new Set(kept.map((r) => r.arrived_how))).toEqual(new Set(['pending']));
    expect(kept.every((r) => r.arrived_by === me || r.arrived_by !== null)).toBe(true);
    // The record as delivered, priced.
    const first = kept[0]!;
    const record = (answers.flatMap((a) => a.body.data) as { id: string; unit_price_usd: number }[]).find((i) => i.id === first.item_id)!;
    expect(JSON.parse(first.payload)).toEqual(record);
    expect(Number(first.price_micros)).toBe(Math.round(record.unit_price_usd * 1_000_000));

    // A re-delivery neither duplicates nor renumbers.
    expect((await t.call('GET', `/v1/data/pull?subscription_id=${SIM}&limit=40`, { cookie: reviewer })).status).toBe(200);
    expect((await rows(SIM)).map((r) => [r.item_id, r.seq])).toEqual(kept.map((r) => [r.item_id, r.seq]));
  });

  it('keeps live pulls (incremental, then a re-read) once, in order, and pages them by seq', async () => {
    const pulled = await t.call('GET', `/v1/live/pull?subscription_id=${LIVE}&limit=7`, { cookie: reviewer });
    expect(pulled.status, pulled.text).toBe(200);
    const ids = (pulled.body.data.items ?? pulled.body.data).map((s: { submission_id: string }) => s.submission_id) as string[];
    expect(ids.length).toBeGreaterThan(0);
    const reread = await t.call('GET', `/v1/live/pull?subscription_id=${LIVE}&limit=20&from=beginning`, { cookie: reviewer });
    expect(reread.status).toBe(200);
    const kept = await rows(LIVE);
    expect(kept.slice(0, ids.length).map((r) => [r.item_id, r.arrived_how])).toEqual(ids.map((id) => [id, 'pull']));
    expect(kept.slice(ids.length).every((r) => r.arrived_how === 'reread')).toBe(true);
    expect(new Set(kept.map((r) => r.item_id)).size).toBe(kept.length);
    expect(kept.map((r) => r.seq)).toEqual(kept.map((_, i) => i + 1));

    // Paged by the cursor: every row once, in order.
    const seen: string[] = [];
    let after = 0;
    for (;;) {
      const page = await inbox(LIVE, after, 3);
      expect(page.status, page.text).toBe(200);
      seen.push(...page.body.items.map((i: { item_id: string }) => i.item_id));
      expect(page.body.items.every((i: { family: string; arrived_at: string }) => i.family === 'live' && !Number.isNaN(Date.parse(i.arrived_at)))).toBe(true);
      after = page.body.next;
      if (!page.body.has_more) break;
    }
    expect(seen).toEqual(kept.map((r) => r.item_id));
    const empty = await inbox(LIVE, after);
    expect(empty.body).toEqual({ items: [], next: after, has_more: false });
  });

  it('reads within a token’s subscriptions; refuses bad input and strangers', async () => {
    const limited = (
      await t.call('POST', '/hub/v1/tokens', { cookie: reviewer, body: { name: 'inbox-read', scope: 'read', subscriptions: [SIM], expires_in_days: 1 } })
    ).body.token as string;
    expect((await inbox(SIM, 0, 5, { token: limited })).status).toBe(200);
    const other = await inbox(LIVE, 0, 5, { token: limited });
    expect(other.status).toBe(403);
    expect(other.body.errorCode).toBe('FORBIDDEN');
    expect((await t.call('GET', `/hub/v1/inbox?subscription_id=${SIM}`, { origin: null })).status).toBe(401);
    for (const query of [
      '',
      `subscription_id=${SIM}&after=-1`,
      `subscription_id=${SIM}&limit=0`,
      `subscription_id=${SIM}&limit=501`,
      `subscription_id=${SIM}&after=x`,
      `subscription_id=${SIM}&sort=1`,
    ]) {
      const bad = await t.call('GET', `/hub/v1/inbox?${query}`, { cookie: reviewer });
      expect(bad.status, query).toBe(400);
      expect(bad.body.errorCode).toBe('INVALID_PARAMETER');
    }
  });

  it('recovers a pull whose answer was lost: the items the vendor moved past are kept, none twice', async () => {
    const vendor = demoCredentialsSchema.parse(JSON.parse(readFileSync(t.hub.simulator!.credentialsFile, 'utf8')));
    const sub = 'sub_live_support';
    // The vendor took a pull whose answer never reached the hub: a claim left by a hub that died, and the position moved.
    await t.hub.store.db
      .insertInto('inbox_pulls')
      .values({ subscription_id: sub, claim_id: 'dead-hub', claimed_until: Date.now() - 1 })
      .execute();
    const taken = await fetch(`${t.hub.simulator!.url}/v1/live/pull?subscription_id=${sub}&limit=5`, {
      headers: { Authorization: `Bearer ${vendor.api_key}` },
    });
    const lostIds = ((await taken.json()) as { data: { items: { submission_id: string }[] } }).data.items.map((s) => s.submission_id);
    expect(lostIds.length).toBe(5);

    const pulled = await t.call('GET', `/v1/live/pull?subscription_id=${sub}&limit=5`, { cookie: reviewer });
    expect(pulled.status, pulled.text).toBe(200);
    const kept = await rows(sub);
    const byId = new Map(kept.map((r) => [r.item_id, r.arrived_how]));
    for (const id of lostIds) expect(byId.get(id)).toBe('recover');
    const fresh = (pulled.body.data.items as { submission_id: string }[]).map((s) => s.submission_id);
    for (const id of fresh) expect(lostIds).not.toContain(id);
    expect(new Set(kept.map((r) => r.item_id)).size).toBe(kept.length);
    const state = await t.hub.store.db.selectFrom('inbox_pulls').selectAll().where('subscription_id', '=', sub).executeTakeFirstOrThrow();
    expect([state.claim_id, Number(state.lost)]).toEqual([null, 0]);
  });

  it('pulls on the schedule an admin sets (audited), and only then', async () => {
    const sub = 'sub_sim_support';
    await t.call('PUT', '/hub/v1/subscriptions', {
      cookie: admin,
      body: {
        subscriptions: [
          { id: SIM, kind: 'simulated' },
          { id: sub, kind: 'simulated' },
        ],
      },
    });
    expect((await t.call('PUT', `/hub/v1/inbox/schedules/${sub}`, { cookie: reviewer, body: { every_minutes: 5 } })).status).toBe(403);
    expect((await t.call('PUT', `/hub/v1/inbox/schedules/${sub}`, { cookie: admin, body: { every_minutes: 0 } })).status).toBe(400);
    expect((await t.call('PUT', `/hub/v1/inbox/schedules/nope`, { cookie: admin, body: { every_minutes: 5 } })).status).toBe(404);
    expect((await t.call('PUT', `/hub/v1/inbox/schedules/${sub}`, { cookie: admin, origin: 'https://evil.example', body: { every_minutes: 5 } })).status).toBe(
      403,
    );
    expect(await rows(sub)).toEqual([]);
    const set = await t.call('PUT', `/hub/v1/inbox/schedules/${sub}`, { cookie: admin, body: { every_minutes: 5 } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.schedules).toContainEqual({ subscription_id: sub, every_minutes: 5, last_pulled_at: null });
    const kept = await eventually(async () => {
      const list = await rows(sub);
      return list.length > 0 && list;
    });
    expect(kept.every((r) => r.arrived_how === 'schedule' && r.arrived_by === null)).toBe(true);
    const audit = await t.call('GET', '/hub/v1/audit?action=inbox.schedule', { cookie: admin });
    expect(audit.body.rows.at(-1)).toMatchObject({ target: sub, outcome: 'ok' });
    const read = await t.call('GET', '/hub/v1/inbox/schedules', { cookie: reviewer });
    expect(read.body.schedules.find((s: { subscription_id: string }) => s.subscription_id === sub).last_pulled_at).not.toBeNull();
  });
});
