import Database from 'libsql';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestHub, type TestHub } from './hub-harness';
import { adoptReceipts, eventually, holdVendorKey, pullItems, startGate, startVendor, type Gate, type Vendor } from './decisions-kit';

/*
 * The durable decision queue: an adopt or dispute is recorded, sent at once, queued while the
 * vendor cannot be reached and delivered once when it can, and never sent twice. The vendor's own
 * records (the simulator's items and receipts) are the judge.
 */

describe.each(ENGINES)('hub decision queue on %s', (engine) => {
  let vendor: Vendor;
  let gate: Gate;
  let t: TestHub;
  let reviewer = '';

  const vendorStatus = (itemId: string) =>
    (vendor.service.db.prepare('SELECT status FROM items WHERE id = ?').get(itemId) as { status: string } | undefined)?.status;
  const liveFeedback = (submissionId: string) =>
    (vendor.service.db.prepare('SELECT feedback FROM live_feedback WHERE submission_id = ?').get(submissionId) as { feedback: string } | undefined)?.feedback;
  const decisionsOf = (itemId: string) => t.hub.store.db.selectFrom('decisions').selectAll().where('item_id', '=', itemId).execute();
  const auditOf = async (itemId: string) =>
    (await t.hub.store.db.selectFrom('audit').selectAll().where('item_id', '=', itemId).orderBy('seq').execute()).map((r) => `${r.action} ${r.outcome}`);
  const adopt = (itemId: string, cookie = reviewer) => t.call('POST', `/v1/data/items/${itemId}/adopt`, { cookie });
  const posted = (path: string) => gate.posts.get(`/v1${path}`) ?? 0;
  const sentOrRefused = (itemId: string) => eventually(async () => ['sent', 'refused'].includes((await decisionsOf(itemId))[0]?.state ?? ''));

  beforeAll(async () => {
    vendor = await startVendor();
    gate = await startGate(vendor.url);
    t = await startTestHub(engine, { upstream: gate.url, retry: { baseMs: 20, maxMs: 200, pollMs: 20 } });
    await holdVendorKey(t, await t.signIn(t.accounts.admin), vendor.credentials);
    reviewer = await t.signIn(t.accounts.reviewer1);
  });
  // A test that fails with the gate shut must not leave the vendor away for the ones after it.
  afterEach(() => gate?.open());
  afterAll(async () => {
    await t?.close();
    await gate?.close();
    await vendor?.close();
  });

  it('the simulator takes a repeated adopt as a no-op: one status change, one receipt', async () => {
    const key = { Authorization: `Bearer ${vendor.credentials.api_key}` };
    const pulled = (await (await fetch(`${vendor.url}/v1/data/pull?subscription_id=sub_sim_product&limit=1`, { headers: key })).json()) as {
      data: { id: string }[];
    };
    const itemId = pulled.data[0]!.id;
    for (let i = 0; i < 3; i++) {
      const answer = await fetch(`${vendor.url}/v1/data/items/${itemId}/adopt`, { method: 'POST', headers: key });
      expect(answer.status).toBe(200);
    }
    expect((await adoptReceipts(vendor.url, vendor.credentials.api_key)).get(itemId)).toHaveLength(1);
  });

  it('an adopt is sent at once (the vendor’s answer + hub.state sent); a repeat answers the recorded outcome and is never sent again', async () => {
    const [item] = await pullItems(t, reviewer, 'sub_sim_retail', 1);
    const first = await adopt(item!.id);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ ok: true, item_id: item!.id, status: 'adopted', hub: { state: 'sent', decision_id: expect.stringMatching(/^dec_/) } });
    // The vendor's answer is recorded just after the browser has it.
    await sentOrRefused(item!.id);
    const again = await adopt(item!.id, await t.signIn(t.accounts.reviewer2));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(posted(`/data/items/${item!.id}/adopt`)).toBe(1);
    expect(vendorStatus(item!.id)).toBe('adopted');
    expect((await adoptReceipts(vendor.url, vendor.credentials.api_key)).get(item!.id)).toEqual([item!.price]);
    // The other decision on an item the team decided is the hub's refusal: nothing reaches the vendor.
    const dispute = await t.call('POST', `/v1/data/items/${item!.id}/dispute`, { cookie: reviewer });
    expect(dispute.status).toBe(409);
    expect(dispute.body.errorCode).toBe('ALREADY_DECIDED');
    // Who decided what, for the console's conflict (an offline reviewer's decision on reconnect).
    expect(dispute.body.recorded).toMatch(/^adopt by \S+@\S+$/);
    expect(posted(`/data/items/${item!.id}/dispute`)).toBe(0);
    const [row] = await decisionsOf(item!.id);
    expect(row).toMatchObject({
      state: 'sent',
      kind: 'adopt',
      price_micros: item!.price,
      subscription_id: 'sub_sim_retail',
      response_status: 200,
      outcome: 'ok',
    });
    expect(await auditOf(item!.id)).toEqual(['v1.adopt accepted', 'decision.send ok', 'v1.dispute ALREADY_DECIDED']);
  });

  it('live decisions are sent with their body; a bad body is refused before anything is kept', async () => {
    const pulled = await t.call('GET', '/v1/live/pull?subscription_id=sub_live_streets&limit=3', { cookie: reviewer });
    const [a, b] = (pulled.body.data.items as { submission_id: string }[]).map((s) => s.submission_id);
    const adopted = await t.call('POST', `/v1/live/items/${a}/adopt`, { cookie: reviewer, body: { subscription_id: 'sub_live_streets' } });
    expect(adopted.status).toBe(200);
    expect(adopted.body).toEqual({ ok: true, submission_id: a, feedback: 'adopt', hub: { state: 'sent', decision_id: expect.any(String) } });
    expect(liveFeedback(a!)).toBe('adopt');
    for (const body of [undefined, '{not json', { reason: 'no subscription' }, ['sub_live_streets']]) {
      const bad = await t.call('POST', `/v1/live/items/${b}/dispute`, { cookie: reviewer, body });
      expect(bad.status).toBe(400);
      expect(bad.body.errorCode).toBe('INVALID_BODY');
    }
    expect(await decisionsOf(b!)).toEqual([]);
    await sentOrRefused(a!);
    const disputed = await t.call('POST', `/v1/live/items/${b}/dispute`, { cookie: reviewer, body: { subscription_id: 'sub_live_streets', reason: 'blurry' } });
    expect(disputed.status).toBe(200);
    expect(liveFeedback(b!)).toBe('dispute');
    await sentOrRefused(b!);
    expect((await decisionsOf(b!))[0]).toMatchObject({ state: 'sent', reason: 'blurry', charged: 0 });
  });

  it('vendor unreachable: 202 with the vendor’s success shape and hub.state queued; delivered exactly once when it is back', async () => {
    const [item] = await pullItems(t, reviewer, 'sub_sim_support', 1);
    const live = await t.call('GET', '/v1/live/pull?subscription_id=sub_live_support&limit=1', { cookie: reviewer });
    const submission = live.body.data.items[0].submission_id as string;
    gate.shut();
    const queued = await adopt(item!.id);
    expect(queued.status).toBe(202);
    expect(queued.body).toEqual({ ok: true, item_id: item!.id, status: 'adopted', hub: { state: 'queued', decision_id: expect.any(String) } });
    const liveQueued = await t.call('POST', `/v1/live/items/${submission}/dispute`, { cookie: reviewer, body: { subscription_id: 'sub_live_support' } });
    expect(liveQueued.status).toBe(202);
    expect(liveQueued.body).toEqual({ ok: true, submission_id: submission, feedback: 'dispute', hub: { state: 'queued', decision_id: expect.any(String) } });
    // The sender keeps trying while the vendor is away; a repeat from the browser is the same queued decision.
    await eventually(async () => ((await decisionsOf(item!.id))[0]!.attempts >= 3 ? true : undefined));
    const repeat = await adopt(item!.id);
    expect(repeat.status).toBe(202);
    expect(repeat.body.hub).toEqual(queued.body.hub);
    expect(vendorStatus(item!.id)).toBe('pending');
    // Between two attempts the row is queued; during one the sender has it as sending.
    const waiting = (await decisionsOf(item!.id))[0]!;
    expect(['queued', 'sending']).toContain(waiting.state);
    expect(waiting.outcome).toBe('UPSTREAM_UNREACHABLE');

    gate.open();
    await eventually(async () =>
      (await decisionsOf(item!.id))[0]!.state === 'sent' && (await decisionsOf(submission))[0]!.state === 'sent' ? true : undefined,
    );
    expect(vendorStatus(item!.id)).toBe('adopted');
    expect(liveFeedback(submission)).toBe('dispute');
    expect(posted(`/data/items/${item!.id}/adopt`)).toBe(1);
    expect((await adoptReceipts(vendor.url, vendor.credentials.api_key)).get(item!.id)).toEqual([item!.price]);
    const after = await adopt(item!.id);
    expect(after.status).toBe(200);
    expect(after.body).toEqual({ ok: true, item_id: item!.id, status: 'adopted', hub: { state: 'sent', decision_id: queued.body.hub.decision_id } });
    expect(await auditOf(item!.id)).toEqual(['v1.adopt accepted', 'decision.send ok']);
  });

  it('a vendor refusal (4xx) is handed on as it is, recorded refused and audited; the item stays free', async () => {
    const [item] = await pullItems(t, reviewer, 'sub_sim_product', 1);
    // Decided outside the hub: the vendor refuses the other decision.
    await fetch(`${vendor.url}/v1/data/items/${item!.id}/dispute`, { method: 'POST', headers: { Authorization: `Bearer ${vendor.credentials.api_key}` } });
    const refused = await adopt(item!.id);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, errorCode: 'FEEDBACK_CONFLICT' });
    expect(refused.body.hub).toBeUndefined();
    await sentOrRefused(item!.id);
    expect((await decisionsOf(item!.id))[0]).toMatchObject({ state: 'refused', response_status: 409, outcome: 'FEEDBACK_CONFLICT' });
    expect(await auditOf(item!.id)).toEqual(['v1.adopt accepted', 'decision.send FEEDBACK_CONFLICT']);
    // A refused decision holds nothing: the team's dispute goes up, and the vendor has it already.
    const dispute = await t.call('POST', `/v1/data/items/${item!.id}/dispute`, { cookie: reviewer });
    expect(dispute.status).toBe(200);
    expect(vendorStatus(item!.id)).toBe('disputed');
  });

  // SQLite commits without an fsync (WAL, synchronous NORMAL): what the hub answers it keeps is synced first.
  if (engine === 'sqlite')
    it('a queued decision is in the database file itself when the 202 is answered, not only in the WAL a power loss can take', async () => {
      const [item] = await pullItems(t, reviewer, 'sub_sim_support', 1);
      gate.shut();
      const queued = await adopt(item!.id);
      gate.open();
      expect(queued.status).toBe(202);
      // The main file alone, as it would be found if the OS lost what it had not written.
      const copy = join(t.dataDir, 'main-file-only.db');
      copyFileSync(join(t.dataDir, 'hub.db'), copy);
      const file = new Database(copy);
      const row = file.prepare('SELECT item_id, kind FROM decisions WHERE id = ?').get(queued.body.hub.decision_id);
      file.close();
      expect(row).toMatchObject({ item_id: item!.id, kind: 'adopt' });
    });

  // SQLite's own lock: PostgreSQL's outage is decisions-db-down.test.ts.
  if (engine === 'sqlite')
    it('database locked beyond its timeout: 503 DATABASE_UNAVAILABLE, nothing sent; the same adopt goes through after', async () => {
      const [item] = await pullItems(t, reviewer, 'sub_sim_retail', 1);
      const other = new Database(join(t.dataDir, 'hub.db'));
      other.exec('BEGIN IMMEDIATE');
      const locked = await adopt(item!.id);
      other.exec('ROLLBACK');
      other.close();
      expect(locked.status).toBe(503);
      expect(locked.body.errorCode).toBe('DATABASE_UNAVAILABLE');
      expect(posted(`/data/items/${item!.id}/adopt`)).toBe(0);
      const later = await adopt(item!.id);
      expect(later.status).toBe(200);
      expect(vendorStatus(item!.id)).toBe('adopted');
    });
});
