import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHubStore, type HubStore } from '../../hub/db/open';
import { appendAudit, verifyAudit } from '../../hub/store/audit';
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
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'hub-writers-'));
    if (engine === 'postgres') database = await throwawayDatabase();
    hub = await openHubStore({ dataDir, databaseUrl: database?.url });
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
