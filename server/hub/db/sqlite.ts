import Database from 'libsql';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import {
  CompiledQuery,
  Kysely,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type SqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
import { queryLog } from './query-log';
import type { HubTables } from './schema';

/** The embedded store: one file in the data directory, beside the simulator's own `service.db`. */
const HUB_DB_FILE = 'hub.db';

type Raw = InstanceType<typeof Database>;

/** libsql 0.5 aborts the whole process (no exception) on a bound boolean: bind 0/1 instead. */
const bindable = (params: readonly unknown[]) => params.map((v) => (typeof v === 'boolean' ? Number(v) : v));

/** Distinct statements kept prepared; past it the cache starts again (a query built with a variable IN list is one per length). */
const MAX_STATEMENTS = 500;

/** Transaction control, run with exec rather than as a prepared statement (see below). */
const CONTROL = /^\s*(begin|commit|rollback)\b[\w\s]*$/i;

/** libsql's Database in the shape Kysely's SqliteDialect drives (it was written for better-sqlite3). */
function forKysely(raw: Raw): SqliteDatabase {
  // Prepared statements are kept by their text: the hub runs a few dozen distinct queries, and
  // preparing each anew was most of libsql's time per request. One that fails is dropped (and
  // prepared afresh next time), so no statement left in an error state is ever run again. What
  // Kysely is handed for one is kept with it, its `reader` read once (a call into libsql each time
  // it is asked, and Kysely asks on every run).
  const statements = new Map<string, SqliteStatement>();
  const keep = (query: string, statement: SqliteStatement) => {
    if (statements.size >= MAX_STATEMENTS) statements.clear();
    statements.set(query, statement);
    return statement;
  };
  const kept = (query: string) =>
    keep(
      query,
      forKyselyStatement(raw, query, () => statements.delete(query)),
    );
  const control = (query: string) => {
    const done = { changes: 0, lastInsertRowid: 0 };
    return keep(query, { reader: false, all: () => (raw.exec(query), []), run: () => (raw.exec(query), done), iterate: () => [][Symbol.iterator]() });
  };
  return {
    close: () => raw.close(),
    prepare(query: string) {
      // libsql does not reset a statement that failed: a `begin immediate` that timed out on
      // SQLITE_BUSY (another process writing) stays "in progress", and every later COMMIT on the
      // connection then fails. exec leaves no statement behind.
      return statements.get(query) ?? (CONTROL.test(query) ? control(query) : kept(query));
    },
  };
}

type SqliteStatement = ReturnType<SqliteDatabase['prepare']>;

/** One prepared statement as Kysely drives it; `forget` drops it from the cache when a run fails. */
function forKyselyStatement(raw: Raw, query: string, forget: () => void): SqliteStatement {
  const statement = raw.prepare(query);
  const guarded = <T>(run: () => T): T => {
    try {
      return run();
    } catch (error) {
      forget();
      throw error;
    }
  };
  return {
    reader: statement.reader,
    all: (params: readonly unknown[]) => guarded(() => statement.all(bindable(params)) as unknown[]),
    run: (params: readonly unknown[]) => guarded(() => statement.run(bindable(params)) as { changes: number; lastInsertRowid: number | bigint }),
    // A half-read iteration would hold the statement: a streamed query gets one of its own.
    iterate: (params: readonly unknown[]) => raw.prepare(query).iterate(bindable(params)) as IterableIterator<unknown>,
  };
}

/**
 * Kysely's SQLite dialect with two corrections: a transaction begins IMMEDIATE (a deferred one
 * that reads, then writes, fails with SQLITE_BUSY when the CLI wrote in between), and migrations
 * run in a transaction (SQLite has transactional DDL; Kysely assumes it does not).
 */
class HubSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver() {
    return new (class extends SqliteDriver {
      override async beginTransaction(connection: DatabaseConnection) {
        await connection.executeQuery(CompiledQuery.raw('begin immediate'));
      }
    })(this.#config);
  }
  override createAdapter() {
    return new (class extends SqliteAdapter {
      override get supportsTransactionalDdl() {
        return true;
      }
    })();
  }
}

/** Opens (creating) DIR/hub.db: owner-only, WAL (synchronous NORMAL), a busy timeout so the CLI and the hub wait for each other. */
export function openSqlite(dataDir: string, onQuery?: (sql: string) => void): Kysely<HubTables> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  const file = join(dataDir, HUB_DB_FILE);
  // Created 0600 before SQLite opens it: SQLite gives its -wal and -shm files the database's mode.
  closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(path)) chmodSync(path, 0o600);
  const raw = new Database(file);
  raw.pragma('journal_mode = WAL');
  // In WAL mode NORMAL syncs the log at checkpoints instead of at every commit: a commit is
  // durable across a crash or SIGKILL of the hub (it is in the WAL, which the OS holds), and only
  // an OS crash or power loss can take back the last commits. FULL's fsync per commit blocked
  // libsql's synchronous calls, and with them the event loop, for most of the hub's added latency.
  raw.pragma('synchronous = NORMAL');
  raw.pragma('busy_timeout = 5000');
  raw.pragma('foreign_keys = ON');
  return new Kysely<HubTables>({ dialect: new HubSqliteDialect({ database: forKysely(raw) }), ...queryLog(onQuery) });
}
