import type { Kysely, Selectable } from 'kysely';
import { GENESIS } from '../db/migrations';
import type { AuditTable, HubTables } from '../db/schema';
import { sha256Hex } from '../secrets';

export type AuditRow = Selectable<AuditTable>;

export interface AuditEntry {
  actorId: string | null;
  via: string;
  action: string;
  target?: string | null;
  subscriptionId?: string | null;
  itemId?: string | null;
  amountMicros?: number | null;
  reason?: string | null;
  outcome: string;
  details?: Record<string, string | number | null>;
}

/** JSON with sorted keys: what is stored is what is hashed, whatever the order the caller wrote. */
const sortedJson = (value: Record<string, unknown>) => JSON.stringify(Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1))));

/** A row's hash: its stored columns in a fixed order, its predecessor's hash among them. */
const rowHash = (r: Omit<AuditRow, 'hash'>) =>
  sha256Hex(
    'ddh-audit-v1\n' +
      JSON.stringify([
        r.seq,
        r.at,
        r.actor_id,
        r.via,
        r.action,
        r.target,
        r.subscription_id,
        r.item_id,
        r.amount_micros,
        r.reason,
        r.outcome,
        r.details,
        r.prev_hash,
      ]),
  );

/**
 * Appends one row, inside the caller's transaction (the change it records commits with it or not
 * at all). The head row's UPDATE is the lock: two appenders never read the same previous hash.
 */
export async function appendAudit(db: Kysely<HubTables>, entry: AuditEntry, now = Date.now()): Promise<AuditRow> {
  const head = await db
    .updateTable('audit_head')
    .set((eb) => ({ seq: eb('seq', '+', 1) }))
    .where('id', '=', 1)
    .returning(['seq', 'hash'])
    .executeTakeFirstOrThrow();
  const row: Omit<AuditRow, 'hash'> = {
    seq: head.seq,
    at: now,
    actor_id: entry.actorId,
    via: entry.via,
    action: entry.action,
    target: entry.target ?? null,
    subscription_id: entry.subscriptionId ?? null,
    item_id: entry.itemId ?? null,
    amount_micros: entry.amountMicros ?? null,
    reason: entry.reason ?? null,
    outcome: entry.outcome,
    details: entry.details ? sortedJson(entry.details) : null,
    prev_hash: head.hash,
  };
  const full = { ...row, hash: rowHash(row) };
  await db.insertInto('audit').values(full).execute();
  await db.updateTable('audit_head').set({ hash: full.hash }).where('id', '=', 1).execute();
  return full;
}

export interface AuditFilter {
  member?: string;
  action?: string;
  from?: number;
  to?: number;
  after?: number;
  limit: number;
}

/** Rows in seq order, filtered; `next` is the seq to pass as `after` for the following page. */
export async function listAudit(db: Kysely<HubTables>, filter: AuditFilter): Promise<{ rows: AuditRow[]; next: number | null }> {
  let query = db
    .selectFrom('audit')
    .selectAll()
    .orderBy('seq')
    .limit(filter.limit + 1);
  if (filter.member !== undefined) query = query.where('actor_id', '=', filter.member);
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('at', '<', filter.to);
  if (filter.after !== undefined) query = query.where('seq', '>', filter.after);
  const rows = await query.execute();
  const more = rows.length > filter.limit;
  const page = more ? rows.slice(0, filter.limit) : rows;
  return { rows: page, next: more ? page[page.length - 1]!.seq : null };
}

export type AuditVerdict = { ok: true; rows: number; headHash: string } | { ok: false; seq: number; problem: string };

const PAGE = 1000;

/**
 * Walks the chain from the first row: each seq follows the last (a gap is a deletion), each row
 * names its predecessor's hash and hashes to its own; the last row must be the head. The first
 * broken link is reported. A truncated tail with a rewritten head is only caught against a head
 * hash kept elsewhere, which is why `headHash` is printed.
 */
export async function verifyAudit(db: Kysely<HubTables>): Promise<AuditVerdict> {
  let prev = { seq: 0, hash: GENESIS };
  let count = 0;
  for (;;) {
    const rows = await db.selectFrom('audit').selectAll().where('seq', '>', prev.seq).orderBy('seq').limit(PAGE).execute();
    for (const row of rows) {
      if (row.seq !== prev.seq + 1) return { ok: false, seq: row.seq, problem: `row ${prev.seq + 1} is missing (next row is ${row.seq})` };
      if (row.prev_hash !== prev.hash) return { ok: false, seq: row.seq, problem: `prev_hash does not match row ${prev.seq}'s hash` };
      const { hash, ...rest } = row;
      if (rowHash(rest) !== hash) return { ok: false, seq: row.seq, problem: 'the row does not match its hash (it was changed)' };
      prev = row;
      count++;
    }
    if (rows.length < PAGE) break;
  }
  const head = await db.selectFrom('audit_head').select(['seq', 'hash']).where('id', '=', 1).executeTakeFirstOrThrow();
  if (head.seq !== prev.seq || head.hash !== prev.hash)
    return { ok: false, seq: head.seq, problem: `the head names row ${head.seq} but the chain ends at row ${prev.seq}` };
  return { ok: true, rows: count, headHash: head.hash };
}
