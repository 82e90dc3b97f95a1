import type { Frontier, FrontierStatusFilter, FrontierTask, PreviewSubmission } from '../../src/api/contract';
import type { Db } from './db';

/**
 * Public catalogue: frontiers, tasks, verticals, and the task preview (spec 4.1–4.4).
 * A missing frontier or task is `null`; the route decides what that means on the wire.
 */

const FRONTIER_SELECT = `
  SELECT f.frontier_id, f.title, f.status,
         COUNT(t.task_id) AS task_count,
         COALESCE(SUM(t.submission_count), 0) AS total_submissions
  FROM frontiers f LEFT JOIN tasks t ON t.frontier_id = f.frontier_id`;

export function listFrontiers(db: Db, filter: FrontierStatusFilter): Frontier[] {
  const where = filter === 'online' ? `WHERE f.status = 'ONLINE'` : '';
  return db.prepare(`${FRONTIER_SELECT} ${where} GROUP BY f.frontier_id ORDER BY CAST(f.frontier_id AS INTEGER)`).all() as Frontier[];
}

function frontierExists(db: Db, frontierId: string): boolean {
  return db.prepare('SELECT 1 FROM frontiers WHERE frontier_id = ?').get(frontierId) !== undefined;
}

/** The frontier's tasks; null when there is no such frontier. */
export function listTasks(db: Db, frontierId: string): FrontierTask[] | null {
  if (!frontierExists(db, frontierId)) return null;
  return db
    .prepare(
      `SELECT task_id, frontier_id, name, task_type, status, submission_count
       FROM tasks WHERE frontier_id = ? ORDER BY CAST(task_id AS INTEGER)`,
    )
    .all(frontierId) as FrontierTask[];
}

function taskExists(db: Db, frontierId: string, taskId: string): boolean {
  return db.prepare('SELECT 1 FROM tasks WHERE frontier_id = ? AND task_id = ?').get(frontierId, taskId) !== undefined;
}

/** A vertical as stored: its price in micro-USD (the route writes the wire's USD). */
export interface VerticalRecord {
  id: string;
  slug: string;
  name: string;
  description: string;
  base_price_micros: number;
}

export function listVerticals(db: Db): VerticalRecord[] {
  return db.prepare('SELECT id, slug, name, description, base_price_micros FROM verticals ORDER BY slug').all() as VerticalRecord[];
}

interface PreviewRow {
  submission_id: string;
  data: string;
  quality_score: number;
  quality_grade: string;
  source: string;
  created_at: string;
  audit_rating: number;
  audit_reason: string | null;
}

/** Sample adopted submissions of a task: the first `limit` in delivery order; null when the frontier has no such task. */
export function previewTask(db: Db, frontierId: string, taskId: string, limit: number): PreviewSubmission[] | null {
  if (!taskExists(db, frontierId, taskId)) return null;
  const rows = db
    .prepare(
      `SELECT submission_id, data, quality_score, quality_grade, source, created_at, audit_rating, audit_reason
       FROM submissions WHERE task_id = ? ORDER BY seq LIMIT ?`,
    )
    .all(taskId, limit) as PreviewRow[];
  return rows.map((row) => ({ ...row, data: JSON.parse(row.data) as Record<string, unknown> }));
}
