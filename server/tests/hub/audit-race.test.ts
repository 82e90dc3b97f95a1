import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHubStore, type HubStore } from '../../hub/db/open';
import { appendAudit, verifyAudit } from '../../hub/store/audit';
import { ENGINES, startTestHub, type TestHub } from './hub-harness';
import { adoptReceipts, eventually, holdVendorKey, pullItems, startVendor, type Vendor } from './decisions-kit';

/*
 * A decision's writes and its audit row carry the transaction's COMMIT (store/audit.ts,
 * db/pipelined-driver.ts): the audit row is guessed to follow the head this hub wrote last. Here
 * another writer on the same store (a second hub, the CLI) moves the head before, and while, the
 * hub decides: each decision whose guess failed kept nothing the first time and ran again the
 * locked way. Every decision must still be answered, kept once, sent and charged once, and the
 * chain stay whole.
 */
describe.each(ENGINES)('decisions while another writer appends to the audit chain, on %s', (engine) => {
  let vendor: Vendor;
  let t: TestHub;
  let other: HubStore;
  let reviewer = '';
  let heard: string[] = [];

  beforeAll(async () => {
    vendor = await startVendor();
    t = await startTestHub(engine, { upstream: vendor.url, onQuery: (sql) => heard.push(sql) });
    await holdVendorKey(t, await t.signIn(t.accounts.admin), vendor.credentials);
    reviewer = await t.signIn(t.accounts.reviewer1);
    other = await openHubStore({ dataDir: t.dataDir, databaseUrl: t.databaseUrl });
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
    await vendor?.close();
  });

  let appended = 0;
  const appendOther = () =>
    other.db
      .transaction()
      .execute((trx) => appendAudit(trx, { actorId: null, via: 'test', action: 'settings.update', target: `other-${++appended}`, outcome: 'ok' }));
  const decide = (itemId: string, kind: 'adopt' | 'dispute') => t.call('POST', `/v1/data/items/${itemId}/${kind}`, { cookie: reviewer });
  const sentRecorded = (itemId: string) =>
    t.hub.store.db
      .selectFrom('audit')
      .select('seq')
      .where('action', '=', 'decision.send')
      .where('item_id', '=', itemId)
      .execute()
      .then((rows) => rows.length === 1);
  /** The hub's round trips (PostgreSQL) or statements (SQLite) that wrote a decision, since `heard` was emptied. */
  const decisionWrites = () => heard.filter((sql) => /insert into "decisions"/.test(sql)).length;

  it('answers, keeps, sends and charges each decision once, and keeps one chain', async () => {
    const items = await pullItems(t, reviewer, 'sub_sim_retail', 12);
    expect(items).toHaveLength(12);
    const kinds = items.map((_, i) => (i % 3 === 2 ? 'dispute' : 'adopt') as 'adopt' | 'dispute');

    // One at a time: the head moved just before each decision (its record of the vendor's answer
    // is in first, so the head the hub knows is its own until the other writer appends).
    for (const [i, item] of items.slice(0, 4).entries()) {
      await appendOther();
      heard = [];
      const answer = await decide(item.id, kinds[i]!);
      expect(answer.status, answer.text).toBe(200);
      // On PostgreSQL the first try (its writes sent with the COMMIT) kept nothing, and the second wrote them again.
      expect(decisionWrites()).toBe(engine === 'postgres' ? 2 : 1);
      await eventually(() => sentRecorded(item.id));
    }

    // At once: eight decisions and eight appends of the other writer racing for the head.
    const rest = items.slice(4);
    const [answers] = await Promise.all([Promise.all(rest.map((item, i) => decide(item.id, kinds[i + 4]!))), Promise.all(rest.map(() => appendOther()))]);
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    for (const item of items) await eventually(() => sentRecorded(item.id));

    // Kept once each, sent: the vendor answered every one.
    const decisions = await t.hub.store.db.selectFrom('decisions').select(['item_id', 'kind', 'state']).execute();
    expect(decisions.map((d) => `${d.item_id} ${d.kind} ${d.state}`).sort()).toEqual(items.map((item, i) => `${item.id} ${kinds[i]} sent`).sort());
    // Charged once each, by the vendor's own receipts.
    const receipts = await adoptReceipts(vendor.url, vendor.credentials.api_key);
    items.forEach((item, i) => expect(receipts.get(item.id), item.id).toEqual(kinds[i] === 'adopt' ? [item.price] : undefined));
    // One accepted row and one send row per decision, the other writer's twelve, and the chain whole.
    const rows = await t.hub.store.db.selectFrom('audit').select(['action', 'outcome', 'item_id', 'target']).execute();
    for (const [i, item] of items.entries()) {
      expect(rows.filter((r) => r.item_id === item.id && r.action === `v1.${kinds[i]}` && r.outcome === 'accepted')).toHaveLength(1);
      expect(rows.filter((r) => r.item_id === item.id && r.action === 'decision.send')).toHaveLength(1);
    }
    expect(rows.filter((r) => r.target?.startsWith('other-'))).toHaveLength(appended);
    expect(await verifyAudit(other.db)).toMatchObject({ ok: true, rows: rows.length });
  });
});
