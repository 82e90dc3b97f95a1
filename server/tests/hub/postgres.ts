import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openHubStore, type HubStore } from '../../hub/db/open';

/*
 * A throwaway PostgreSQL database per test file. HUB_TEST_DATABASE_URL names a server and a role
 * that may CREATE DATABASE (CI's .ci/run sets it up); without it, the machine's PostgreSQL 15 is
 * used, started and given the `hub_test` role first when this runs as root (peer auth as postgres).
 * When no PostgreSQL can be reached the PostgreSQL tests fail: they are never skipped.
 */

const DEFAULT_URL = 'postgres://hub_test:hub_test@127.0.0.1:5432/postgres';

const CREATE_ROLE = `DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'hub_test') THEN CREATE ROLE hub_test LOGIN CREATEDB PASSWORD 'hub_test'; END IF; END $$`;

async function canConnect(url: string): Promise<Error | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    return null;
  } catch (error) {
    return error as Error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The machine's cluster, started and given the test role (root only: `su postgres` for peer auth). */
function startLocalCluster(): void {
  execFileSync('pg_ctlcluster', ['15', 'main', 'start'], { stdio: 'ignore' });
}

function createTestRole(): void {
  execFileSync('su', ['postgres', '-c', `psql -v ON_ERROR_STOP=1 -qc "${CREATE_ROLE.replaceAll('$', '\\$')}"`], { stdio: 'ignore' });
}

async function adminUrl(): Promise<string> {
  const url = process.env.HUB_TEST_DATABASE_URL ?? DEFAULT_URL;
  let failure = await canConnect(url);
  if (failure && process.env.HUB_TEST_DATABASE_URL === undefined && process.getuid?.() === 0) {
    try {
      startLocalCluster();
    } catch {
      /* already running, or not installed: the role step and the retry tell */
    }
    try {
      createTestRole();
    } catch {
      /* reported by the retry below */
    }
    failure = await canConnect(url);
  }
  if (failure)
    throw new Error(`PostgreSQL is not reachable for the hub's tests (${failure.message}): run .ci/run's PostgreSQL step, or set HUB_TEST_DATABASE_URL`);
  return url;
}

export interface ThrowawayDatabase {
  url: string;
  drop: () => Promise<void>;
}

export async function throwawayDatabase(options: { durableCommits?: boolean } = {}): Promise<ThrowawayDatabase> {
  const admin = await adminUrl();
  const name = `hub_test_${randomBytes(6).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  // A test's commits need not reach the disk: the database outlives every hub a test kills, so an
  // acknowledged commit is never lost to it, and each flush costs 3–5 ms on this machine. The
  // benchmarks measure what a team's hub pays, with the server's durable default.
  if (!options.durableCommits) await run(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => dropDatabase(run, name) };
}

/** PostgreSQL's code for a refused privilege: here, a backend this role may not terminate. */
const INSUFFICIENT_PRIVILEGE = '42501';

/**
 * Drops the database, ending the connections a test left (a killed hub's, a pool not yet closed).
 * FORCE fails as a whole when an autovacuum worker is at work in the database: it is the server's
 * process, which this role may not terminate (CI failed on it, once in a few runs). Then this role's
 * own backends are ended, and a plain DROP stops the autovacuum worker itself (PostgreSQL cancels
 * those for a DROP DATABASE) and waits, up to 5 s, for the ended backends to exit.
 */
async function dropDatabase(run: (statement: string) => Promise<void>, name: string): Promise<void> {
  try {
    await run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } catch (error) {
    if ((error as { code?: unknown }).code !== INSUFFICIENT_PRIVILEGE) throw error;
    await run(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND usename = current_user AND pid <> pg_backend_pid()`);
    await run(`DROP DATABASE IF EXISTS ${name}`);
  }
}

/** The hub's own store (its pool, migrated, as the hub opens it) on a throwaway database; `close` closes it and drops the database. */
export async function throwawayStore(prefix: string): Promise<{ store: HubStore; database: ThrowawayDatabase; close: () => Promise<void> }> {
  const database = await throwawayDatabase();
  const store = await openHubStore({ dataDir: mkdtempSync(join(tmpdir(), prefix)), databaseUrl: database.url });
  return {
    store,
    database,
    close: async () => {
      await store.close();
      await database.drop();
    },
  };
}
