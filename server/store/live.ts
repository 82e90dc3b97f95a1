import type { LiveFeedback } from '../../src/api/contract';
import { decodeCursor, encodeCursor, filterFingerprint } from '../lib/cursor';
import { nowIso } from '../lib/time';
import { inTransaction, type Db } from './db';
import { insertReceipt, type ReceiptRecord } from './receipts';
import type { SubscriptionRow } from './subscriptions';

/**
 * Live pull (spec 4.6) and live feedback (4.8, 4.9). Refusals are results, not exceptions:
 * `{ invalid }`, `null` and `{ conflict }`; the route turns them into HTTP errors.
 */

/** A submission as read for a pull. `data` stays the stored JSON text: the route splices it into the page. */
export interface LiveSubmission {
  seq: number;
  submission_id: string;
  task_id: string;
  frontier_id: string;
  campaign_id: string | null;
  data: string;
  quality_score: number;
  quality_grade: string;
  source: string;
  created_at: string;
  consumer_feedback: LiveFeedback | null;
}

export interface LivePullInput {
  orgId: string;
  subscription: SubscriptionRow;
  limit: number;
  from?: 'beginning';
  cursor?: string;
  taskIds?: readonly string[];
  campaignIds?: readonly string[];
  cursorSecret: string;
}

export interface LivePage {
  items: LiveSubmission[];
  has_more: boolean;
  next_cursor: string;
  /** The metering receipt of an incremental pull that returned items. */
  receipt: ReceiptRecord | null;
}

/**
 * Why a pull was refused: task_ids/campaign_ids on an incremental pull (they narrow re-reads
 * only), or a cursor minted for another subscription, other filters or another secret.
 */
export type LivePullRefusal = { invalid: 'filters-need-reread' } | { invalid: 'cursor' };

/** Intersection of the subscription's task scope and a narrowing filter; null = unrestricted. */
function effectiveTasks(scope: string[] | null, filter?: readonly string[]): readonly string[] | null {
  if (!filter) return scope;
  if (!scope) return filter;
  const allowed = new Set(scope);
  return filter.filter((id) => allowed.has(id));
}

function selectPage(
  db: Db,
  orgId: string,
  frontierId: string,
  after: number,
  limit: number,
  tasks: readonly string[] | null,
  campaigns: readonly string[] | null,
): LiveSubmission[] {
  if (tasks?.length === 0 || campaigns?.length === 0) return [];
  const where = ['s.frontier_id = ?', 's.seq > ?'];
  const params: (string | number)[] = [orgId, frontierId, after];
  if (tasks) {
    where.push(`s.task_id IN (${tasks.map(() => '?').join(',')})`);
    params.push(...tasks);
  }
  if (campaigns) {
    where.push(`s.campaign_id IN (${campaigns.map(() => '?').join(',')})`);
    params.push(...campaigns);
  }
  params.push(limit + 1);
  return db
    .prepare(
      `SELECT s.seq, s.submission_id, s.task_id, s.frontier_id, s.campaign_id, s.data, s.quality_score,
              s.quality_grade, s.source, s.created_at, f.feedback AS consumer_feedback
       FROM submissions s
       LEFT JOIN live_feedback f ON f.org_id = ? AND f.submission_id = s.submission_id
       WHERE ${where.join(' AND ')}
       ORDER BY s.seq LIMIT ?`,
    )
    .all(...params) as LiveSubmission[];
}

export function pullLive(db: Db, input: LivePullInput): LivePage | LivePullRefusal {
  const { subscription: sub, limit } = input;
  const frontierId = sub.frontier_id ?? '';
  const reread = input.from === 'beginning' || input.cursor !== undefined;

  if (!reread) {
    if (input.taskIds || input.campaignIds) return { invalid: 'filters-need-reread' };
    // Incremental: read past the committed position and move it, atomically, so two
    // concurrent pulls never receive the same submission.
    return inTransaction(db, () => {
      const position = (db.prepare('SELECT position FROM subscriptions WHERE subscription_id = ?').get(sub.subscription_id) as { position: number }).position;
      const rows = selectPage(db, input.orgId, frontierId, position, limit, sub.task_ids, null);
      const page = rows.slice(0, limit);
      let receipt: ReceiptRecord | null = null;
      if (page.length > 0) {
        db.prepare('UPDATE subscriptions SET position = ? WHERE subscription_id = ?').run(page[page.length - 1]!.seq, sub.subscription_id);
        receipt = insertReceipt(db, {
          orgId: input.orgId,
          subscriptionId: sub.subscription_id,
          kind: 'pull',
          quantity: page.length,
          amountMicros: 0,
        });
      }
      return { items: page, has_more: rows.length > limit, next_cursor: '', receipt };
    });
  }

  const filters = filterFingerprint(input.taskIds, input.campaignIds);
  let after = 0;
  if (input.cursor !== undefined) {
    const state = decodeCursor(input.cursorSecret, input.cursor, { subscriptionId: sub.subscription_id, filters });
    if (!state) return { invalid: 'cursor' };
    after = state.after;
  }
  const tasks = effectiveTasks(sub.task_ids, input.taskIds);
  const rows = selectPage(db, input.orgId, frontierId, after, limit, tasks, input.campaignIds ?? null);
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const nextCursor = hasMore ? encodeCursor(input.cursorSecret, { subscriptionId: sub.subscription_id, filters, after: page[page.length - 1]!.seq }) : '';
  return { items: page, has_more: hasMore, next_cursor: nextCursor, receipt: null };
}

export interface LiveFeedbackInput {
  orgId: string;
  subscription: SubscriptionRow;
  submissionId: string;
  feedback: LiveFeedback;
  reason?: string;
}

/**
 * Records adopt or dispute: `{ changed }` when recorded (false when the same feedback was
 * already there), `null` when the submission is not readable under the subscription,
 * `{ conflict }` with the recorded feedback when a different one was given before.
 */
export function recordLiveFeedback(db: Db, input: LiveFeedbackInput): { changed: boolean } | { conflict: LiveFeedback } | null {
  const sub = input.subscription;
  const submission = db
    .prepare('SELECT task_id FROM submissions WHERE submission_id = ? AND frontier_id = ?')
    .get(input.submissionId, sub.frontier_id ?? '') as { task_id: string } | undefined;
  if (!submission || (sub.task_ids && !sub.task_ids.includes(submission.task_id))) return null;
  return inTransaction(db, () => {
    const existing = db.prepare('SELECT feedback FROM live_feedback WHERE org_id = ? AND submission_id = ?').get(input.orgId, input.submissionId) as
      { feedback: LiveFeedback } | undefined;
    if (existing) return existing.feedback === input.feedback ? { changed: false } : { conflict: existing.feedback };
    db.prepare(
      `INSERT INTO live_feedback (org_id, submission_id, subscription_id, feedback, reason, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(input.orgId, input.submissionId, sub.subscription_id, input.feedback, input.reason ?? null, nowIso());
    return { changed: true };
  });
}
