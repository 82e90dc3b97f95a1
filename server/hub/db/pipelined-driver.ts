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
 * - A transaction's last batch may carry its COMMIT (`batchQuery(…, { commit: true })`): one round
 *   trip for the last writes and the commit. The batch answers only once the COMMIT has: it throws
 *   the first failed statement's error (the server then answered the COMMIT with ROLLBACK: nothing
 *   was kept), else the COMMIT's own failure, or a COMMIT answered ROLLBACK. The transaction is over
 *   either way: a statement after it on the connection is refused (it would run outside the
 *   transaction), the transaction's end sends no COMMIT or ROLLBACK of its own, and Kysely's commit
 *   only hands on the batch's outcome.
 *
 * Kysely runs one query at a time on a connection; a batch is one query to it, carried as a
 * CompiledQuery whose `batch` lists the statements. `onRoundTrip` hears each write to the server
 * (statements sent together, BEGIN included, joined by ";\n"): tests count round trips with it.
 */

const BATCH = Symbol('batch');
const COMMIT = Symbol('commit');

type BatchQuery = CompiledQuery & { [BATCH]: readonly CompiledQuery[]; [COMMIT]: boolean };

/**
 * Statements run in order, as one query to Kysely; `rows` of its result are each statement's result,
 * in order. With `commit`, the transaction's COMMIT goes last, in the same round trip (see above).
 */
export function batchQuery(queries: readonly CompiledQuery[], options: { commit?: boolean } = {}): CompiledQuery {
  const commit = options.commit === true;
  const sql = [...queries.map((q) => q.sql), ...(commit ? ['commit'] : [])].join(';\n');
  // A copy: Kysely's compiled queries are frozen.
  return { ...CompiledQuery.raw(sql), [BATCH]: queries, [COMMIT]: commit } as BatchQuery;
}

/** A COMMIT sent with a transaction's last batch was answered ROLLBACK with no statement of the batch failing. */
class RolledBackAtCommit extends Error {
  constructor() {
    super('the transaction was rolled back at its COMMIT');
    this.name = 'RolledBackAtCommit';
  }
}

const isBatch = (query: CompiledQuery): query is BatchQuery => BATCH in query;

class PipelinedConnection implements DatabaseConnection {
  /** A BEGIN on the wire whose answer nobody has waited for yet. */
  #begun: { sql: string; answer: Promise<unknown> } | null = null;
  /** The transaction's COMMIT, sent with its last batch: its outcome (rejected when nothing was kept). */
  #ended: Promise<void> | null = null;

  constructor(
    readonly inner: DatabaseConnection,
    readonly onRoundTrip?: (sql: string) => void,
  ) {}

  begin(sql: string): void {
    this.#ended = null;
    const answer = this.inner.executeQuery(CompiledQuery.raw(sql));
    // Waited for by the next statement (or the transaction's end), which reports its failure.
    answer.catch(() => undefined);
    this.#begun = { sql, answer };
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // Run now, it would be a statement of its own outside the transaction, which the caller believes it is in.
    if (this.#ended) throw new Error('the transaction ended with the COMMIT sent with its last statements: no statement may follow it');
    const begun = this.#begun;
    this.#begun = null;
    this.onRoundTrip?.(begun ? `${begun.sql};\n${query.sql}` : query.sql);
    const running = isBatch(query) ? this.#batch<R>(query[BATCH], query[COMMIT]) : this.inner.executeQuery<R>(query);
    if (begun) {
      running.catch(() => undefined);
      await begun.answer;
    }
    return running;
  }

  async #batch<R>(queries: readonly CompiledQuery[], commit: boolean): Promise<QueryResult<R>> {
    // All written before any answer is read: pipeline mode sends each at once.
    const sent = queries.map((q) => this.inner.executeQuery(q));
    let ended: Promise<void> | null = null;
    if (commit) {
      // PostgreSQL answers a COMMIT after a failed statement with the tag ROLLBACK, not an error.
      ended = this.inner.executeQuery(CompiledQuery.raw('commit')).then(({ rows }) => {
        if ((rows[0] as { command?: unknown } | undefined)?.command !== 'COMMIT') throw new RolledBackAtCommit();
      });
      ended.catch(() => undefined);
      this.#ended = ended;
    }
    const settled = await Promise.allSettled(sent);
    // The batch answers once its COMMIT has: nothing is reported kept before it is.
    const outcome =
      ended &&
      (await ended.then(
        () => null,
        (error: unknown) => ({ error }),
      ));
    // A failed statement is the cause (the COMMIT's ROLLBACK only follows from it).
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    if (outcome) throw outcome.error;
    return { rows: settled.map((s) => (s as PromiseFulfilledResult<QueryResult<unknown>>).value) as R[] };
  }

  /** The outcome of a COMMIT sent with the last batch, if one was (then the transaction is over); null otherwise. */
  takeEnded(): Promise<void> | null {
    const ended = this.#ended;
    this.#ended = null;
    return ended;
  }

  /** Waits for a BEGIN no statement followed (a transaction that ran none), so its failure is not lost. */
  async settle(): Promise<void> {
    const begun = this.#begun;
    this.#begun = null;
    if (begun) await begun.answer;
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (this.#ended) throw new Error('the transaction ended with the COMMIT sent with its last statements: no statement may follow it');
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
    // A transaction's end always takes it; never carried to the connection's next user all the same.
    connection.takeEnded();
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
    // Committed with its last batch, which already answered: its outcome, no second COMMIT.
    const ended = pipelined.takeEnded();
    if (ended) return ended;
    await pipelined.settle();
    pipelined.onRoundTrip?.('commit');
    await this.inner.commitTransaction(pipelined.inner);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const pipelined = connection as PipelinedConnection;
    // Over already: the COMMIT sent with the last batch was answered (ROLLBACK when a statement of it
    // failed, which is why the transaction's code threw). Nothing is left to roll back.
    const ended = pipelined.takeEnded();
    if (ended) return ended.catch(() => undefined);
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
