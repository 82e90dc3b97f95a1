import Database from 'libsql';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestHub, type TestHub } from './hub-harness';
import { eventually, holdVendorKey, pullItems, startVendor, type Vendor } from './decisions-kit';

/*
 * The hub's work per request, counted (the added latency of issue 25 is mostly this on
 * PostgreSQL): on SQLite the statements, on PostgreSQL the round trips (statements sent together
 * in pipeline mode are one: server/hub/db/pipelined-driver.ts). Counted from the request to the
 * end of what it set off (a decision's record of the vendor's answer, after the answer), read
 * through a connection of the test's own so that the waiting is not counted.
 */

describe.each(ENGINES)('work per request on %s', (engine) => {
  let vendor: Vendor;
  let t: TestHub;
  let reviewer = '';
  let log: string[] | null = null;
  let sendsRecorded: (itemId: string) => Promise<number>;
  let closeReader = async () => {};

  beforeAll(async () => {
    vendor = await startVendor();
    // The sender's poll is kept out of the counts: a decision here is sent by its request.
    t = await startTestHub(engine, { upstream: vendor.url, retry: { baseMs: 1_000, maxMs: 1_000, pollMs: 3_600_000 }, onQuery: (sql) => log?.push(sql) });
    await holdVendorKey(t, await t.signIn(t.accounts.admin), vendor.credentials);
    reviewer = await t.signIn(t.accounts.reviewer1);
    // Every charged adopt goes through the budget check, as the benchmark's do.
    await t.hub.store.db.insertInto('budget_limits').values({ scope: 'organization', target: '', daily_micros: 1e12, monthly_micros: 1e12 }).execute();
    const count = "select count(*) as n from audit where action = 'decision.send' and item_id = ";
    if (engine === 'postgres') {
      const client = new pg.Client({ connectionString: t.databaseUrl });
      await client.connect();
      sendsRecorded = async (itemId) => Number((await client.query(`${count}$1`, [itemId])).rows[0].n);
      closeReader = () => client.end();
    } else {
      const reader = new Database(join(t.dataDir, 'hub.db'), { readonly: true });
      sendsRecorded = async (itemId) => Number((reader.prepare(`${count}?`).get(itemId) as { n: number }).n);
      closeReader = async () => {
        reader.close();
      };
    }
  });
  afterAll(async () => {
    await closeReader();
    await t?.close();
    await vendor?.close();
  });

  /** What the hub ran for `request` until `settled` holds. */
  const counted = async (request: () => Promise<{ status: number }>, settled: () => Promise<boolean> = async () => true) => {
    log = [];
    const answer = await request();
    await eventually(settled);
    const seen = log;
    log = null;
    expect(answer.status).toBe(200);
    return seen;
  };
  const decide = async (itemId: string, kind: 'adopt' | 'dispute') =>
    counted(
      () => t.call('POST', `/v1/data/items/${itemId}/${kind}`, { cookie: reviewer }),
      async () => (await sendsRecorded(itemId)) === 1,
    );

  // Before → after the pipelined driver and the batched statements (issue 25), PostgreSQL round
  // trips: pull 8 → 5, adopt 19 → 9, dispute 17 → 8 (of which the session and, on another
  // connection at the same time, the vendor keys with a simulated item's price are 2, and a
  // decision's record of the vendor's answer 3 after the answer). SQLite's statements are as many
  // as before. Then adopt 9 → 8: a simulated adopt's ledger lock and reads sent with the item's.
  // Then pull 5 → 4, adopt and dispute 8 → 6: each transaction's COMMIT sent with its last writes
  // (the decision's before the vendor is called, and its record of the answer after it).
  // Then pull 4 → 3, adopt and dispute 6 → 5: /v1's session lookup sent with the vendor keys and
  // the item's price, on one connection (one idle server process woken, not two).
  // Then pull 3 → 2: the items not yet in the inbox are inserted, numbered, by one statement sent
  // behind the head's lock, not read first (store/inbox.ts); on SQLite that is one statement more
  // (the head moved past them, whether any were new or not), each in process.
  const expected = engine === 'postgres' ? { pull: 2, adopt: 5, dispute: 5, me: 1 } : { pull: 10, adopt: 19, dispute: 17, me: 1 };

  it('a pull, an adopt, a dispute and the floor (GET /hub/v1/me) each do their known share of work', async () => {
    // The first pull keeps the items (and the audit head becomes this process's); the counted one finds them kept.
    const items = await pullItems(t, reviewer, 'sub_sim_retail', 5);
    const pull = await counted(() => t.call('GET', '/v1/data/pull?subscription_id=sub_sim_retail&limit=5', { cookie: reviewer }));
    const adopt = await decide(items[0]!.id, 'adopt');
    const dispute = await decide(items[1]!.id, 'dispute');
    const me = await counted(() => t.call('GET', '/hub/v1/me', { cookie: reviewer }));
    expect({ pull: pull.length, adopt: adopt.length, dispute: dispute.length, me: me.length }).toEqual(expected);
    if (engine !== 'postgres') return;
    // Who is asking, the vendor keys and (a decision's) the item as delivered: one round trip.
    for (const work of [pull, adopt, dispute]) expect(work.find((trip) => /from "sessions"/.test(trip))).toMatch(/from "vendor_keys"/);
    for (const decision of [adopt, dispute]) expect(decision.find((trip) => /from "sessions"/.test(trip))).toMatch(/from "pulled_items"/);
    // The writes that end each transaction and their audit row went out with its COMMIT, never alone after them.
    const ending = (work: string[], write: RegExp) => work.find((trip) => write.test(trip));
    expect(ending(pull, /insert into audit /)).toMatch(/;\ncommit$/);
    for (const decision of [adopt, dispute]) {
      expect(ending(decision, /insert into "decisions"/)).toMatch(/insert into audit [^]*;\ncommit$/);
      expect(ending(decision, /update "decisions" set "state"/)).toBeDefined();
      expect(decision.filter((trip) => /commit$/.test(trip))).toHaveLength(2);
    }
    expect([...pull, ...adopt, ...dispute].filter((trip) => trip === 'commit')).toEqual([]);
  });
});
