import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from './schema';

/*
 * One numbered list of migrations for both engines, run at every start (and by every CLI command)
 * inside one transaction each: a failed one leaves nothing half-made. The column types are those
 * both engines read back the same way (text, integer, bigint).
 */

export const GENESIS = '0'.repeat(64);

function initial(engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('members')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('admin', 'reviewer', 'viewer')`))
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('removed_at', 'bigint')
        .execute();
      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('member_id', 'text', (c) => c.notNull().references('members.id'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_member').on('sessions').column('member_id').execute();
      await db.schema
        .createTable('signin_throttle')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('locked_until', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('access_tokens')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('member_id', 'text', (c) => c.notNull().references('members.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('last4', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull().check(sql`scope in ('read', 'decide')`))
        .addColumn('subscriptions', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('access_tokens_member').on('access_tokens').column('member_id').execute();
      await db.schema
        .createTable('audit')
        .addColumn('seq', 'bigint', (c) => c.primaryKey())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('via', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target', 'text')
        .addColumn('subscription_id', 'text')
        .addColumn('item_id', 'text')
        .addColumn('amount_micros', 'bigint')
        .addColumn('reason', 'text')
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('details', 'text')
        .addColumn('prev_hash', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_at').on('audit').column('at').execute();
      await db.schema
        .createTable('audit_head')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .execute();
      await sql`insert into audit_head (id, seq, hash) values (1, 0, ${GENESIS})`.execute(db);
      // Rows are never updated or deleted by the hub; the triggers say so to anyone else with SQL.
      // They are a fence, not the guarantee: someone who can drop them is caught by the chain.
      if (engine === 'sqlite') {
        await sql`create trigger audit_no_update before update on audit begin select raise(abort, 'audit rows are append-only'); end`.execute(db);
        await sql`create trigger audit_no_delete before delete on audit begin select raise(abort, 'audit rows are append-only'); end`.execute(db);
      } else {
        await sql`create function audit_append_only() returns trigger language plpgsql as $$ begin raise exception 'audit rows are append-only'; end $$`.execute(
          db,
        );
        await sql`create trigger audit_no_change before update or delete on audit for each row execute function audit_append_only()`.execute(db);
      }
    },
  };
}

/**
 * The vendor keys the hub holds (encrypted: server/hub/vendor-cipher.ts), and the simulated items
 * pulled through it: their subscription and price, which an adopt's path does not carry.
 */
const vendorKeys: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('vendor_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('subscriptions', 'text', (c) => c.notNull())
      .addColumn('key_sealed', 'text', (c) => c.notNull())
      .addColumn('jwt_sealed', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('rotated_at', 'bigint')
      .execute();
    await db.schema
      .createTable('pulled_items')
      .addColumn('item_id', 'text', (c) => c.primaryKey())
      .addColumn('subscription_id', 'text', (c) => c.notNull())
      .addColumn('price_micros', 'bigint')
      .addColumn('pulled_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};

/**
 * hubdec: the durable decision queue (one active decision per item: a refused or dropped one
 * leaves the item free), the holds of adopts over a budget, and the budgets.
 */
const hubdecDecisions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('decisions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('family', 'text', (c) => c.notNull().check(sql`family in ('data', 'live')`))
      .addColumn('item_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('adopt', 'dispute')`))
      .addColumn('subscription_id', 'text')
      .addColumn('reason', 'text')
      .addColumn('body', 'text')
      .addColumn('price_micros', 'bigint')
      .addColumn('receipt_micros', 'bigint')
      .addColumn('charged', 'integer', (c) => c.notNull())
      .addColumn('member_id', 'text', (c) => c.notNull().references('members.id'))
      .addColumn('via', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('held', 'queued', 'sending', 'sent', 'refused', 'dropped')`))
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
      .addColumn('claimed_until', 'bigint')
      .addColumn('counted_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('sent_at', 'bigint')
      .addColumn('response_status', 'integer')
      .addColumn('response_body', 'text')
      .addColumn('outcome', 'text')
      .execute();
    // The item's one decision: the index, not a read-then-insert, is what keeps it one.
    await sql`create unique index decisions_item on decisions (family, item_id) where state not in ('refused', 'dropped')`.execute(db);
    await db.schema.createIndex('decisions_due').on('decisions').columns(['state', 'next_attempt_at']).execute();
    await db.schema.createIndex('decisions_counted').on('decisions').columns(['counted_at']).execute();
    await db.schema
      .createTable('holds')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('decision_id', 'text', (c) => c.notNull().unique().references('decisions.id'))
      .addColumn('limit_name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('resolved_at', 'bigint')
      .addColumn('resolved_by', 'text')
      .addColumn('resolution', 'text')
      .execute();
    await db.schema
      .createTable('budget_limits')
      .addColumn('scope', 'text', (c) => c.notNull().check(sql`scope in ('organization', 'subscription', 'member')`))
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('daily_micros', 'bigint')
      .addColumn('monthly_micros', 'bigint')
      .addPrimaryKeyConstraint('budget_limits_pk', ['scope', 'target'])
      .execute();
  },
};

/** Team settings (hubteam): small JSON documents by name, the reason codes and the lots every member sees. */
const hubteamSettings: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('team_settings')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_by', 'text')
      .execute();
  },
};

/** The subscriptions the team reviews: what the console's connection is made of in hub mode. */
const teamSubscriptions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('team_subscriptions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('label', 'text')
      .addColumn('position', 'integer', (c) => c.notNull())
      .execute();
  },
};

/**
 * The vendor's usage receipts (4.7) as the hub last read them, each once by its id: the hub's own
 * (matched to a decision, or a pull it forwarded) or spend outside the hub; and when they were read.
 */
const hubvendorReceipts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('vendor_receipts')
      .addColumn('receipt_id', 'text', (c) => c.primaryKey())
      .addColumn('subscription_id', 'text')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('item_id', 'text')
      .addColumn('amount_micros', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('seen_at', 'bigint', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('hub', 'outside')`))
      .addColumn('decision_id', 'text')
      .execute();
    await db.schema.createIndex('vendor_receipts_outside').on('vendor_receipts').columns(['source', 'created_at']).execute();
    await db.schema
      .createTable('vendor_sync')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('synced_at', 'bigint')
      .addColumn('attempted_at', 'bigint', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .execute();
  },
};

/** Sampling lots shared by the team (hublots): the console's lot value as JSON, with a revision for safe updates. */
const hublotsLots: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('lots')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('subscription_id', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('revision', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_by', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('lots_created').on('lots').columns(['created_at', 'id']).execute();
  },
};

/**
 * The shared inbox (issue 26): every item delivered through the hub, once, whoever pulled it and
 * however it came (a member's pull, the hub's scheduled pull, a re-read, pending or delivery
 * items), as the vendor delivered it (redacted). `seq` numbers a subscription's items in the order
 * they were kept: `inbox_heads` holds each subscription's last one, and whoever keeps items locks
 * that row first, so seqs are never reused or committed out of order (a reader's cursor skips none).
 */
const sharedInbox: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('inbox_items')
      .addColumn('family', 'text', (c) => c.notNull().check(sql`family in ('data', 'live')`))
      .addColumn('item_id', 'text', (c) => c.notNull())
      .addColumn('subscription_id', 'text', (c) => c.notNull())
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('price_micros', 'bigint')
      .addColumn('arrived_at', 'bigint', (c) => c.notNull())
      .addColumn('arrived_how', 'text', (c) => c.notNull())
      .addColumn('arrived_by', 'text')
      .addPrimaryKeyConstraint('inbox_items_pk', ['family', 'item_id'])
      .execute();
    await db.schema.createIndex('inbox_items_seq').on('inbox_items').columns(['subscription_id', 'seq']).unique().execute();
    await db.schema
      .createTable('inbox_heads')
      .addColumn('subscription_id', 'text', (c) => c.primaryKey())
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .execute();
  },
};

/**
 * Overlap (issue 26): each member's adopt or dispute as their vote (one per member and item, changed
 * until the team decides), the team's overlap N and rule per subscription, and where each voted
 * item stands (open, decided by the rule, with the lead, settled by the lead).
 */
const overlapVotes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('votes')
      .addColumn('family', 'text', (c) => c.notNull())
      .addColumn('item_id', 'text', (c) => c.notNull())
      .addColumn('member_id', 'text', (c) => c.notNull())
      .addColumn('subscription_id', 'text')
      .addColumn('vote', 'text', (c) => c.notNull().check(sql`vote in ('adopt', 'dispute')`))
      .addColumn('reason', 'text')
      .addColumn('body', 'text')
      .addColumn('price_micros', 'bigint')
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('first_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('votes_pk', ['family', 'item_id', 'member_id'])
      .execute();
    await db.schema.createIndex('votes_member_at').on('votes').columns(['member_id', 'at']).execute();
    await db.schema
      .createTable('vote_items')
      .addColumn('family', 'text', (c) => c.notNull())
      .addColumn('item_id', 'text', (c) => c.notNull())
      .addColumn('subscription_id', 'text')
      .addColumn('needed', 'integer', (c) => c.notNull())
      .addColumn('rule', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('open', 'decided', 'lead', 'settled')`))
      .addColumn('outcome', 'text')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('settled_by', 'text')
      .addPrimaryKeyConstraint('vote_items_pk', ['family', 'item_id'])
      .execute();
    await db.schema.createIndex('vote_items_state').on('vote_items').columns(['state', 'updated_at']).execute();
    await db.schema
      .createTable('overlap_settings')
      .addColumn('subscription_id', 'text', (c) => c.primaryKey())
      .addColumn('overlap', 'integer', (c) => c.notNull())
      .addColumn('rule', 'text', (c) => c.notNull().check(sql`rule in ('unanimous', 'majority')`))
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_by', 'text')
      .execute();
  },
};

/**
 * The team's incremental pulls (issue 26, inbox): one row per subscription, claimed by the hub
 * process pulling it (`claim_id` until `claimed_until`), so hubs on one database never pull one
 * subscription at once; `lost` marks a pull whose answer never arrived (the next claim recovers
 * first); `every_minutes` the schedule (null: off).
 */
const inboxPulls: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('inbox_pulls')
      .addColumn('subscription_id', 'text', (c) => c.primaryKey())
      .addColumn('every_minutes', 'integer')
      .addColumn('last_pulled_at', 'bigint')
      .addColumn('claim_id', 'text')
      .addColumn('claimed_until', 'bigint')
      .addColumn('lost', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};

/**
 * The change stream's wake-up across hub processes (server/hub/live/pg-listen.ts): on PostgreSQL
 * every statement appending audit rows NOTIFYs `hub_audit`, delivered when its transaction commits
 * (never for one rolled back). SQLite has no such thing: each hub polls audit_head instead.
 */
const liveAuditNotify = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    if (engine !== 'postgres') return;
    await sql`create function audit_notify() returns trigger language plpgsql as $$ begin perform pg_notify('hub_audit', ''); return null; end $$`.execute(db);
    await sql`create trigger audit_notify after insert on audit for each statement execute function audit_notify()`.execute(db);
  },
});

/** A text column the queue filters on, read from the inbox payload's field (null when absent). */
const payloadText = (engine: Engine, field: string) =>
  engine === 'postgres' ? `(payload::jsonb ->> '${field}')` : `(case when json_valid(payload) then cast(json_extract(payload, '$.${field}') as text) end)`;
const payloadNumber = (engine: Engine, field: string) =>
  engine === 'postgres'
    ? `(case when jsonb_typeof(payload::jsonb -> '${field}') = 'number' then (payload::jsonb ->> '${field}')::double precision end)`
    : `(case when json_valid(payload) and json_type(payload, '$.${field}') in ('integer', 'real') then json_extract(payload, '$.${field}') end)`;

/**
 * The team queue (issue 26, leases): one lease row per item ever leased (its holder, batch and
 * expiry; a new take overwrites an ended or expired one under a guarded upsert, so two hubs never
 * hold one item), the idle time per subscription, and the items view's filter fields as columns
 * of the inbox computed from the payload (stored on PostgreSQL, virtual on SQLite) so the queue is
 * filtered and counted by index rather than by parsing a million payloads.
 */
function leasesQueue(engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('leases')
        .addColumn('family', 'text', (c) => c.notNull())
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('subscription_id', 'text', (c) => c.notNull())
        .addColumn('batch_id', 'text', (c) => c.notNull())
        .addColumn('member_id', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('active', 'released', 'expired', 'revoked')`))
        .addColumn('taken_at', 'bigint', (c) => c.notNull())
        .addColumn('renewed_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('ended_at', 'bigint')
        .addPrimaryKeyConstraint('leases_pk', ['family', 'item_id'])
        .execute();
      await db.schema.createIndex('leases_batch').on('leases').columns(['batch_id']).execute();
      await db.schema.createIndex('leases_live').on('leases').columns(['subscription_id', 'state', 'expires_at']).execute();
      await db.schema
        .createTable('lease_settings')
        .addColumn('subscription_id', 'text', (c) => c.primaryKey())
        .addColumn('idle_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_by', 'text', (c) => c.notNull())
        .execute();
      const kind = engine === 'postgres' ? 'stored' : 'virtual';
      const columns: [string, 'text' | 'number', string][] = [
        ['q_quality', 'number', 'quality_score'],
        ['q_task', 'text', 'task_id'],
        ['q_source', 'text', 'source'],
        ['q_grade', 'text', 'quality_grade'],
        ['q_vertical', 'text', 'vertical_id'],
        ['q_topic', 'text', 'topic_id'],
      ];
      for (const [name, type, field] of columns) {
        const expression = type === 'number' ? payloadNumber(engine, field) : payloadText(engine, field);
        const sqlType = type === 'number' ? (engine === 'postgres' ? 'double precision' : 'real') : 'text';
        await sql.raw(`alter table inbox_items add column ${name} ${sqlType} generated always as (${expression}) ${kind}`).execute(db);
      }
      // The queue reads a subscription's items in seq order; the common filters narrow by quality and task.
      await db.schema.createIndex('inbox_items_quality').on('inbox_items').columns(['subscription_id', 'q_quality']).execute();
      await db.schema.createIndex('inbox_items_task').on('inbox_items').columns(['subscription_id', 'q_task', 'seq']).execute();
    },
  };
}

/**
 * The queue's state on the inbox row itself: `decided` (1 while the item has a decision
 * that is not refused or dropped) and `leased_until` (its live lease's expiry, 0 for none), kept
 * exact by triggers on `decisions`, `leases` and `inbox_items` in the writer's own transaction.
 * A take then checks each item it passes over on its own row (or in the partial index of the
 * undecided items, when the planner picks it), instead of probing `leases` and `decisions` for
 * every item before the first free one (10,000 probes, 61 ms, once 10,000 items were leased:
 * now 5 ms); the counts read one covering index
 * (PostgreSQL) instead of joining a million rows to both tables. On PostgreSQL a take's
 * `FOR UPDATE SKIP LOCKED` re-check now sees a concurrent take's lease on the row it locked.
 */
function queueState(engine: Engine): Migration {
  const decidedNow = (row: string) =>
    `(case when exists (select 1 from decisions d where d.family = ${row}.family and d.item_id = ${row}.item_id and d.state not in ('refused', 'dropped')) then 1 else 0 end)`;
  const leasedNow = (row: string) =>
    `coalesce((select l.expires_at from leases l where l.family = ${row}.family and l.item_id = ${row}.item_id and l.state = 'active'), 0)`;
  const statements =
    engine === 'postgres'
      ? [
          `create function inbox_queue_decided() returns trigger language plpgsql as $$ begin
             update inbox_items set decided = ${decidedNow('new')} where family = new.family and item_id = new.item_id;
             return null; end $$`,
          `create trigger decisions_queue_insert after insert on decisions for each row execute function inbox_queue_decided()`,
          `create trigger decisions_queue_update after update of state on decisions for each row
             when ((old.state in ('refused', 'dropped')) is distinct from (new.state in ('refused', 'dropped'))) execute function inbox_queue_decided()`,
          `create function inbox_queue_leased() returns trigger language plpgsql as $$ begin
             update inbox_items set leased_until = case when new.state = 'active' then new.expires_at else 0 end
               where family = new.family and item_id = new.item_id;
             return null; end $$`,
          `create trigger leases_queue after insert or update on leases for each row execute function inbox_queue_leased()`,
          `create function inbox_queue_arrived() returns trigger language plpgsql as $$ begin
             new.decided := ${decidedNow('new')}; new.leased_until := ${leasedNow('new')}; return new; end $$`,
          `create trigger inbox_queue_arrived before insert on inbox_items for each row execute function inbox_queue_arrived()`,
        ]
      : [
          `create trigger decisions_queue_insert after insert on decisions begin
             update inbox_items set decided = ${decidedNow('new')} where family = new.family and item_id = new.item_id; end`,
          `create trigger decisions_queue_update after update of state on decisions
             when (old.state in ('refused', 'dropped')) <> (new.state in ('refused', 'dropped')) begin
             update inbox_items set decided = ${decidedNow('new')} where family = new.family and item_id = new.item_id; end`,
          `create trigger leases_queue_insert after insert on leases begin
             update inbox_items set leased_until = case when new.state = 'active' then new.expires_at else 0 end where family = new.family and item_id = new.item_id; end`,
          `create trigger leases_queue_update after update on leases begin
             update inbox_items set leased_until = case when new.state = 'active' then new.expires_at else 0 end where family = new.family and item_id = new.item_id; end`,
          `create trigger inbox_queue_arrived after insert on inbox_items begin
             update inbox_items set decided = ${decidedNow('new')}, leased_until = ${leasedNow('new')} where family = new.family and item_id = new.item_id; end`,
        ];
  return {
    async up(db: Kysely<unknown>) {
      await sql`alter table inbox_items add column decided integer not null default 0`.execute(db);
      await sql`alter table inbox_items add column leased_until bigint not null default 0`.execute(db);
      await sql.raw(`update inbox_items set decided = ${decidedNow('inbox_items')}, leased_until = ${leasedNow('inbox_items')}`).execute(db);
      for (const statement of statements) await sql.raw(statement).execute(db);
      // The take: the undecided items in seq order, the lease's expiry checked in the index.
      await sql`create index inbox_items_queue on inbox_items (subscription_id, seq, leased_until) where decided = 0`.execute(db);
      // The counts: every filter field and the queue state in one index, read without the rows.
      if (engine === 'postgres')
        await sql`create index inbox_items_counts on inbox_items (subscription_id) include (decided, leased_until, q_quality, price_micros, q_task, q_source, q_grade, q_vertical, q_topic)`.execute(
          db,
        );
    },
  };
}

/** The quality bucket of a score (hundredths, clamped to [0, 1]; -1 for none): queue-counts.ts computes the same. */
const qualityBucket = (engine: Engine, score: string) =>
  engine === 'postgres'
    ? `(case when ${score} is null then -1 else trunc(least(greatest(${score}, 0), 1) * 100)::integer end)`
    : `(case when ${score} is null then -1 else cast(min(max(${score}, 0.0), 1.0) * 100 as integer) end)`;

/**
 * The queue counted without counting a million rows (issue 26 item 9: <= 200 ms at 1,000,000):
 * `inbox_counts` holds, per subscription and per combination of the list filters' fields and
 * quality bucket, how many items there are and how many are decided, kept by triggers on
 * `inbox_items` in the writer's own transaction. The bucket is a column of the row too
 * (`q_bucket`), so a quality range is the whole buckets inside it read from `inbox_counts` plus
 * the rows of its two edge buckets checked one by one: exact, whatever the bound. What is leased
 * cannot be a stored counter (a lease ends by the clock, with no write), so it is counted from
 * the rows of a partial index that holds only the undecided items whose lease has not ended (an
 * expired one stays until the next take sweeps it): a few thousand at most.
 * Absent list fields are '' in `inbox_counts` (a key column cannot be null there, and the
 * filters' lists never hold an empty value).
 */
function queueCounts(engine: Engine): Migration {
  const keys = 'subscription_id, q_task, q_source, q_grade, q_vertical, q_topic, q_bucket';
  const keyOf = (row: string) =>
    `${row}subscription_id, coalesce(${row}q_task, ''), coalesce(${row}q_source, ''), coalesce(${row}q_grade, ''), coalesce(${row}q_vertical, ''), coalesce(${row}q_topic, ''), ${row}q_bucket`;
  const grouped = (from: string, sign: string) =>
    `select ${keyOf('')}, ${sign}count(*), ${sign}sum(decided) from ${from} group by 1, 2, 3, 4, 5, 6, 7 order by 1, 2, 3, 4, 5, 6, 7`;
  const upsert = (rows: string) =>
    `insert into inbox_counts (${keys}, total, decided) ${rows}
       on conflict (${keys}) do update set total = inbox_counts.total + excluded.total, decided = inbox_counts.decided + excluded.decided`;
  const changed = 'old.decided <> new.decided or old.payload <> new.payload or old.subscription_id <> new.subscription_id';
  const statements =
    engine === 'postgres'
      ? [
          // Per statement: a pull's thousands of rows are one upsert per group, taken in key order.
          `create function inbox_counts_added() returns trigger language plpgsql as $$ begin
             ${upsert(grouped('added', ''))}; return null; end $$`,
          `create trigger inbox_counts_insert after insert on inbox_items referencing new table as added for each statement execute function inbox_counts_added()`,
          `create function inbox_counts_removed() returns trigger language plpgsql as $$ begin
             ${upsert(grouped('removed', '-'))}; return null; end $$`,
          `create trigger inbox_counts_delete after delete on inbox_items referencing old table as removed for each statement execute function inbox_counts_removed()`,
          // Per row, and only when what is counted changed (a lease's writes to the row fire nothing).
          `create function inbox_counts_changed() returns trigger language plpgsql as $$ begin
             ${upsert(
               `select k1, k2, k3, k4, k5, k6, k7, sum(t), sum(d) from (values (${keyOf('old.')}, -1, -old.decided), (${keyOf('new.')}, 1, new.decided))
                  as v (k1, k2, k3, k4, k5, k6, k7, t, d) group by 1, 2, 3, 4, 5, 6, 7 having sum(t) <> 0 or sum(d) <> 0 order by 1, 2, 3, 4, 5, 6, 7`,
             )}; return null; end $$`,
          `create trigger inbox_counts_update after update of decided, payload, subscription_id on inbox_items for each row
             when (${changed}) execute function inbox_counts_changed()`,
        ]
      : [
          `create trigger inbox_counts_insert after insert on inbox_items begin
             ${upsert(`values (${keyOf('new.')}, 1, new.decided)`)}; end`,
          `create trigger inbox_counts_delete after delete on inbox_items begin
             ${upsert(`values (${keyOf('old.')}, -1, -old.decided)`)}; end`,
          `create trigger inbox_counts_update after update of decided, payload, subscription_id on inbox_items when ${changed} begin
             ${upsert(`values (${keyOf('old.')}, -1, -old.decided)`)};
             ${upsert(`values (${keyOf('new.')}, 1, new.decided)`)}; end`,
        ];
  return {
    async up(db: Kysely<unknown>) {
      const kind = engine === 'postgres' ? 'stored' : 'virtual';
      await sql
        .raw(
          `alter table inbox_items add column q_bucket integer generated always as (${qualityBucket(engine, payloadNumber(engine, 'quality_score'))}) ${kind}`,
        )
        .execute(db);
      await db.schema
        .createTable('inbox_counts')
        .addColumn('subscription_id', 'text', (c) => c.notNull())
        .addColumn('q_task', 'text', (c) => c.notNull())
        .addColumn('q_source', 'text', (c) => c.notNull())
        .addColumn('q_grade', 'text', (c) => c.notNull())
        .addColumn('q_vertical', 'text', (c) => c.notNull())
        .addColumn('q_topic', 'text', (c) => c.notNull())
        .addColumn('q_bucket', 'integer', (c) => c.notNull())
        .addColumn('total', 'bigint', (c) => c.notNull())
        .addColumn('decided', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('inbox_counts_pk', ['subscription_id', 'q_task', 'q_source', 'q_grade', 'q_vertical', 'q_topic', 'q_bucket'])
        .execute();
      await sql.raw(`insert into inbox_counts (${keys}, total, decided) ${grouped('inbox_items', '')}`).execute(db);
      for (const statement of statements) await sql.raw(statement).execute(db);
      // A quality range's two edge buckets, read row by row (on PostgreSQL from the index alone).
      await sql
        .raw(
          `create index inbox_items_bucket on inbox_items (subscription_id, q_bucket)${
            engine === 'postgres' ? ' include (decided, q_quality, q_task, q_source, q_grade, q_vertical, q_topic)' : ''
          }`,
        )
        .execute(db);
      // The leased: only the undecided rows whose lease has not ended.
      await sql`create index inbox_items_leased on inbox_items (subscription_id, leased_until) where decided = 0 and leased_until > 0`.execute(db);
    },
  };
}

/**
 * Where the team's incremental pulls stand (issue 26, a lost pull's recovery): `position_item` is
 * the last item of the last live page the hub kept, which is as far as it knows the vendor's
 * position; `lost` becomes how many items lost answers may have taken (it was 0 or 1). A
 * recovery then keeps only that many items past the position, not the subscription's whole history.
 */
const pullPosition: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('inbox_pulls').addColumn('position_item', 'text').execute();
    await sql`update inbox_pulls set lost = 200 where lost > 0`.execute(db);
  },
};

/**
 * A member's live leases of a subscription, for the take's per-member cap (server/hub/store/leases.ts
 * `heldBy`): without it the count read every live lease of the subscription (`leases_live`) and kept
 * the member's. At 10,000 items leased to others and 150 to the member (an ad-hoc script, load
 * average ~10): PostgreSQL 2.4 → 0.7 ms (EXPLAIN ANALYZE), SQLite 2.1 → 0.23 ms.
 */
const leasesMember: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('leases_member').on('leases').columns(['member_id', 'subscription_id', 'state', 'expires_at']).execute();
  },
};

/** Applies every pending migration; throws (nothing applied) when one fails. */
export async function migrate(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const migrations: Record<string, Migration> = {
    '0001_initial': initial(engine),
    '0002_vendor_keys': vendorKeys,
    '0003_decisions': hubdecDecisions,
    '0004_team_settings': hubteamSettings,
    '0005_team_subscriptions': teamSubscriptions,
    '0006_vendor_receipts': hubvendorReceipts,
    '0007_team_lots': hublotsLots,
    '0008_shared_inbox': sharedInbox,
    '0009_overlap_votes': overlapVotes,
    '0010_live_audit_notify': liveAuditNotify(engine),
    '0011_inbox_pulls': inboxPulls,
    '0012_leases_queue': leasesQueue(engine),
    '0013_queue_state': queueState(engine),
    '0014_queue_counts': queueCounts(engine),
    '0015_pull_position': pullPosition,
    '0016_leases_member': leasesMember,
  };
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
