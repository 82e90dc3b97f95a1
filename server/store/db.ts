import Database from 'libsql';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS } from './migrations';

export type Db = InstanceType<typeof Database>;

export const DB_FILE = 'service.db';

/**
 * Opens (creating if needed) the data directory's database: WAL so the CLI can write
 * while the service reads, a busy timeout so concurrent writers wait instead of failing,
 * and pending migrations applied in one transaction.
 */
export function openDb(dataDir: string): Db {
  const file = join(dataDir, DB_FILE);
  restrictToOwner(dataDir, file);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  migrate(db);
  cacheStatements(db);
  return db;
}

/** Files of the data directory that hold keys' hashes, secrets and data: the owner's alone. */
export const PRIVATE_FILE_MODE = 0o600;
const PRIVATE_DIR_MODE = 0o700;

/**
 * The data directory holds the JWT and cursor secrets and the demo key, so it is 0700 and its
 * database 0600, tightened on every open (a directory made by an older version was 0755/0644).
 * The database file is created 0600 before SQLite opens it because SQLite gives its -wal and
 * -shm files the database's mode; existing ones are tightened too.
 */
function restrictToOwner(dataDir: string, file: string): void {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dataDir, PRIVATE_DIR_MODE);
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    if (existsSync(path)) chmodSync(path, PRIVATE_FILE_MODE);
  }
}

const STATEMENT_CACHE_SIZE = 512;

/**
 * Every request runs the same few statements: compile each SQL text once per connection
 * instead of on every call. Texts built from filters (IN lists) are bounded by the size cap.
 */
function cacheStatements(db: Db): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, ReturnType<typeof prepare>>();
  db.prepare = ((sql: string) => {
    let statement = cache.get(sql);
    if (!statement) {
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.clear();
      statement = prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  }) as Db['prepare'];
}

function migrate(db: Db): void {
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number };
  const applied = row.user_version;
  if (applied >= MIGRATIONS.length) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    for (let i = applied; i < MIGRATIONS.length; i++) db.exec(MIGRATIONS[i]!);
    db.exec(`PRAGMA user_version = ${MIGRATIONS.length}`);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/** Runs `fn` in a write transaction (BEGIN IMMEDIATE), committing on return, rolling back on throw. */
export function inTransaction<T>(db: Db, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
