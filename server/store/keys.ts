import { LOCAL_KEY_PREFIX } from '../../src/api/contract';
import { newId, randomToken, sha256Hex } from '../lib/ids';
import { nowIso } from '../lib/time';
import { inTransaction, type Db } from './db';

export interface KeyRecord {
  key_id: string;
  key_name: string;
  org_id: string;
  data_access: boolean;
  expires_at: string | null;
  revoked_at: string | null;
  subscription_ids: ReadonlySet<string>;
}

export interface CreatedKey {
  key: string;
  key_id: string;
  key_name: string;
  org_id: string;
  expires_at: string | null;
}

export interface CreateKeyInput {
  name: string;
  subscriptionIds: readonly string[];
  expiresAt: string | null;
  dataAccess: boolean;
}

/**
 * Creates a key scoped to the given subscriptions. The key's organization is that of
 * its subscriptions, which must all exist and share one organization; otherwise the
 * result is `{ refused }` with the reason for the person at the CLI. Only the key's hash
 * is stored; the key itself is returned once.
 */
export function createKey(db: Db, input: CreateKeyInput): CreatedKey | { refused: string } {
  const name = input.name.trim();
  if (!name) return { refused: 'a key needs a non-empty --name' };
  const ids = [...new Set(input.subscriptionIds)];
  if (ids.length === 0) return { refused: 'a key needs at least one subscription (--subscriptions A,B)' };
  const lookup = db.prepare('SELECT org_id FROM subscriptions WHERE subscription_id = ?');
  const orgs = new Set<string>();
  for (const id of ids) {
    const row = lookup.get(id) as { org_id: string } | undefined;
    if (!row) return { refused: `unknown subscription: ${id}` };
    orgs.add(row.org_id);
  }
  if (orgs.size > 1) return { refused: 'the subscriptions of one key must belong to one organization' };
  const [orgId] = [...orgs] as [string];
  // 24 random bytes are exactly 32 URL-safe characters.
  const key = `${LOCAL_KEY_PREFIX}${randomToken(24)}`;
  const keyId = newId('key');
  inTransaction(db, () => {
    db.prepare(
      `INSERT INTO api_keys (key_id, key_hash, key_name, org_id, data_access, expires_at, created_at, last4)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(keyId, sha256Hex(key), name, orgId, input.dataAccess ? 1 : 0, input.expiresAt, nowIso(), key.slice(-4));
    const link = db.prepare('INSERT INTO api_key_subscriptions (key_id, subscription_id) VALUES (?, ?)');
    for (const id of ids) link.run(keyId, id);
  });
  return { key, key_id: keyId, key_name: name, org_id: orgId, expires_at: input.expiresAt };
}

interface KeyRow {
  key_id: string;
  key_name: string;
  org_id: string;
  data_access: number;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
  last4: string;
}

/** Looks a presented key up by its hash. Read on every request, so a revoke takes effect at once. */
export function findKey(db: Db, presentedKey: string): KeyRecord | null {
  const row = db
    .prepare('SELECT key_id, key_name, org_id, data_access, expires_at, revoked_at FROM api_keys WHERE key_hash = ?')
    .get(sha256Hex(presentedKey)) as KeyRow | undefined;
  if (!row) return null;
  const subs = db.prepare('SELECT subscription_id FROM api_key_subscriptions WHERE key_id = ?').all(row.key_id) as { subscription_id: string }[];
  return {
    key_id: row.key_id,
    key_name: row.key_name,
    org_id: row.org_id,
    data_access: row.data_access === 1,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    subscription_ids: new Set(subs.map((s) => s.subscription_id)),
  };
}

export function listKeys(db: Db) {
  const rows = db.prepare('SELECT * FROM api_keys ORDER BY created_at, key_id').all() as KeyRow[];
  const subs = db.prepare('SELECT subscription_id FROM api_key_subscriptions WHERE key_id = ? ORDER BY subscription_id');
  return rows.map((row) => ({
    key_id: row.key_id,
    key_name: row.key_name,
    org_id: row.org_id,
    masked_key: `${LOCAL_KEY_PREFIX}…${row.last4}`,
    data_access: row.data_access === 1,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    created_at: row.created_at,
    subscriptions: (subs.all(row.key_id) as { subscription_id: string }[]).map((s) => s.subscription_id),
  }));
}

/** Revokes a key; false when no such key exists. Revoking twice keeps the first time. */
export function revokeKey(db: Db, keyId: string): boolean {
  const result = db.prepare('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE key_id = ?').run(nowIso(), keyId);
  return result.changes > 0;
}
