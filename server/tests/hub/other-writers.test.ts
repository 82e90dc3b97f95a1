import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHubStore, type HubStore } from '../../hub/db/open';
import { appendAudit, appendAuditAfter, auditedTransaction, verifyAudit, type AuditEntry } from '../../hub/store/audit';
import { addVendorKey, vendorKeyFor } from '../../hub/store/vendor-keys';
import { vendorCipher } from '../../hub/vendor-cipher';
import { ENGINES } from './hub-harness';
import { throwawayDatabase, type ThrowawayDatabase } from './postgres';

/*
 * What the hub keeps in memory to save round trips (the audit head it wrote last, opened vendor
 * keys) must never hide another writer: the CLI, or a second hub on the same PostgreSQL. Two
 * store handles on one database stand for the two processes.
 */
describe.each(ENGINES)('another writer on the same %s store', (engine) => {
  let dataDir = '';
  let database: ThrowawayDatabase | undefined;
  let hub: HubStore;
  let other: HubStore;
  /** The hub's work (db/open.ts: on PostgreSQL each round trip), while a test listens. */
  let heard: string[] | null = null;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'hub-writers-'));
    if (engine === 'postgres') database = await throwawayDatabase();
    hub = await openHubStore({ dataDir, databaseUrl: database?.url, onQuery: (sql) => heard?.push(sql) });
    other = await openHubStore({ dataDir, databaseUrl: database?.url });
  });
  afterAll(async () => {
    await other?.close();
    await hub?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  // Each append named by its target (the action is one the hub writes: appendAudit takes no other).
  const append = (store: HubStore, target: string) =>
    store.db.transaction().execute((trx) => appendAudit(trx, { actorId: null, via: 'test', action: 'settings.update', target, outcome: 'ok' }));

  it('keeps one audit chain when appends from two processes interleave, and after a rolled-back append', async () => {
    const seqs = [];
    for (const [store, target] of [
      [hub, 'a1'],
      [hub, 'a2'],
      [other, 'b1'],
      [hub, 'a3'],
      [other, 'b2'],
      [other, 'b3'],
      [hub, 'a4'],
    ] as const)
      seqs.push((await append(store, target)).seq);
    // An append whose transaction rolls back leaves the head this process remembers ahead of the stored one.
    await expect(
      hub.db.transaction().execute(async (trx) => {
        await appendAudit(trx, { actorId: null, via: 'test', action: 'settings.update', target: 'rolled-back', outcome: 'ok' });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    seqs.push((await append(hub, 'a5')).seq);
    expect(seqs).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const rows = await hub.db.selectFrom('audit').select(['seq', 'target']).orderBy('seq').execute();
    expect(rows.map((r) => r.target)).toEqual(['a1', 'a2', 'b1', 'a3', 'b2', 'b3', 'a4', 'a5']);
    expect(await verifyAudit(other.db)).toMatchObject({ ok: true, rows: 8 });
  });

  const entry = (target: string): AuditEntry => ({ actorId: null, via: 'test', action: 'settings.update', target, outcome: 'ok' });
  const limit = (target: string) => hub.db.insertInto('budget_limits').values({ scope: 'member', target, daily_micros: 1, monthly_micros: null });
  /** A write and its audit row ending a transaction (store/audit.ts): each run's `end` is kept in `runs`. */
  const audited = (store: HubStore, target: string, runs: boolean[], write = limit(target)) =>
    auditedTransaction(store.db, async (trx, end) => {
      runs.push(end.commitWithAudit);
      return appendAuditAfter(trx, [write], entry(target), Date.now(), end);
    });
  const chain = async () => (await hub.db.selectFrom('audit').select(['seq', 'target']).orderBy('seq').execute()).map((r) => `${r.seq} ${r.target}`);

  it('ends a transaction with its audited writes and COMMIT together, and runs it again the locked way when another writer moved the head', async () => {
    const before = (await chain()).length;
    // The hub knows the head: its write, the row and the COMMIT go together (one round trip on PostgreSQL).
    const first: boolean[] = [];
    heard = [];
    await audited(hub, 'c1', first);
    expect(first).toEqual([true]);
    if (engine === 'postgres') expect(heard).toEqual([expect.stringMatching(/^begin;\ninsert into "budget_limits"[^]*insert into audit [^]*;\ncommit$/)]);
    // Another process appends: the head the hub knows is gone. The first try keeps nothing (its
    // COMMIT was answered ROLLBACK), and the transaction runs again with the head read under its lock.
    await append(other, 'o1');
    const moved: boolean[] = [];
    heard = [];
    const row = await audited(hub, 'c2', moved);
    expect(moved).toEqual(engine === 'postgres' ? [true, false] : [true]);
    if (engine === 'postgres') {
      expect(heard[0]).toMatch(/insert into audit [^]*;\ncommit$/);
      // No ROLLBACK of its own after the first try: the server ended it at the COMMIT.
      expect(heard.slice(1)).toEqual([
        expect.stringMatching(/^begin;\ninsert into "budget_limits"[^]*insert into audit /),
        expect.stringMatching(/^update "audit_head" set "seq"/),
        expect.stringMatching(/^insert into "audit"/),
        expect.stringMatching(/^update "audit_head" set "hash"/),
        'commit',
      ]);
    }
    heard = null;
    expect(row.seq).toBe(before + 3);
    // The write once, its row once, the chain whole, read by the other process.
    expect(await hub.db.selectFrom('budget_limits').select('target').where('target', 'in', ['c1', 'c2']).orderBy('target').execute()).toEqual([
      { target: 'c1' },
      { target: 'c2' },
    ]);
    expect((await chain()).slice(before)).toEqual([`${before + 1} c1`, `${before + 2} o1`, `${before + 3} c2`]);
    expect(await verifyAudit(other.db)).toMatchObject({ ok: true, rows: before + 3 });
    // And the head is the hub's again: its next transaction ends in one round trip.
    const next: boolean[] = [];
    await audited(hub, 'c3', next);
    expect(next).toEqual([true]);
    expect(await verifyAudit(other.db)).toMatchObject({ ok: true, rows: before + 4 });
  });

  it('keeps nothing of a transaction whose write sent with the COMMIT fails, and surfaces that failure without running it again', async () => {
    const before = await chain();
    const runs: boolean[] = [];
    // c1's limit exists: the insert fails, the guarded append and the COMMIT after it are refused by the aborted transaction.
    await expect(audited(hub, 'c1', runs)).rejects.toMatchObject({ message: expect.stringMatching(/unique|UNIQUE/) });
    expect(runs).toEqual([true]);
    expect(await chain()).toEqual(before);
    // Fails the same with the head moved first: the write's own error, not a second try.
    await append(other, 'o2');
    const moved: boolean[] = [];
    await expect(audited(hub, 'c1', moved)).rejects.toMatchObject({ message: expect.stringMatching(/unique|UNIQUE/) });
    expect(moved).toEqual([true]);
    expect((await chain()).slice(before.length)).toEqual([`${before.length + 1} o2`]);
    expect(await verifyAudit(hub.db)).toMatchObject({ ok: true, rows: before.length + 1 });
  });

  // PostgreSQL only: SQLite sends no COMMIT with the writes (no test registered on SQLite, none skipped).
  if (engine === 'postgres')
    it('refuses a statement after the COMMIT sent with the last writes (it would run outside the transaction)', async () => {
      // The head is the hub's again (the test before moved it).
      await append(hub, 'h1');
      const before = await chain();
      await expect(
        hub.db.transaction().execute(async (trx) => {
          await appendAuditAfter(trx, [limit('late')], entry('late'), Date.now(), { commitWithAudit: true });
          await trx.selectFrom('audit_head').selectAll().execute();
        }),
      ).rejects.toThrow('no statement may follow');
      // What the COMMIT kept stays kept; nothing ran after it.
      expect(await chain()).toEqual([...before, `${before.length + 1} late`]);
      expect(await verifyAudit(other.db)).toMatchObject({ ok: true, rows: before.length + 1 });
    });

  it('forwards with a vendor key another process sealed anew at once, with no hook of this one called', async () => {
    const cipher = vendorCipher(Buffer.from('a-hub-secret-for-the-other-writer-tests-0123456789'));
    const first = `dds_live_sk_${'A'.repeat(32)}`;
    const next = `dds_live_sk_${'B'.repeat(32)}`;
    const row = await addVendorKey(hub.db, cipher, { name: 'main', key: first, subscriptions: ['*'] });
    if (!('id' in row)) throw new Error('the key was not added');
    expect((await vendorKeyFor(hub.db, cipher, 'sub_a'))?.key).toBe(first);
    // The other process writes the row itself (as the CLI's rotate or a re-encryption does), so nothing here is told.
    await other.db
      .updateTable('vendor_keys')
      .set({ key_sealed: cipher.seal(next, `${row.id}.key`) })
      .where('id', '=', row.id)
      .execute();
    expect((await vendorKeyFor(hub.db, cipher, 'sub_a'))?.key).toBe(next);
    await other.db.deleteFrom('vendor_keys').where('id', '=', row.id).execute();
    expect(await vendorKeyFor(hub.db, cipher, 'sub_a')).toBeNull();
  });
});
