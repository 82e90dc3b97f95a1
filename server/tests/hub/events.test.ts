import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHub, type RunningHub } from '../../hub/main';
import { HUB_EVENTS } from '../../../src/api/contract/hub-events';
import { eventually } from './decisions-kit';
import { openStream, type OpenStream, type StreamEvent } from './event-stream';
import { ENGINES, startTestHub, type TestHub } from './hub-harness';

/*
 * The team's change stream (GET /hub/v1/events): one event per audit row the caller may see, its
 * id the row's seq; a reconnection with Last-Event-ID gets exactly what it missed; a reviewer
 * sees the team's work but not members, tokens or sessions; nothing secret is ever in it; a
 * client that goes away is forgotten; and a second hub process on the same store streams what the
 * first one wrote (PostgreSQL: LISTEN/NOTIFY; SQLite: the poll of audit_head).
 */

const lotValue = (items: string[]) => ({
  version: 1,
  kind: 'simulated',
  source: { kind: 'delivery', deliveryId: 'd1', description: 'Delivery d1' },
  itemIds: items,
  plan: {
    kind: 'zero-acceptance',
    lotSize: items.length,
    confidencePct: 95,
    defectRateBp: 500,
    sampleSize: 1,
    assumedDefects: 0,
    binomialSize: 1,
    formula: 'f',
  },
  sampleIds: items.slice(0, 1),
  extensions: [],
  action: null,
});

const reasons = (code: string) => ({ reason_codes: [{ code, label: `Label ${code}` }] });
const isChange =
  (action: string, extra: (e: StreamEvent) => boolean = () => true) =>
  (e: StreamEvent) =>
    e.event === 'change' && e.data.action === action && extra(e);

describe.each(ENGINES)('hub events on %s', (engine) => {
  let t: TestHub;
  let admin = '';
  let reviewer = '';
  let viewer = '';
  const open: OpenStream[] = [];
  const stream = async (headers: Record<string, string>, query = '') => {
    const s = await openStream(`${t.url}/hub/v1/events${query}`, headers);
    open.push(s);
    return s;
  };

  beforeAll(async () => {
    t = await startTestHub(engine, { eventsHeartbeatMs: 200 });
    admin = await t.signIn(t.accounts.admin);
    reviewer = await t.signIn(t.accounts.reviewer1);
    viewer = await t.signIn(t.accounts.viewer);
    const put = await t.call('PUT', '/hub/v1/subscriptions', {
      cookie: admin,
      body: {
        subscriptions: [
          { id: 'sub_a', kind: 'simulated' },
          { id: 'sub_b', kind: 'simulated' },
        ],
      },
    });
    expect(put.status).toBe(200);
  });
  afterAll(async () => {
    for (const s of open) s.close();
    await t?.close();
  });

  it('streams each change once, as a redacted summary, to whoever may see it', async () => {
    const asReviewer = await stream({ Cookie: reviewer });
    const asViewer = await stream({ Cookie: viewer });
    expect(asReviewer.status).toBe(200);
    expect(asReviewer.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const ready = await asReviewer.next((e) => e.event === 'ready');
    expect(ready.id).toBe(String(ready.data.head));

    // Admin-only business first, then the team's work.
    const password = 'a-secret-password-for-the-stream';
    expect((await t.call('POST', '/hub/v1/members', { cookie: admin, body: { email: 'live@demo.hub', role: 'reviewer', password } })).status).toBe(201);
    const token = (await t.call('POST', '/hub/v1/tokens', { cookie: admin, body: { name: 'live', scope: 'read', subscriptions: ['*'], expires_in_days: 1 } }))
      .body.token as string;
    expect((await t.call('PUT', '/hub/v1/settings', { cookie: admin, body: reasons('blurry') })).status).toBe(200);
    const lot = await t.call('POST', '/hub/v1/lots', { cookie: reviewer, body: { id: 'lot_live_1', subscription_id: 'sub_a', value: lotValue(['i1', 'i2']) } });
    expect(lot.status).toBe(201);

    const created = await asReviewer.next(isChange('lot.create'));
    expect(created.data).toEqual({
      seq: Number(created.id),
      at: expect.any(String),
      action: 'lot.create',
      subscription_id: 'sub_a',
      item_id: null,
      target: 'lot_live_1',
      actor: { id: expect.any(String), email: t.accounts.reviewer1.email },
      outcome: 'ok',
    });
    // A reviewer sees the team's work, in order, and none of the members', tokens' or sessions' rows.
    const seen = asReviewer.events.filter((e) => e.event === 'change').map((e) => e.data.action);
    expect(seen).toEqual(['settings.update', 'lot.create']);
    // A viewer reads the audit log: every row, each once, in seq order.
    await asViewer.next(isChange('lot.create'));
    const viewed = asViewer.events.filter((e) => e.event === 'change');
    expect(viewed.map((e) => e.data.action)).toEqual(['member.add', 'token.create', 'settings.update', 'lot.create']);
    const seqs = viewed.map((e) => Number(e.id));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    // Nothing secret: not the password, not the token, nor an audit row's details.
    for (const s of [asReviewer, asViewer]) {
      expect(s.raw()).not.toContain(password);
      expect(s.raw()).not.toContain(token);
      expect(s.raw()).not.toContain('ddh_pat_');
      expect(s.raw()).not.toContain('details');
    }
  });

  it('resumes after Last-Event-ID with exactly what was missed, and ?after= does the same on a first connection', async () => {
    const first = await stream({ Cookie: admin });
    const ready = await first.next((e) => e.event === 'ready');
    first.close();
    await t.call('PUT', '/hub/v1/settings', { cookie: admin, body: reasons('missed_one') });
    await t.call('PUT', '/hub/v1/settings', { cookie: admin, body: reasons('missed_two') });
    const again = await stream({ Cookie: admin, 'Last-Event-ID': ready.id! });
    const resumed = await again.next((e) => e.event === 'ready');
    expect(resumed.data.head).toBe(Number(ready.id));
    await again.next(isChange('settings.update', (e) => Number(e.id) === Number(ready.id) + 2));
    const changes = again.events.filter((e) => e.event === 'change').map((e) => Number(e.id));
    expect(changes).toEqual([Number(ready.id) + 1, Number(ready.id) + 2]);

    const byQuery = await stream({ Cookie: admin }, `?after=${ready.id}`);
    await byQuery.next((e) => e.event === 'change' && Number(e.id) === Number(ready.id) + 2);
    expect(byQuery.events.filter((e) => e.event === 'change').map((e) => Number(e.id))).toEqual(changes);
  });

  it('a reviewer is told of a change to their own role (their console follows it), not of other members’', async () => {
    const password = 'a-password-for-the-role-change';
    const made = await t.call('POST', '/hub/v1/members', { cookie: admin, body: { email: 'promoted@demo.hub', role: 'reviewer', password } });
    expect(made.status).toBe(201);
    const other = await t.call('POST', '/hub/v1/members', { cookie: admin, body: { email: 'bystander@demo.hub', role: 'reviewer', password } });
    const own = await stream({ Cookie: await t.signIn({ email: 'promoted@demo.hub', password }) });
    await own.next((e) => e.event === 'ready');
    expect((await t.call('PATCH', `/hub/v1/members/${other.body.member.id}`, { cookie: admin, body: { role: 'viewer' } })).status).toBe(200);
    expect((await t.call('PATCH', `/hub/v1/members/${made.body.member.id}`, { cookie: admin, body: { role: 'admin' } })).status).toBe(200);
    const told = await own.next(isChange('member.role'));
    // Theirs only: the bystander's change came first and was not sent; nor is the row's target (an email) or details.
    expect(own.events.filter((e) => e.event === 'change').map((e) => e.data.action)).toEqual(['member.role']);
    expect(told.data).toMatchObject({ action: 'member.role', target: null });
  });

  it('a token limited to some subscriptions sees only theirs; nobody signed in gets the 401 envelope', async () => {
    const made = await t.call('POST', '/hub/v1/tokens', {
      cookie: reviewer,
      body: { name: 'only a', scope: 'read', subscriptions: ['sub_a'], expires_in_days: 1 },
    });
    const limited = await stream({ Authorization: `Bearer ${made.body.token}` });
    expect(limited.status).toBe(200);
    await limited.next((e) => e.event === 'ready');
    await t.call('POST', '/hub/v1/lots', { cookie: reviewer, body: { id: 'lot_live_b', subscription_id: 'sub_b', value: lotValue(['b1']) } });
    await t.call('POST', '/hub/v1/lots', { cookie: reviewer, body: { id: 'lot_live_a', subscription_id: 'sub_a', value: lotValue(['a1']) } });
    await limited.next(isChange('lot.create', (e) => e.data.target === 'lot_live_a'));
    expect(limited.events.filter((e) => e.event === 'change').map((e) => e.data.target)).toEqual(['lot_live_a']);

    const anonymous = await t.call('GET', '/hub/v1/events');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ success: false, errorCode: 'NOT_SIGNED_IN' });
    const bad = await t.call('GET', '/hub/v1/events?after=minus', { cookie: viewer });
    expect(bad.status).toBe(400);
  });

  it('forgets a client that went away, and ends a stream whose session ended', async () => {
    const before = t.hub.openStreams();
    const streams = await Promise.all([1, 2, 3].map(() => stream({ Cookie: viewer })));
    await Promise.all(streams.map((s) => s.next((e) => e.event === 'ready')));
    expect(t.hub.openStreams()).toBe(before + 3);
    for (const s of streams) s.close();
    await vi.waitFor(() => expect(t.hub.openStreams()).toBe(before), { timeout: 10_000, interval: 50 });

    const leaving = await t.signIn(t.accounts.reviewer2);
    const s = await stream({ Cookie: leaving });
    await s.next((e) => e.event === 'ready');
    expect((await t.call('DELETE', '/hub/v1/session', { cookie: leaving })).status).toBe(200);
    // The next heartbeat reads the caller again and finds no session: the hub ends the stream.
    await s.ended;
    await vi.waitFor(() => expect(t.hub.openStreams()).toBe(before), { timeout: 10_000, interval: 50 });
  });

  it('a second hub process on the same store streams what the first one wrote', async () => {
    // SQLite: the same data directory (its hub.db); PostgreSQL: the same database.
    const dataDir = engine === 'sqlite' ? t.dataDir : mkdtempSync(join(tmpdir(), 'hub-b-'));
    let other: RunningHub | undefined;
    try {
      // On PostgreSQL the fallback poll is set beyond the test's time, so only the NOTIFY can wake hub B.
      const eventsPollMs = engine === 'postgres' ? 600_000 : undefined;
      other = await startHub({ port: 0, host: '127.0.0.1', dataDir, databaseUrl: t.databaseUrl, receiptSyncMs: 0, eventsPollMs });
      const onB = await openStream(`${other.url}/hub/v1/events`, { Cookie: viewer });
      open.push(onB);
      expect(onB.status).toBe(200);
      await onB.next((e) => e.event === 'ready');
      expect((await t.call('PUT', '/hub/v1/settings', { cookie: admin, body: reasons('through_a') })).status).toBe(200);
      const seen = await onB.next(isChange('settings.update'));
      expect(seen.data.actor.email).toBe(t.accounts.admin.email);
      onB.close();
    } finally {
      await other?.close();
      if (dataDir !== t.dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('one member holds at most HUB_EVENTS.perMember streams: the next is refused with the 503 envelope, others are served, and a closed one frees its place', async () => {
    // A member of their own, so no stream of the tests before counts.
    const member = { email: 'streams@demo.hub', password: 'many-streams-pass', role: 'viewer' };
    expect((await t.call('POST', '/hub/v1/members', { cookie: admin, body: member })).status).toBe(201);
    const many = await t.signIn(member);
    const mine: OpenStream[] = [];
    for (let i = 0; i < HUB_EVENTS.perMember; i++) mine.push(await stream({ Cookie: many }));
    expect(mine.every((s) => s.status === 200)).toBe(true);
    const refused = await openStream(`${t.url}/hub/v1/events`, { Cookie: many });
    open.push(refused);
    expect(refused.status).toBe(503);
    await eventually(async () => refused.raw().includes('"errorCode":"TOO_MANY_STREAMS"'));
    const others = await stream({ Cookie: admin });
    expect(others.status).toBe(200);
    others.close();
    mine.pop()!.close();
    const again = await eventually(async () => {
      const s = await openStream(`${t.url}/hub/v1/events`, { Cookie: many });
      if (s.status === 200) return s;
      s.close();
      return undefined;
    });
    open.push(again);
    for (const s of mine) s.close();
  });
});
