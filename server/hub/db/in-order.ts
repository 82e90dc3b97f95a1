import { PostgresAdapter, type Compilable, type CompiledQuery, type Kysely, type QueryResult, type RawBuilder } from 'kysely';
import { batchQuery } from './pipelined-driver';
import type { HubTables } from './schema';

/** A statement for inOrder: a query builder, a raw `sql` statement, or null for none (its result is then undefined). */
export type Statement = Compilable | RawBuilder<unknown> | null;

/**
 * Statements that need nothing from each other's answers, run in the order given: on PostgreSQL
 * sent together in one round trip (db/pipelined-driver.ts), on SQLite one after the other (in
 * process, no round trip to save). Their results in the same order; the first failure is thrown
 * (in a transaction it aborted the ones after it).
 *
 * `commit`: these are the transaction's last statements (`db` is the transaction). On PostgreSQL its
 * COMMIT goes with them and this answers once it has: on success the transaction is committed, on a
 * failure nothing of it was kept; either way no statement may follow. On SQLite the statements
 * run as above and the transaction commits when its callback returns, as any other.
 */
export async function inOrder(
  db: Kysely<HubTables>,
  statements: readonly Statement[],
  options: { commit?: boolean } = {},
): Promise<(QueryResult<unknown> | undefined)[]> {
  if (options.commit && !db.isTransaction) throw new Error("inOrder: a COMMIT is sent only with a transaction's last statements");
  const compiled = statements.map((s): CompiledQuery | null => (s === null ? null : 'isRawBuilder' in s ? s.compile(db) : s.compile()));
  const sent = compiled.filter((q): q is CompiledQuery => q !== null);
  let results: QueryResult<unknown>[];
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    results = sent.length === 0 && !options.commit ? [] : ((await db.executeQuery(batchQuery(sent, options))).rows as QueryResult<unknown>[]);
  else {
    results = [];
    for (const query of sent) results.push(await db.executeQuery(query));
  }
  let next = 0;
  return compiled.map((q) => (q === null ? undefined : results[next++]));
}
