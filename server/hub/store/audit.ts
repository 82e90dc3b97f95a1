import { PostgresAdapter, sql, type Kysely, type QueryResult, type Selectable, type Transaction } from 'kysely';
import { inOrder, type Statement } from '../db/in-order';
import { shaped } from '../db/shaped';
import { isAuditAction, type AuditAction } from '../../../src/api/contract/hub-audit-actions';
import { GENESIS } from '../db/migrations';
import type { AuditTable, HubTables } from '../db/schema';
import { sha256Hex } from '../secrets';

export type AuditRow = Selectable<AuditTable>;

export interface AuditEntry {
  actorId: string | null;
  via: string;
  /** One of the named actions (src/api/contract/hub-audit-actions.ts): the Audit page offers and names each. */
  action: AuditAction;
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
 * The head this process last wrote, per database (its dialect adapter, which its transactions
 * share). A guess, never trusted: the append that uses it is guarded on the stored head.
 */
const lastHead = new WeakMap<object, { seq: number; hash: string }>();

/**
 * Appends one row, inside the caller's transaction (the change it records commits with it or not
 * at all). The head row's UPDATE is the lock: two appenders never read the same previous hash.
 * Usually the head is the one this process wrote last, and the row goes in with one statement on
 * PostgreSQL (two on SQLite) instead of three round trips; when another process (the CLI, a
 * second hub) appended since, or that transaction rolled back, the guard matches nothing and the
 * head is read under the lock as before.
 */
export async function appendAudit(db: Kysely<HubTables>, entry: AuditEntry, now = Date.now()): Promise<AuditRow> {
  const guess = guessNext(db, entry, now);
  if (guess && (await appendAfter(db, guess.adapter instanceof PostgresAdapter, guess.known, guess.full))) return remember(guess);
  return appendLocked(db, entry, now);
}

/**
 * `statements` (writes that need no answer), then the audit row recording them: on PostgreSQL,
 * when this process knows the head, all sent together (db/in-order.ts), one round trip; should
 * the guard match nothing, the row is appended the usual way after them. The row comes last: the
 * audit head is the last lock taken.
 *
 * `end` (from auditedTransaction): these are the transaction's last statements. On PostgreSQL,
 * with the head known, its COMMIT goes with them (still one round trip), so the guard cannot fall
 * back within the transaction: a head that moved fails the row's insert, the COMMIT is answered
 * ROLLBACK (nothing of the transaction was kept) and AuditHeadMoved is thrown, for
 * auditedTransaction to run the transaction again the locked way.
 *
 * `heard`: the statements' own results, in order, for a caller that counts what they wrote.
 */
export async function appendAuditAfter(
  db: Kysely<HubTables>,
  statements: readonly Statement[],
  entry: AuditEntry,
  now = Date.now(),
  end?: TransactionEnd,
  heard?: (results: (QueryResult<unknown> | undefined)[]) => void,
): Promise<AuditRow> {
  const guess = guessNext(db, entry, now);
  // Run first, heard after: `heard?.(await …)` would skip the statements when nobody listens.
  if (!guess || !(guess.adapter instanceof PostgresAdapter)) {
    const results = await inOrder(db, statements);
    heard?.(results);
    return appendAudit(db, entry, now);
  }
  if (end?.commitWithAudit) {
    try {
      const results = await inOrder(db, [...statements, guardedAppend(guess.known, guess.full, { failWhenMoved: true })], { commit: true });
      heard?.(results);
    } catch (error) {
      throw headMoved(error) ? new AuditHeadMoved() : error;
    }
    return remember(guess);
  }
  const results = await inOrder(db, [...statements, guardedAppend(guess.known, guess.full)]);
  heard?.(results);
  return Number(results[results.length - 1]?.numAffectedRows ?? 0) === 1 ? remember(guess) : appendLocked(db, entry, now);
}

/** How auditedTransaction's body ends: whether its last audited writes may carry the COMMIT. */
export interface TransactionEnd {
  commitWithAudit: boolean;
}

/** The guarded append sent with a COMMIT found the head moved: nothing of the transaction was kept. */
class AuditHeadMoved extends Error {
  constructor() {
    super('the audit head moved since this process last wrote it');
    this.name = 'AuditHeadMoved';
  }
}

/**
 * A transaction that ends with an audited write (`appendAuditAfter(…, end)` its last statements):
 * on PostgreSQL its COMMIT goes with them, one round trip fewer. When another writer (the CLI, a
 * second hub, or this process's transaction that rolled back) moved the audit head, that first try
 * kept nothing, and `body` runs once more in a new transaction, which reads the head under its lock
 * and commits on its own: everything is read and locked again, in the same order, as any
 * transaction would. `body` must have no effect outside the database (it may run twice) and run
 * nothing after the audited write.
 */
export async function auditedTransaction<T>(db: Kysely<HubTables>, body: (trx: Transaction<HubTables>, end: TransactionEnd) => Promise<T>): Promise<T> {
  try {
    return await db.transaction().execute((trx) => body(trx, { commitWithAudit: true }));
  } catch (error) {
    if (!(error instanceof AuditHeadMoved)) throw error;
    return db.transaction().execute((trx) => body(trx, { commitWithAudit: false }));
  }
}

/** PostgreSQL's not_null_violation: the guarded append's row with no head to follow (guardedAppend). */
const NOT_NULL_VIOLATION = '23502';

const headMoved = (error: unknown) => {
  const e = error as { code?: unknown; table?: unknown; column?: unknown } | null;
  return e?.code === NOT_NULL_VIOLATION && e.table === 'audit' && e.column === 'seq';
};

interface Guess {
  adapter: object;
  known: { seq: number; hash: string };
  full: AuditRow;
}

/** The row as it follows the head this process last wrote (a guess the append guards); null when none is known. */
function guessNext(db: Kysely<HubTables>, entry: AuditEntry, now: number): Guess | null {
  // The type is the guard; this catches a cast or a computed name before it reaches the chain for good.
  if (!isAuditAction(entry.action)) throw new Error(`audit action ${JSON.stringify(entry.action)} is not in AUDIT_ACTION_GROUPS`);
  const adapter = db.getExecutor().adapter;
  const known = lastHead.get(adapter);
  return known ? { adapter, known, full: auditRow(entry, now, known.seq + 1, known.hash) } : null;
}

/** The guessed row went in: it is the head now. */
function remember({ adapter, full }: Guess): AuditRow {
  lastHead.set(adapter, { seq: full.seq, hash: full.hash });
  return full;
}

/** The head read under its lock, and the row appended after it. */
async function appendLocked(db: Kysely<HubTables>, entry: AuditEntry, now: number): Promise<AuditRow> {
  const adapter = db.getExecutor().adapter;
  const head = await db
    .updateTable('audit_head')
    .set((eb) => ({ seq: eb('seq', '+', 1) }))
    .where('id', '=', 1)
    .returning(['seq', 'hash'])
    .executeTakeFirstOrThrow();
  const full = auditRow(entry, now, head.seq, head.hash);
  await db.insertInto('audit').values(full).execute();
  await db.updateTable('audit_head').set({ hash: full.hash }).where('id', '=', 1).execute();
  lastHead.set(adapter, { seq: full.seq, hash: full.hash });
  return full;
}

/**
 * A NUL cannot be kept as text: PostgreSQL refuses it, and libsql reads SQLite's text back cut at
 * it, so the row would never match its hash again. The requests refuse NULs (app.ts); this is the
 * chain's own guard for any text that reaches it another way.
 */
const text = <T extends string | null>(value: T): T => (value === null ? value : (value.replaceAll('\0', '\uFFFD') as T));

function auditRow(entry: AuditEntry, now: number, seq: number, prevHash: string): AuditRow {
  const row: Omit<AuditRow, 'hash'> = {
    seq,
    at: now,
    actor_id: entry.actorId,
    via: text(entry.via),
    action: text(entry.action),
    target: text(entry.target ?? null),
    subscription_id: text(entry.subscriptionId ?? null),
    item_id: text(entry.itemId ?? null),
    amount_micros: entry.amountMicros ?? null,
    reason: text(entry.reason ?? null),
    outcome: text(entry.outcome),
    details: entry.details ? sortedJson(entry.details) : null,
    prev_hash: prevHash,
  };
  return { ...row, hash: rowHash(row) };
}

/**
 * PostgreSQL, one round trip: the head moves only if it was `known`, and the row is inserted only if
 * it moved. Otherwise nothing is inserted, or with `failWhenMoved` the row is inserted with no seq,
 * which its NOT NULL refuses: the statement fails, and the transaction with it (headMoved).
 */
const guardedAppend = (known: { seq: number; hash: string }, r: AuditRow, options: { failWhenMoved?: boolean } = {}) => sql`
  with head as (
    update audit_head set seq = ${r.seq}, hash = ${r.hash} where id = 1 and seq = ${known.seq} and hash = ${known.hash} returning seq
  )
  insert into audit (seq, at, actor_id, via, action, target, subscription_id, item_id, amount_micros, reason, outcome, details, prev_hash, hash)
  select head.seq, ${r.at}::bigint, ${r.actor_id}::text, ${r.via}::text, ${r.action}::text, ${r.target}::text, ${r.subscription_id}::text,
         ${r.item_id}::text, ${r.amount_micros}::bigint, ${r.reason}::text, ${r.outcome}::text, ${r.details}::text, ${r.prev_hash}::text, ${r.hash}::text
  from ${options.failWhenMoved ? sql`(values (1)) as one (x) left join head on true` : sql`head`}`;

/** The row appended after `known`, if the stored head is still `known` (else nothing, and false). */
async function appendAfter(db: Kysely<HubTables>, postgres: boolean, known: { seq: number; hash: string }, r: AuditRow): Promise<boolean> {
  if (postgres) return Number((await guardedAppend(known, r).execute(db)).numAffectedRows ?? 0) === 1;
  const moved = await db.executeQuery(moveHeadStatement(db, { seq: r.seq, hash: r.hash, knownSeq: known.seq, knownHash: known.hash }));
  if (Number(moved.numAffectedRows) !== 1) return false;
  await db.executeQuery(insertAuditStatement(db, r));
  return true;
}

interface HeadMove {
  seq: number;
  hash: string;
  knownSeq: number;
  knownHash: string;
}

/** SQLite's guarded head move, built directly (shapes.test.ts compares it with the shaped one). */
export const moveHeadQuery = (db: Kysely<HubTables>, m: HeadMove) =>
  db.updateTable('audit_head').set({ seq: m.seq, hash: m.hash }).where('id', '=', 1).where('seq', '=', m.knownSeq).where('hash', '=', m.knownHash);

/** The head move and the row's insert compiled once (db/shaped.ts): every audited request runs both. */
export const moveHeadStatement = shaped(['seq', 'hash', 'knownSeq', 'knownHash'], moveHeadQuery);

/** Every column of an audit row, in the order auditRow writes them. */
const AUDIT_COLUMNS: Record<keyof AuditRow, true> = {
  seq: true,
  at: true,
  actor_id: true,
  via: true,
  action: true,
  target: true,
  subscription_id: true,
  item_id: true,
  amount_micros: true,
  reason: true,
  outcome: true,
  details: true,
  prev_hash: true,
  hash: true,
};

export const insertAuditQuery = (db: Kysely<HubTables>, r: AuditRow) => db.insertInto('audit').values(r);
export const insertAuditStatement = shaped(Object.keys(AUDIT_COLUMNS) as (keyof AuditRow)[], insertAuditQuery);

export interface AuditFilter {
  member?: string;
  action?: string;
  from?: number;
  to?: number;
  /** Seqs above this one only. */
  after?: number;
  /** Seqs below this one only. */
  before?: number;
  /** `asc` (the default): the chain's order, oldest first; `desc`: newest first. */
  order?: 'asc' | 'desc';
  limit: number;
}

/**
 * Rows in seq order (or its reverse), filtered; `next` is the last row's seq: the following page
 * is `after` it oldest first, `before` it newest first. Paging by seq, not offset: rows appended
 * while a reader pages newest first never shift the pages it has not read yet.
 */
export async function listAudit(db: Kysely<HubTables>, filter: AuditFilter): Promise<{ rows: AuditRow[]; next: number | null }> {
  let query = db
    .selectFrom('audit')
    .selectAll()
    .orderBy('seq', filter.order ?? 'asc')
    .limit(filter.limit + 1);
  if (filter.member !== undefined) query = query.where('actor_id', '=', filter.member);
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('at', '<', filter.to);
  if (filter.after !== undefined) query = query.where('seq', '>', filter.after);
  if (filter.before !== undefined) query = query.where('seq', '<', filter.before);
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
 * hash kept elsewhere, which is why `headHash` is printed. The head is read first and the chain
 * walked up to it: a live hub appends while this runs (a send's row after its answer), and a row
 * past the head read is not a broken chain.
 */
export async function verifyAudit(db: Kysely<HubTables>): Promise<AuditVerdict> {
  const head = await db.selectFrom('audit_head').select(['seq', 'hash']).where('id', '=', 1).executeTakeFirstOrThrow();
  let prev = { seq: 0, hash: GENESIS };
  let count = 0;
  for (;;) {
    const rows = await db.selectFrom('audit').selectAll().where('seq', '>', prev.seq).where('seq', '<=', head.seq).orderBy('seq').limit(PAGE).execute();
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
  if (head.seq !== prev.seq || head.hash !== prev.hash)
    return { ok: false, seq: head.seq, problem: `the head names row ${head.seq} but the chain ends at row ${prev.seq}` };
  return { ok: true, rows: count, headHash: head.hash };
}
