import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeDecisionQuery } from '../../hub/store/decisions';
import type { HubTables } from '../../hub/db/schema';
import { throwawayStore } from './postgres';

/*
 * The hub's statements are prepared once per PostgreSQL connection (server/hub/db/named-statements.ts):
 * seen here in the server's own list of the connection's prepared statements, and in what a
 * prepared statement does once its table changes under it (another hub migrating the database).
 */

describe('statements prepared once per connection (PostgreSQL)', () => {
  let opened: Awaited<ReturnType<typeof throwawayStore>> | undefined;
  let db: Kysely<HubTables>;

  beforeAll(async () => {
    opened = await throwawayStore('hub-named-');
    db = opened.store.db;
  });
  afterAll(() => opened?.close());

  /** This connection's prepared statements whose text mentions `marker`, with how often each ran as a generic or a custom plan. */
  const preparedOn = async (conn: Kysely<HubTables>, marker: string) =>
    (
      await sql<{ statement: string; runs: number }>`
        select statement, generic_plans + custom_plans as runs from pg_prepared_statements where statement like ${`%${marker}%`}`.execute(conn)
    ).rows.filter((row) => !row.statement.includes('pg_prepared_statements'));

  it('prepares a repeated statement once on its connection and runs it from there on', async () => {
    await db.connection().execute(async (conn) => {
      for (let i = 0; i < 3; i++) {
        const rows = await conn.selectFrom('members').select('email').where('email', '=', `named-${i}@example.com`).execute();
        expect(rows).toEqual([]);
      }
      const prepared = await preparedOn(conn, 'from "members"');
      expect(prepared).toHaveLength(1);
      expect(prepared[0]!.statement).toMatch(/^select "email" from "members" where "email" = \$1$/);
      expect(Number(prepared[0]!.runs)).toBe(3);
    });
  });

  it('leaves transaction control and schema changes unnamed', async () => {
    await db.connection().execute(async (conn) => {
      await conn.transaction().execute(async (trx) => {
        await sql`create table named_probe (id integer)`.execute(trx);
        await sql`drop table named_probe`.execute(trx);
      });
      expect(await preparedOn(conn, 'named_probe')).toEqual([]);
      expect(await preparedOn(conn, 'begin')).toEqual([]);
    });
  });

  it('a statement prepared before its table changed fails once, then is prepared again against the new table', async () => {
    const other = new pg.Client({ connectionString: opened!.database.url });
    await other.connect();
    try {
      await other.query('create table named_changing (id integer)');
      await other.query('insert into named_changing values (1)');
      await db.connection().execute(async (conn) => {
        const read = () => sql<Record<string, unknown>>`select * from named_changing where id = ${1}`.execute(conn);
        expect((await read()).rows).toEqual([{ id: 1 }]);
        // Another hub's migration adds a column: the prepared `select *` would now answer another shape.
        await other.query("alter table named_changing add column label text default 'x'");
        await expect(read()).rejects.toMatchObject({ code: '0A000' });
        expect((await read()).rows).toEqual([{ id: 1, label: 'x' }]);
      });
    } finally {
      await other.end();
    }
  });

  it('an item’s standing decision is read through its partial unique index even by a generic plan', async () => {
    // The statement as the hub prepares it, planned the way PostgreSQL plans it once it keeps one
    // plan for every run (no parameter values known), with sequential scans priced out.
    const { sql: text } = activeDecisionQuery(db, 'data', 'x').compile();
    await db.connection().execute(async (conn) => {
      await sql`set plan_cache_mode = force_generic_plan`.execute(conn);
      await sql`set enable_seqscan = off`.execute(conn);
      try {
        await sql.raw(`prepare standing as ${text}`).execute(conn);
        const plan = await sql<{ 'QUERY PLAN': string }>`explain execute standing('data', 'x')`.execute(conn);
        expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/decisions_item/);
      } finally {
        await sql`deallocate standing`.execute(conn);
        await sql`reset plan_cache_mode`.execute(conn);
        await sql`reset enable_seqscan`.execute(conn);
      }
    });
  });

  it('a statement the server dropped (DEALLOCATE) fails once, then is prepared again', async () => {
    await db.connection().execute(async (conn) => {
      const read = () => conn.selectFrom('members').select('id').where('email', '=', 'dropped@example.com').execute();
      expect(await read()).toEqual([]);
      await sql`deallocate all`.execute(conn);
      await expect(read()).rejects.toMatchObject({ code: '26000' });
      expect(await read()).toEqual([]);
      expect(await preparedOn(conn, 'from "members"')).toHaveLength(1);
    });
  });
});
