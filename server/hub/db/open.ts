import type { Kysely } from 'kysely';
import { UsageError } from '../../lib/service-error';
import { migrate } from './migrations';
import { openPostgres } from './postgres';
import type { Engine, HubTables } from './schema';
import { openSqlite } from './sqlite';

export interface HubStore {
  db: Kysely<HubTables>;
  engine: Engine;
  /** Where it is, without credentials: for the start-up line. */
  describe: string;
  close: () => Promise<void>;
}

/** `--database` when given (PostgreSQL), else the embedded file in the data directory; migrated. */
/**
 * Hears the store's work (tests count it per request): on SQLite every statement, BEGIN and COMMIT
 * included; on PostgreSQL every round trip, its statements joined by ";\n" (db/pipelined-driver.ts).
 */
export type QueryListener = (sql: string) => void;

export async function openHubStore(options: {
  dataDir: string;
  databaseUrl?: string;
  log?: (line: string) => void;
  onQuery?: QueryListener;
}): Promise<HubStore> {
  let store: HubStore;
  if (options.databaseUrl !== undefined) {
    const url = postgresUrl(options.databaseUrl);
    const db = openPostgres(url.href, options.log, options.onQuery);
    store = { db, engine: 'postgres', describe: `PostgreSQL ${url.host}${url.pathname}`, close: () => db.destroy() };
  } else {
    const db = openSqlite(options.dataDir, options.onQuery);
    store = { db, engine: 'sqlite', describe: `SQLite ${options.dataDir}/hub.db`, close: () => db.destroy() };
  }
  try {
    await migrate(store.db as Kysely<unknown>, store.engine);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

function postgresUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError('--database must be a postgres:// URL');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new UsageError('--database must be a postgres:// URL');
  return url;
}
