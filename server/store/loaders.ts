import { issuePath, jsonTextTooDeep, MAX_PAYLOAD_DEPTH, tooDeepAt, type SimulatedStatus, type SubscriptionKind } from '../../src/api/contract';
import type { Db } from './db';
import type { ItemRecord } from './simulated';

/**
 * A payload as stored JSON text, refused when it nests deeper than the contract allows: every
 * payload enters through these loaders (seed, fixtures, benchmark), so none deeper is ever stored.
 */
function boundedJson(value: unknown): string {
  if (typeof value === 'string') {
    if (jsonTextTooDeep(value)) throw new Error(`payload nests deeper than ${MAX_PAYLOAD_DEPTH} levels`);
    return value;
  }
  const at = tooDeepAt(value);
  if (at) throw new Error(`payload nests deeper than ${MAX_PAYLOAD_DEPTH} levels at ${issuePath(at) || '(root)'}`);
  return JSON.stringify(value);
}

/**
 * Bulk writers used by the demo seed, the fixture importer and the benchmark. Callers
 * wrap them in one transaction so a load is all or nothing.
 */
export function createLoaders(db: Db) {
  const statements = {
    org: db.prepare('INSERT OR IGNORE INTO orgs (org_id, name) VALUES (?, ?)'),
    frontier: db.prepare('INSERT INTO frontiers (frontier_id, title, status) VALUES (?, ?, ?)'),
    task: db.prepare('INSERT INTO tasks (task_id, frontier_id, name, task_type, status) VALUES (?, ?, ?, ?, ?)'),
    submission: db.prepare(
      `INSERT INTO submissions (submission_id, task_id, frontier_id, campaign_id, data, quality_score, quality_grade,
         source, created_at, audit_rating, audit_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    countSubmissions: db.prepare('UPDATE tasks SET submission_count = (SELECT COUNT(*) FROM submissions s WHERE s.task_id = tasks.task_id)'),
    vertical: db.prepare('INSERT INTO verticals (id, slug, name, description, base_price_micros) VALUES (?, ?, ?, ?, ?)'),
    topic: db.prepare('INSERT OR IGNORE INTO topics (topic_id, vertical_id, name) VALUES (?, ?, ?)'),
    subscription: db.prepare(
      `INSERT INTO subscriptions (subscription_id, org_id, kind, frontier_id, vertical_id, name, task_ids)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    delivery: db.prepare('INSERT INTO deliveries (delivery_id, subscription_id, vertical_id, created_at) VALUES (?, ?, ?, ?)'),
    item: db.prepare(
      `INSERT INTO items (id, vertical_id, topic_id, payload, quality_score, quality_method, validator_count,
         consensus_ratio, unit_price_micros, created_at, subscription_id, delivery_id, status, decided_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
  };

  return {
    org: (orgId: string, name: string) => statements.org.run(orgId, name),
    frontier: (f: { frontier_id: string; title: string; status: string }) => statements.frontier.run(f.frontier_id, f.title, f.status),
    task: (t: { task_id: string; frontier_id: string; name: string; task_type: string; status: string }) =>
      statements.task.run(t.task_id, t.frontier_id, t.name, t.task_type, t.status),
    submission: (s: {
      submission_id: string;
      task_id: string;
      frontier_id: string;
      campaign_id?: string | null;
      data: unknown;
      quality_score: number;
      quality_grade: string;
      source: string;
      created_at: string;
      audit_rating?: number;
      audit_reason?: string | null;
    }) =>
      statements.submission.run(
        s.submission_id,
        s.task_id,
        s.frontier_id,
        s.campaign_id ?? null,
        boundedJson(s.data),
        s.quality_score,
        s.quality_grade,
        s.source,
        s.created_at,
        s.audit_rating ?? 0,
        s.audit_reason ?? null,
      ),
    /** Recomputes every task's submission_count; call once after loading submissions. */
    countSubmissions: () => statements.countSubmissions.run(),
    vertical: (v: { id: string; slug: string; name: string; description: string; base_price_micros: number }) =>
      statements.vertical.run(v.id, v.slug, v.name, v.description, v.base_price_micros),
    topic: (topicId: string, verticalId: string, name: string) => statements.topic.run(topicId, verticalId, name),
    subscription: (s: {
      subscription_id: string;
      org_id: string;
      kind: SubscriptionKind;
      frontier_id?: string | null;
      vertical_id?: string | null;
      name: string;
      task_ids?: readonly string[] | null;
    }) =>
      statements.subscription.run(
        s.subscription_id,
        s.org_id,
        s.kind,
        s.frontier_id ?? null,
        s.vertical_id ?? null,
        s.name,
        s.task_ids ? JSON.stringify(s.task_ids) : null,
      ),
    delivery: (d: { delivery_id: string; subscription_id: string; vertical_id: string; created_at: string }) =>
      statements.delivery.run(d.delivery_id, d.subscription_id, d.vertical_id, d.created_at),
    // An item as stored, but any payload, and pending unless told otherwise.
    item: (i: Omit<ItemRecord, 'payload' | 'status' | 'decided_at'> & { payload: unknown; status?: SimulatedStatus; decided_at?: string | null }) =>
      statements.item.run(
        i.id,
        i.vertical_id,
        i.topic_id,
        typeof i.payload === 'string' ? JSON.stringify(i.payload) : boundedJson(i.payload),
        i.quality_score,
        i.quality_method,
        i.validator_count,
        i.consensus_ratio,
        i.unit_price_micros,
        i.created_at,
        i.subscription_id,
        i.delivery_id,
        i.status ?? 'pending',
        i.decided_at ?? null,
      ),
  };
}

export const DEFAULT_ORG_KEY = 'default_org';

/** The data directory's default organization (fixture subscriptions without org_id join it). */
export function defaultOrg(db: Db): string {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(DEFAULT_ORG_KEY) as { value: string } | undefined;
  if (row) return row.value;
  db.prepare('INSERT OR IGNORE INTO orgs (org_id, name) VALUES (?, ?)').run('org_default', 'Default organization');
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run(DEFAULT_ORG_KEY, 'org_default');
  return 'org_default';
}
