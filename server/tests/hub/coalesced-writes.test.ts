import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inOrder } from '../../hub/db/in-order';
import type { HubTables } from '../../hub/db/schema';
import { throwawayStore } from './postgres';

/*
 * The hub's PostgreSQL pool writes the statements it sends together (a BEGIN with the first
 * statement, a batch of `inOrder`) to its socket once (server/hub/db/coalesced-writes.ts), not once
 * each: counted here as the writes the socket makes to the kernel while they go out.
 */

describe('writes to PostgreSQL', () => {
  let opened: Awaited<ReturnType<typeof throwawayStore>> | undefined;
  let db: Kysely<HubTables>;

  beforeAll(async () => {
    opened = await throwawayStore('hub-writes-');
    db = opened.store.db;
    // A pooled client connected and known to the server before anything is counted.
    await sql`select 1`.execute(db);
  });
  afterAll(() => opened?.close());

  /** How many writes every socket of this process made while `run` ran. */
  async function writesDuring(run: () => Promise<unknown>): Promise<number> {
    const proto = Socket.prototype as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
    const [write, writev] = [proto._write, proto._writev];
    let writes = 0;
    proto._write = function (this: unknown, ...args: unknown[]) {
      writes++;
      return write.apply(this, args);
    };
    proto._writev = function (this: unknown, ...args: unknown[]) {
      writes++;
      return writev.apply(this, args);
    };
    try {
      await run();
    } finally {
      proto._write = write;
      proto._writev = writev;
    }
    return writes;
  }

  it('sends a transaction’s BEGIN and a batch of statements with parameters in one write, and its COMMIT in one more', async () => {
    const writes = await writesDuring(() =>
      db.transaction().execute(async (trx) => {
        const results = await inOrder(trx, [
          sql`select ${1}::int as n`,
          sql`select ${2}::int as n`,
          sql`select 'three' as n`,
          trx.selectFrom('members').select('id').where('email', '=', 'nobody@example.test'),
        ]);
        expect(results.map((r) => (r!.rows[0] as { n?: unknown } | undefined)?.n)).toEqual([1, 2, 'three', undefined]);
      }),
    );
    expect(writes).toBe(2);
  });

  it('still sends a statement alone at once, and the next one after its answer', async () => {
    const writes = await writesDuring(async () => {
      expect((await sql<{ n: number }>`select ${7}::int as n`.execute(db)).rows).toEqual([{ n: 7 }]);
      expect((await sql<{ n: number }>`select ${8}::int as n`.execute(db)).rows).toEqual([{ n: 8 }]);
    });
    expect(writes).toBe(2);
  });
});
