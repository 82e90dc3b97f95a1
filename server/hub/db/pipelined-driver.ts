import {
  CompiledQuery,
  PostgresDialect,
  type DatabaseConnection,
  type Driver,
  type PostgresDialectConfig,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/*
 * PostgreSQL without a round trip per statement where none is needed. The pool's clients run in
 * node-postgres' pipeline mode (`pipeline: true`): a query is written to the socket at once, even
 * while the one before it is still running, and the server runs them in the order sent. Two uses:
 *
 * - A transaction's BEGIN is sent and not waited for: it goes out together with the transaction's
 *   first statement (one round trip for both). Its failure is still the transaction's: the first
 *   statement, or the COMMIT/ROLLBACK if none ran, waits for it and throws its error.
 * - `inOrder` (below): statements that need nothing from each other's answers, sent together and
 *   answered together. Each is still its own statement in the server (its own snapshot in READ
 *   COMMITTED, taken when it starts, after the ones before it ran): a read sent behind a lock
 *   statement reads what was committed by the time the lock was granted, as when it was sent after.
 *   Inside a transaction a failing one aborts it, so the ones after it fail too, as they would have.
 *
 * Kysely runs one query at a time on a connection; a batch is one query to it, carried as a
 * CompiledQuery whose `batch` lists the statements. `onRoundTrip` hears each write to the server
 * (statements sent together, BEGIN included, joined by ";\n"): tests count round trips with it.
 */

const BATCH = Symbol('batch');

type BatchQuery = CompiledQuery & { [BATCH]: readonly CompiledQuery[] };

/** Statements run in order, as one query to Kysely; `rows` of its result are each statement's result, in order. */
export function batchQuery(queries: readonly CompiledQuery[]): CompiledQuery {
  // A copy: Kysely's compiled queries are frozen.
  return { ...CompiledQuery.raw(queries.map((q) => q.sql).join(';\n')), [BATCH]: queries } as BatchQuery;
}

const isBatch = (query: CompiledQuery): query is BatchQuery => BATCH in query;

class PipelinedConnection implements DatabaseConnection {
  /** A BEGIN on the wire whose answer nobody has waited for yet. */
  #begun: { sql: string; answer: Promise<unknown> } | null = null;

  constructor(
    readonly inner: DatabaseConnection,
    readonly onRoundTrip?: (sql: string) => void,
  ) {}

  begin(sql: string): void {
    const answer = this.inner.executeQuery(CompiledQuery.raw(sql));
    // Waited for by the next statement (or the transaction's end), which reports its failure.
    answer.catch(() => undefined);
    this.#begun = { sql, answer };
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const begun = this.#begun;
    this.#begun = null;
    this.onRoundTrip?.(begun ? `${begun.sql};\n${query.sql}` : query.sql);
    const running = isBatch(query) ? this.#batch<R>(query[BATCH]) : this.inner.executeQuery<R>(query);
    if (begun) {
      running.catch(() => undefined);
      await begun.answer;
    }
    return running;
  }

  async #batch<R>(queries: readonly CompiledQuery[]): Promise<QueryResult<R>> {
    // All written before any answer is read: pipeline mode sends each at once.
    const settled = await Promise.allSettled(queries.map((q) => this.inner.executeQuery(q)));
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    return { rows: settled.map((s) => (s as PromiseFulfilledResult<QueryResult<unknown>>).value) as R[] };
  }

  /** Waits for a BEGIN no statement followed (a transaction that ran none), so its failure is not lost. */
  async settle(): Promise<void> {
    const begun = this.#begun;
    this.#begun = null;
    if (begun) await begun.answer;
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (this.#begun) throw new Error('a streamed query cannot follow a BEGIN not yet answered');
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class PipelinedDriver implements Driver {
  readonly #connections = new WeakMap<DatabaseConnection, PipelinedConnection>();

  constructor(
    readonly inner: Driver,
    readonly onRoundTrip?: (sql: string) => void,
  ) {}

  init() {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await this.inner.acquireConnection();
    let connection = this.#connections.get(inner);
    if (!connection) this.#connections.set(inner, (connection = new PipelinedConnection(inner, this.onRoundTrip)));
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let sql = 'begin';
    if (settings.isolationLevel || settings.accessMode) {
      sql = 'start transaction';
      if (settings.isolationLevel) sql += ` isolation level ${settings.isolationLevel}`;
      if (settings.accessMode) sql += ` ${settings.accessMode}`;
    }
    (connection as PipelinedConnection).begin(sql);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const pipelined = connection as PipelinedConnection;
    await pipelined.settle();
    pipelined.onRoundTrip?.('commit');
    await this.inner.commitTransaction(pipelined.inner);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const pipelined = connection as PipelinedConnection;
    // A BEGIN that failed left nothing to roll back; the ROLLBACK is sent all the same (harmless).
    await pipelined.settle().catch(() => undefined);
    pipelined.onRoundTrip?.('rollback');
    await this.inner.rollbackTransaction(pipelined.inner);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection((connection as PipelinedConnection).inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** Kysely's PostgreSQL dialect over a pool in pipeline mode (the pool's clients must be made with `pipeline: true`). */
export class PipelinedPostgresDialect extends PostgresDialect {
  readonly #onRoundTrip?: (sql: string) => void;

  constructor(config: PostgresDialectConfig, onRoundTrip?: (sql: string) => void) {
    super(config);
    this.#onRoundTrip = onRoundTrip;
  }

  override createDriver(): Driver {
    return new PipelinedDriver(super.createDriver(), this.#onRoundTrip);
  }
}
