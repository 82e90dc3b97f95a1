import { sql, type Kysely, type SqlBool } from 'kysely';
import { LEASE_LIMITS, type QueueFilters } from '../../../src/api/contract/hub-leases';
import { newId } from '../../lib/ids';
import type { Engine, HubTables, LeasesTable } from '../db/schema';
import { shaped } from '../db/shaped';
import { filterConditions, type InboxEb } from './queue-filters';

/**
 * The queue's partial indexes (`inbox_items_queue`, `inbox_items_leased`) hold undecided items,
 * `where decided = 0`: written as that literal, so a plan PostgreSQL keeps for a prepared statement
 * (db/named-statements.ts) can still use them, which a bound parameter's generic plan could not.
 */
const undecided = sql<SqlBool>`i.decided = 0`;

/*
 * The team queue over the shared inbox (issue 26): an item is in the queue while the team has not
 * decided it (no decision but a refused or dropped one) and no live lease holds it (state active,
 * expiry ahead). A take picks the first such items by seq and writes their leases with a guarded
 * upsert: a lease row is overwritten only when it has ended or expired, so of two takes racing
 * for one item (two hub processes on one PostgreSQL) one gets it and the other moves on. On
 * PostgreSQL the candidates are read `FOR UPDATE SKIP LOCKED`, so concurrent takes mostly pick
 * disjoint items to begin with instead of colliding on the upsert. Whether an item is decided or
 * leased is read from its inbox row (`decided`, `leased_until`), which triggers keep exact in the
 * writer's transaction (migration 0013), so a take reads one index instead of three tables.
 */

type Db = Kysely<HubTables>;

/**
 * The most undecided items of one subscription a member may hold at once (issue 26). Without it
 * two takes of 200 leased a whole subscription to one reviewer, and everyone else found the queue
 * empty until the leases ran out. 200 is the largest batch a take gives: a reviewer always gets a
 * full batch of any size from an empty hand, and more than that is more than anyone reviews within
 * the default idle time (600 s, at a few seconds an item).
 */
export const MEMBER_HOLD_CAP = 200;

/**
 * How many undecided items of the subscription the member holds under live leases (call inside the
 * take's transaction). On PostgreSQL a lock per member and subscription makes two takes of one
 * member count in turn (else both would see room and pass the cap together); SQLite's write
 * transaction is already one at a time.
 */
export async function heldBy(db: Db, engine: Engine, subscriptionId: string, memberId: string, now: number): Promise<number> {
  if (engine === 'postgres') await sql`select pg_advisory_xact_lock(${HOLD_LOCK}, hashtext(${`${subscriptionId}\n${memberId}`}))`.execute(db);
  // The member's live leases (index leases_member), each item's `decided` looked up by its key: a
  // join let PostgreSQL hash the whole inbox once its statistics said nearly every row is undecided.
  const row = await db
    .selectFrom('leases as l')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('l.member_id', '=', memberId)
    .where('l.subscription_id', '=', subscriptionId)
    .where('l.state', '=', 'active')
    .where('l.expires_at', '>', now)
    .where((eb) => eb.selectFrom('inbox_items as i').select('i.decided').whereRef('i.family', '=', 'l.family').whereRef('i.item_id', '=', 'l.item_id'), '=', 0)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
/** An arbitrary constant naming the per-member hold lock ("ddhh"). */
const HOLD_LOCK = 0x64646868;
type ItemRef = { family: 'data' | 'live'; item_id: string };

/** Ends the subscription's leases whose idle time ran out: what each batch lost (for its `lease.expire` audit row). */
export async function expireLeases(db: Db, engine: Engine, subscriptionId: string, now: number) {
  // Only one hub sweeps a subscription at a time; a take that finds the sweep busy goes on (an
  // expired lease reads as free anyway), rather than two sweeps locking the same rows in turn.
  if (engine === 'postgres') {
    const { rows } = await sql<{ ok: boolean }>`select pg_try_advisory_xact_lock(${SWEEP_LOCK}, hashtext(${subscriptionId})) as ok`.execute(db);
    if (!rows[0]?.ok) return [];
  }
  const ended = await db
    .updateTable('leases')
    .set({ state: 'expired', ended_at: now })
    .where('subscription_id', '=', subscriptionId)
    .where('state', '=', 'active')
    .where('expires_at', '<=', now)
    .returning(['batch_id', 'member_id', 'item_id'])
    .execute();
  return byBatch(ended);
}
/** An arbitrary constant naming the queue's sweep lock ("ddhq"). */
const SWEEP_LOCK = 0x64646871;

function byBatch(rows: { batch_id: string; member_id: string; item_id: string }[]) {
  const batches = new Map<string, { batch_id: string; member_id: string; item_ids: string[] }>();
  for (const r of rows) {
    const batch = batches.get(r.batch_id) ?? { batch_id: r.batch_id, member_id: r.member_id, item_ids: [] };
    batch.item_ids.push(r.item_id);
    batches.set(r.batch_id, batch);
  }
  return [...batches.values()];
}

export interface TakeInput {
  subscriptionId: string;
  memberId: string;
  size: number;
  filters: QueueFilters;
  idleMs: number;
  now: number;
}

/** Leases up to `size` queued items to the member as one batch (call inside a transaction). */
export async function takeItems(db: Db, engine: Engine, input: TakeInput) {
  const { subscriptionId, memberId, size, filters, idleMs, now } = input;
  const batchId = newId('batch');
  const taken: ItemRef[] = [];
  // A candidate lost to a concurrent take is skipped: try again for the rest, a few times at most.
  for (let attempt = 0; attempt < 3 && taken.length < size; attempt++) {
    // The queue state on the row (decided, leased_until: kept by triggers, migration 0013) is read
    // from one partial index in seq order: no probe of leases or decisions per item passed over.
    let candidates = db
      .selectFrom('inbox_items as i')
      .select(['i.family', 'i.item_id'])
      .where('i.subscription_id', '=', subscriptionId)
      .where(undecided)
      .where('i.leased_until', '<=', now)
      .where((eb) => eb.and(filterConditions(eb as unknown as InboxEb, filters)))
      // Under overlap: never an item this member voted on, nor one waiting for the lead (votes.ts).
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('votes as v')
              .select('v.item_id')
              .whereRef('v.family', '=', 'i.family')
              .whereRef('v.item_id', '=', 'i.item_id')
              .where('v.member_id', '=', memberId),
          ),
        ),
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('vote_items as vi')
              .select('vi.item_id')
              .whereRef('vi.family', '=', 'i.family')
              .whereRef('vi.item_id', '=', 'i.item_id')
              .where('vi.state', '=', 'lead'),
          ),
        ),
      )
      .orderBy('i.seq')
      .limit(size - taken.length);
    if (engine === 'postgres') candidates = candidates.forUpdate('i').skipLocked();
    const rows = await candidates.execute();
    if (rows.length === 0) break;
    const won = await db
      .insertInto('leases')
      .values(
        rows.map((r) => ({
          family: r.family,
          item_id: r.item_id,
          subscription_id: subscriptionId,
          batch_id: batchId,
          member_id: memberId,
          state: 'active' as const,
          taken_at: now,
          renewed_at: now,
          expires_at: now + idleMs,
          ended_at: null,
        })),
      )
      .onConflict((oc) =>
        oc
          .columns(['family', 'item_id'])
          .doUpdateSet((eb) => ({
            subscription_id: eb.ref('excluded.subscription_id'),
            batch_id: eb.ref('excluded.batch_id'),
            member_id: eb.ref('excluded.member_id'),
            state: eb.ref('excluded.state'),
            taken_at: eb.ref('excluded.taken_at'),
            renewed_at: eb.ref('excluded.renewed_at'),
            expires_at: eb.ref('excluded.expires_at'),
            ended_at: null,
          }))
          .where((eb) => eb.or([eb('leases.state', '<>', 'active'), eb('leases.expires_at', '<=', now)])),
      )
      .returning(['family', 'item_id'])
      .execute();
    taken.push(...won);
    if (won.length === rows.length) break;
  }
  if (taken.length === 0) return { batchId, items: [] };
  const items = await db
    .selectFrom('leases as l')
    .innerJoin('inbox_items as i', (join) => join.onRef('i.family', '=', 'l.family').onRef('i.item_id', '=', 'l.item_id'))
    .select(['i.family', 'i.item_id', 'i.seq', 'i.payload', 'i.price_micros'])
    .where('l.batch_id', '=', batchId)
    .orderBy('i.seq')
    .execute();
  return { batchId, items };
}

/** The batch's leases, whoever holds them now (null: no such batch). */
export const batchLeases = (db: Db, batchId: string) => db.selectFrom('leases').selectAll().where('batch_id', '=', batchId).execute();

export const isLive = (l: Pick<LeasesTable, 'state' | 'expires_at'>, now: number) => l.state === 'active' && l.expires_at > now;

/** Moves the expiry of the member's live leases of a batch on by the idle time; the count renewed. */
export async function renewBatch(db: Db, batchId: string, memberId: string, idleMs: number, now: number): Promise<number> {
  const result = await db
    .updateTable('leases')
    .set({ renewed_at: now, expires_at: now + idleMs })
    .where('batch_id', '=', batchId)
    .where('member_id', '=', memberId)
    .where('state', '=', 'active')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Ends a batch's live leases (all, or the items named): released by the holder, or revoked by an admin. */
export async function endLeases(
  db: Db,
  batchId: string,
  state: 'released' | 'revoked',
  now: number,
  options: { memberId?: string; items?: readonly ItemRef[] } = {},
) {
  let query = db
    .updateTable('leases')
    .set({ state, ended_at: now })
    .where('batch_id', '=', batchId)
    .where('state', '=', 'active')
    .where('expires_at', '>', now);
  if (options.memberId) query = query.where('member_id', '=', options.memberId);
  if (options.items) {
    const items = options.items;
    if (items.length === 0) return [];
    query = query.where((eb) => eb.or(items.map((it) => eb.and([eb('family', '=', it.family), eb('item_id', '=', it.item_id)]))));
  }
  return query.returning(['family', 'item_id', 'member_id', 'subscription_id']).execute();
}

/**
 * A member's vote that did not make the team's decision ends their lease on the item: it goes back
 * to the queue for the other reviewers its overlap needs (a take never hands it to this member again).
 */
export const endLeaseOnVote = (db: Db, family: string, itemId: string, memberId: string, now: number) =>
  db
    .updateTable('leases')
    .set({ state: 'released', ended_at: now })
    .where('family', '=', family as 'data' | 'live')
    .where('item_id', '=', itemId)
    .where('member_id', '=', memberId)
    .where('state', '=', 'active')
    .execute();

/** Who holds a live lease on the item, if anyone. */
export const liveLeaseQuery = (db: Db, family: string, itemId: string, now: number) =>
  db
    .selectFrom('leases')
    .innerJoin('members', 'members.id', 'leases.member_id')
    .select(['leases.member_id', 'leases.batch_id', 'members.email'])
    .where('leases.family', '=', family as ItemRef['family'])
    .where('leases.item_id', '=', itemId)
    .where('leases.state', '=', 'active')
    .where('leases.expires_at', '>', now);

/** liveLeaseQuery compiled once (db/shaped.ts), for the decision path. */
export const liveLeaseStatement = shaped(['family', 'itemId', 'now'], (db, v: { family: string; itemId: string; now: number }) =>
  liveLeaseQuery(db, v.family, v.itemId, v.now),
);

/**
 * Every live lease of an undecided item with its holder (optionally of one subscription), item
 * ids in seq order. A decided item's lease holds nothing (the queue counts it neither), so a batch
 * whose items are all decided is done at once, not listed until its idle time runs out. Its lease
 * rows stay active: should a decision be refused or dropped, the item is the holder's again.
 */
export async function liveHolders(db: Db, subscriptionId: string | undefined, now: number) {
  let query = db
    .selectFrom('leases as l')
    .innerJoin('members as m', 'm.id', 'l.member_id')
    .innerJoin('inbox_items as i', (join) => join.onRef('i.family', '=', 'l.family').onRef('i.item_id', '=', 'l.item_id'))
    .select(['l.batch_id', 'l.subscription_id', 'l.member_id', 'm.email', 'l.item_id', 'l.taken_at', 'l.renewed_at', 'l.expires_at'])
    .where('l.state', '=', 'active')
    .where('l.expires_at', '>', now)
    .where(undecided)
    .orderBy('l.taken_at')
    .orderBy('l.batch_id')
    .orderBy('l.item_id');
  if (subscriptionId !== undefined) query = query.where('l.subscription_id', '=', subscriptionId);
  const rows = await query.execute();
  const batches = new Map<string, (typeof rows)[number] & { item_ids: string[] }>();
  for (const r of rows) {
    const batch = batches.get(r.batch_id) ?? { ...r, item_ids: [] };
    batch.item_ids.push(r.item_id);
    // A batch's expiry is its latest renewal's: items renewed together share it.
    batch.expires_at = Math.max(batch.expires_at, r.expires_at);
    batch.renewed_at = Math.max(batch.renewed_at, r.renewed_at);
    batches.set(r.batch_id, batch);
  }
  return [...batches.values()];
}

/**
 * The subscription's undecided items under another member's live lease, with the holder's email.
 * One lease row per item (its key), so an item is held by one member at a time.
 */
export async function heldByOthers(db: Db, subscriptionId: string, memberId: string, now: number) {
  return db
    .selectFrom('leases as l')
    .innerJoin('members as m', 'm.id', 'l.member_id')
    .innerJoin('inbox_items as i', (join) => join.onRef('i.family', '=', 'l.family').onRef('i.item_id', '=', 'l.item_id'))
    .select(['l.family', 'l.item_id', 'm.email'])
    .where('l.subscription_id', '=', subscriptionId)
    .where('l.state', '=', 'active')
    .where('l.expires_at', '>', now)
    .where('l.member_id', '!=', memberId)
    .where(undecided)
    .orderBy('l.item_id')
    .execute();
}

/** The subscription's idle time (ms): its setting, or the default. */
export async function idleMsOf(db: Db, subscriptionId: string): Promise<number> {
  const row = await db.selectFrom('lease_settings').select('idle_ms').where('subscription_id', '=', subscriptionId).executeTakeFirst();
  return row ? Number(row.idle_ms) : LEASE_LIMITS.idleDefaultS * 1000;
}

export async function setIdleMs(db: Db, subscriptionId: string, idleMs: number, by: string, now: number) {
  await db
    .insertInto('lease_settings')
    .values({ subscription_id: subscriptionId, idle_ms: idleMs, updated_at: now, updated_by: by })
    .onConflict((oc) => oc.column('subscription_id').doUpdateSet({ idle_ms: idleMs, updated_at: now, updated_by: by }))
    .execute();
}
