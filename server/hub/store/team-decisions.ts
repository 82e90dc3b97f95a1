import { sql, type Kysely } from 'kysely';
import type { Engine, HubTables } from '../db/schema';

/*
 * The team's decisions per subscription, as a feed (issue 26 item 4; route routes/team-decisions.ts).
 *
 * The cursor is the audit seq. Every change to a team decision appends its audit row in the same
 * transaction (accept: v1.adopt/v1.dispute; the sender: decision.send; holds: hold.release/.drop;
 * overlap: vote.*, and vote.recount when an admin's change of the setting moves an undecided item), and seqs are handed out under the audit_head row lock, so they commit in seq
 * order: every row up to the head read at some instant has committed by then. A read therefore
 * takes the head H first, then the rows in (after, H]: a change that commits while it runs has a
 * seq past H and is answered by the next read, never skipped. For each item those rows name, the
 * answer is where it stands NOW (read after H, so possibly newer than H: the next read says it
 * again, which the reader takes as the same news). The queued ⇄ sending moves of the sender are
 * not audited and not news: a reader sees them with the next audited change of the item.
 *
 * A first read has no cursor: a snapshot of what stands (decisions and overlap votes), paged by
 * item id, with the head read before its first page as the cursor to go on from.
 */

/** The audit actions that change (or may change) an item's team decision or votes. */
const DECISION_ACTIONS = ['v1.adopt', 'v1.dispute', 'decision.send', 'hold.release', 'hold.drop', 'vote.adopt', 'vote.dispute', 'vote.recount'] as const;

const STANDING = ['held', 'queued', 'sending', 'sent'] as const;

export interface TeamDecisionRow {
  family: 'data' | 'live';
  item_id: string;
  decision: { kind: 'adopt' | 'dispute'; state: (typeof STANDING)[number]; member_id: string; email: string; at: number } | null;
  votes: { votes: number; needed: number; state: 'open' | 'decided' | 'lead' | 'settled' } | null;
}

const auditHead = async (db: Kysely<HubTables>): Promise<number> =>
  Number((await db.selectFrom('audit_head').select('seq').where('id', '=', 1).executeTakeFirstOrThrow()).seq);

const key = (family: string, itemId: string) => `${family}\n${itemId}`;

/** Where each named item stands now: its standing decision (with who) and its votes; items with neither and no decision ever are left out. */
async function standing(db: Kysely<HubTables>, itemIds: readonly string[]): Promise<TeamDecisionRow[]> {
  if (itemIds.length === 0) return [];
  const decisions = await db
    .selectFrom('decisions')
    .innerJoin('members', 'members.id', 'decisions.member_id')
    .select(['decisions.family', 'decisions.item_id', 'decisions.kind', 'decisions.state', 'decisions.member_id', 'members.email', 'decisions.created_at'])
    .where('decisions.item_id', 'in', [...itemIds])
    .orderBy('decisions.created_at')
    .execute();
  const voteItems = await db
    .selectFrom('vote_items')
    .select(['family', 'item_id', 'needed', 'state'])
    .where('item_id', 'in', [...itemIds])
    .execute();
  const counts = await db
    .selectFrom('votes')
    .select(['family', 'item_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('item_id', 'in', [...itemIds])
    .groupBy(['family', 'item_id'])
    .execute();
  const rows = new Map<string, TeamDecisionRow>();
  const row = (family: 'data' | 'live', itemId: string) => {
    let r = rows.get(key(family, itemId));
    if (!r) rows.set(key(family, itemId), (r = { family, item_id: itemId, decision: null, votes: null }));
    return r;
  };
  for (const d of decisions) {
    const r = row(d.family, d.item_id);
    // At most one standing decision per item (a unique index); refused and dropped ones leave it undecided.
    if ((STANDING as readonly string[]).includes(d.state))
      r.decision = { kind: d.kind, state: d.state as (typeof STANDING)[number], member_id: d.member_id, email: d.email, at: Number(d.created_at) };
  }
  const voted = new Map(counts.map((c) => [key(c.family, c.item_id), Number(c.n)]));
  for (const v of voteItems) row(v.family, v.item_id).votes = { votes: voted.get(key(v.family, v.item_id)) ?? 0, needed: Number(v.needed), state: v.state };
  return [...rows.values()];
}

export interface FeedPage {
  rows: TeamDecisionRow[];
  next: number;
  snapshotFrom: string | null;
  hasMore: boolean;
}

/** The changes of a subscription's team decisions after `after`: at most `limit` audit rows' items, each once. */
export async function decisionChanges(db: Kysely<HubTables>, subscriptionId: string, after: number, limit: number): Promise<FeedPage> {
  const head = await auditHead(db);
  const changes = await db
    .selectFrom('audit')
    .select(['seq', 'item_id'])
    .where('seq', '>', after)
    .where('seq', '<=', head)
    .where('subscription_id', '=', subscriptionId)
    .where('action', 'in', [...DECISION_ACTIONS])
    .where('item_id', 'is not', null)
    .orderBy('seq')
    .limit(limit + 1)
    .execute();
  const hasMore = changes.length > limit;
  const page = changes.slice(0, limit);
  // In the order of their latest change.
  const order = new Map<string, number>();
  for (const c of page) order.set(c.item_id!, Number(c.seq));
  const rows = (await standing(db, [...order.keys()])).sort((a, b) => order.get(a.item_id)! - order.get(b.item_id)!);
  return { rows, next: hasMore ? Number(page.at(-1)!.seq) : head, snapshotFrom: null, hasMore };
}

/**
 * A page of what stands on a subscription's items now (a standing decision, or overlap votes),
 * by item id after `from`. The first page reads the head before anything else and answers it as
 * `next`; later pages carry it on (`head`).
 */
export async function decisionSnapshot(
  db: Kysely<HubTables>,
  engine: Engine,
  subscriptionId: string,
  page: { head: number | null; from: string | null; limit: number },
): Promise<FeedPage> {
  const head = page.head ?? (await auditHead(db));
  // Item ids are ASCII ([A-Za-z0-9._:-]): in byte order (SQLite's BINARY, PostgreSQL's "C") they sort
  // as JavaScript sorts them, so the two lists merge here and the next page starts where this one ended.
  const itemId = engine === 'postgres' ? sql<string>`item_id collate "C"` : sql<string>`item_id`;
  let decided = db
    .selectFrom('decisions')
    .select('item_id')
    .where('subscription_id', '=', subscriptionId)
    .where('state', 'in', [...STANDING]);
  let voted = db.selectFrom('vote_items').select('item_id').where('subscription_id', '=', subscriptionId);
  if (page.from !== null) {
    decided = decided.where(itemId, '>', page.from);
    voted = voted.where(itemId, '>', page.from);
  }
  const a = await decided
    .orderBy(itemId)
    .limit(page.limit + 1)
    .execute();
  const b = await voted
    .orderBy(itemId)
    .limit(page.limit + 1)
    .execute();
  const ids = [...new Set([...a, ...b].map((r) => r.item_id))].sort();
  const hasMore = ids.length > page.limit;
  const taken = ids.slice(0, page.limit);
  const rows = (await standing(db, taken)).sort((x, y) => (x.item_id < y.item_id ? -1 : x.item_id > y.item_id ? 1 : 0));
  return { rows, next: head, snapshotFrom: hasMore ? taken.at(-1)! : null, hasMore };
}
