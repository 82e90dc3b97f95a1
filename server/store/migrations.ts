/**
 * Schema migrations, applied in order at start-up. PRAGMA user_version records how
 * many have run. Append only: never edit a migration that has shipped.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE orgs (org_id TEXT PRIMARY KEY, name TEXT NOT NULL);
  CREATE TABLE frontiers (
    frontier_id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    status TEXT NOT NULL
  );
  CREATE TABLE tasks (
    task_id TEXT PRIMARY KEY,
    frontier_id TEXT NOT NULL REFERENCES frontiers(frontier_id),
    name TEXT NOT NULL,
    task_type TEXT NOT NULL,
    status TEXT NOT NULL,
    submission_count INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX tasks_frontier ON tasks(frontier_id);
  -- seq is the stable delivery order of live submissions.
  CREATE TABLE submissions (
    seq INTEGER PRIMARY KEY,
    submission_id TEXT NOT NULL UNIQUE,
    task_id TEXT NOT NULL REFERENCES tasks(task_id),
    frontier_id TEXT NOT NULL,
    campaign_id TEXT,
    data TEXT NOT NULL,
    quality_score REAL NOT NULL,
    quality_grade TEXT NOT NULL,
    source TEXT NOT NULL,
    created_at TEXT NOT NULL,
    audit_rating INTEGER NOT NULL DEFAULT 0,
    audit_reason TEXT
  );
  CREATE INDEX submissions_frontier_seq ON submissions(frontier_id, seq);
  CREATE INDEX submissions_task_seq ON submissions(task_id, seq);
  CREATE TABLE verticals (
    id TEXT PRIMARY KEY,
    slug TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    base_price_micros INTEGER NOT NULL
  );
  CREATE TABLE topics (
    topic_id TEXT PRIMARY KEY,
    vertical_id TEXT NOT NULL REFERENCES verticals(id),
    name TEXT NOT NULL
  );
  CREATE TABLE subscriptions (
    subscription_id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES orgs(org_id),
    kind TEXT NOT NULL CHECK (kind IN ('live', 'simulated')),
    frontier_id TEXT,
    vertical_id TEXT,
    name TEXT NOT NULL,
    task_ids TEXT,               -- JSON array narrowing a live subscription, or NULL for all tasks
    position INTEGER NOT NULL DEFAULT 0  -- committed incremental position (submission seq)
  );
  CREATE TABLE api_keys (
    key_id TEXT PRIMARY KEY,
    key_hash TEXT NOT NULL UNIQUE,  -- sha256 of the key; the key itself is never stored
    key_name TEXT NOT NULL,
    org_id TEXT NOT NULL REFERENCES orgs(org_id),
    data_access INTEGER NOT NULL,
    expires_at TEXT,
    revoked_at TEXT,
    created_at TEXT NOT NULL,
    last4 TEXT NOT NULL
  );
  CREATE TABLE api_key_subscriptions (
    key_id TEXT NOT NULL REFERENCES api_keys(key_id),
    subscription_id TEXT NOT NULL REFERENCES subscriptions(subscription_id),
    PRIMARY KEY (key_id, subscription_id)
  );
  CREATE TABLE live_feedback (
    org_id TEXT NOT NULL,
    submission_id TEXT NOT NULL,
    subscription_id TEXT NOT NULL,
    feedback TEXT NOT NULL CHECK (feedback IN ('adopt', 'dispute')),
    reason TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (org_id, submission_id)
  );
  CREATE TABLE deliveries (
    seq INTEGER PRIMARY KEY,
    delivery_id TEXT NOT NULL UNIQUE,
    subscription_id TEXT NOT NULL REFERENCES subscriptions(subscription_id),
    vertical_id TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX deliveries_created ON deliveries(created_at, seq);
  CREATE TABLE items (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    vertical_id TEXT NOT NULL,
    topic_id TEXT NOT NULL,
    payload TEXT NOT NULL,
    quality_score REAL NOT NULL,
    quality_method TEXT NOT NULL,
    validator_count INTEGER NOT NULL,
    consensus_ratio REAL NOT NULL,
    unit_price_micros INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    subscription_id TEXT NOT NULL REFERENCES subscriptions(subscription_id),
    delivery_id TEXT NOT NULL REFERENCES deliveries(delivery_id),
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'adopted', 'disputed')),
    decided_at TEXT
  );
  CREATE INDEX items_subscription_status ON items(subscription_id, status, seq);
  CREATE INDEX items_delivery ON items(delivery_id, seq);
  CREATE TABLE receipts (
    seq INTEGER PRIMARY KEY,
    receipt_id TEXT NOT NULL UNIQUE,
    org_id TEXT NOT NULL,
    subscription_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    submission_id TEXT,
    item_id TEXT,
    quantity INTEGER NOT NULL,
    amount_micros INTEGER NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX receipts_org_created ON receipts(org_id, created_at, seq);
  -- A simulated item is charged at most once, whatever the application does.
  CREATE UNIQUE INDEX receipts_one_adopt_per_item ON receipts(item_id) WHERE kind = 'adopt';
  `,
];
