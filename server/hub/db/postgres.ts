import { Kysely } from 'kysely';
import pg from 'pg';
import { coalesceWrites } from './coalesced-writes';
import { namedStatements } from './named-statements';
import { PipelinedPostgresDialect } from './pipelined-driver';
import type { HubTables } from './schema';

const INT8 = 20;

/** int8 (bigint columns: instants, seq, amounts) as a number, as SQLite returns it; pg gives a string otherwise. */
function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError('an int8 value beyond 2^53 cannot be read as a number');
  return n;
}

/**
 * The team store: a pool on `--database postgres://…`, its clients in pipeline mode (a transaction's
 * BEGIN and statements run in order go out together: db/pipelined-driver.ts). `onRoundTrip` hears
 * each write to the server.
 */
export function openPostgres(url: string, log?: (line: string) => void, onRoundTrip?: (sql: string) => void): Kysely<HubTables> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    pipeline: true,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8 ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client's error (the server restarted, the network dropped) is emitted on the pool;
  // without a listener Node treats it as unhandled and the hub exits. The next query reconnects.
  pool.on('error', (error) => log?.(`database connection lost: ${error.message}`));
  const name = namedStatements();
  // A client checked out between two queries of a transaction has no pool listener: its error
  // (the server gone mid-transaction) would be uncaught and end the hub. Its next query fails
  // instead (503), and the pool discards it on release.
  pool.on('connect', (client) => {
    client.on('error', (error) => log?.(`database connection lost: ${error.message}`));
    coalesceWrites(client);
    // Each statement parsed and planned once per connection (named-statements.ts).
    name(client);
  });
  return new Kysely<HubTables>({ dialect: new PipelinedPostgresDialect({ pool }, onRoundTrip) });
}
