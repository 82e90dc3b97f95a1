import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pullItems } from './decisions-kit';
import { openStream, type OpenStream } from './event-stream';
import { startTestHub, type TestHub } from './hub-harness';

/*
 * Which lock a decision waits for on PostgreSQL. Each item has its own (one decision per item,
 * however many ask at once); only a charged adopt also takes the ledger lock for its budget check.
 * So a dispute is answered, and seen on another console's stream, while the ledger is held (by a
 * budget PUT, the receipts sync, or a burst of adopts), and a charged adopt still waits for it.
 * PostgreSQL only: on SQLite every write transaction takes turns with every other (BEGIN IMMEDIATE),
 * so there is no narrower lock to hold.
 */

/** The hub's ledger lock (store/budgets.ts), as pg_locks shows a one-key advisory lock: its high and low 32 bits. */
const LEDGER = { classid: 0x6464, objid: 0x686c6564 };

describe('hub decision locks on postgres', () => {
  let t: TestHub;
  let reviewer1 = '';
  let reviewer2 = '';
  let observer: OpenStream | undefined;
  /** Another session of the store, to hold the ledger and to watch who waits for it. */
  let holder: pg.Client;
  let watcher: pg.Client;

  beforeAll(async () => {
    t = await startTestHub('postgres', { simulator: true });
    reviewer1 = await t.signIn(t.accounts.reviewer1);
    reviewer2 = await t.signIn(t.accounts.reviewer2);
    holder = new pg.Client({ connectionString: t.databaseUrl });
    watcher = new pg.Client({ connectionString: t.databaseUrl });
    await holder.connect();
    await watcher.connect();
  });
  afterAll(async () => {
    observer?.close();
    await holder?.end();
    await watcher?.end();
    await t?.close();
  });

  /** How many of the hub's transactions wait for the ledger lock now. */
  const waitingForLedger = async () =>
    Number(
      (
        await watcher.query<{ n: string }>(
          `select count(*) as n from pg_locks where locktype = 'advisory' and not granted and classid = $1 and objid = $2 and objsubid = 1`,
          [LEDGER.classid, LEDGER.objid],
        )
      ).rows[0]!.n,
    );

  /** The request's answer, or 'waits for the ledger' as soon as the hub's transaction does (whichever comes first). */
  async function answerOrLedgerWait<T>(request: Promise<T>): Promise<T | 'waits for the ledger'> {
    let answered = false;
    const waits = (async () => {
      while (!answered) {
        if ((await waitingForLedger()) > 0) return 'waits for the ledger' as const;
        await new Promise((done) => setTimeout(done, 20));
      }
      return new Promise<never>(() => undefined);
    })();
    try {
      return await Promise.race([request, waits]);
    } finally {
      answered = true;
    }
  }

  it('while the ledger is held, a dispute is answered and streamed; a charged adopt waits, then goes through', async () => {
    const [disputed, adopted] = await pullItems(t, reviewer1, 'sub_sim_retail', 2);
    const admin = await t.signIn(t.accounts.admin);
    observer = await openStream(`${t.url}/hub/v1/events`, { Cookie: admin });
    await observer.next((e) => e.event === 'ready');

    await holder.query('begin');
    await holder.query('select pg_advisory_xact_lock($1::bigint)', [LEDGER.classid * 2 ** 32 + LEDGER.objid]);
    try {
      const dispute = await answerOrLedgerWait(t.call('POST', `/v1/data/items/${disputed!.id}/dispute`, { cookie: reviewer1 }));
      expect(dispute === 'waits for the ledger' ? dispute : dispute.status).toBe(200);
      const seen = await observer.next((e) => e.event === 'change' && e.data.action === 'v1.dispute' && e.data.item_id === disputed!.id);
      expect(seen.data.outcome).toBe('accepted');

      const adopting = t.call('POST', `/v1/data/items/${adopted!.id}/adopt`, { cookie: reviewer1 });
      expect(await answerOrLedgerWait(adopting)).toBe('waits for the ledger');
      await holder.query('commit');
      expect((await adopting).status).toBe(200);
    } finally {
      await holder.query('rollback').catch(() => undefined);
    }
  });

  it('adopts and disputes of one item sent at once from two reviewers make one decision, and the others are told so', async () => {
    const [item] = await pullItems(t, reviewer1, 'sub_sim_support', 1);
    const asks = Array.from({ length: 12 }, (_, i) =>
      t.call('POST', `/v1/data/items/${item!.id}/${i % 2 ? 'dispute' : 'adopt'}`, { cookie: i % 3 ? reviewer1 : reviewer2 }),
    );
    const answers = await Promise.all(asks);
    const decided = (await t.hub.store.db.selectFrom('decisions').select(['kind', 'state']).where('item_id', '=', item!.id).execute()).filter(
      (d) => d.state !== 'refused' && d.state !== 'dropped',
    );
    expect(decided).toHaveLength(1);
    const kind = decided[0]!.kind;
    // The kind decided: the vendor's answer, or 202 for a repeat while it is being sent; the other kind: 409 ALREADY_DECIDED. Never a 500.
    for (const [i, answer] of answers.entries()) {
      const asked = i % 2 ? 'dispute' : 'adopt';
      if (asked === kind) expect([200, 202], answer.text).toContain(answer.status);
      else expect([answer.status, answer.body.errorCode]).toEqual([409, 'ALREADY_DECIDED']);
    }
  });
});
