import type { Db } from './db';
import { randomToken } from '../lib/ids';

/** A per-data-directory secret (cursor HMAC, JWT signing), created on first use. */
export function dataDirSecret(db: Db, name: 'cursor_secret' | 'jwt_secret'): string {
  db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run(name, randomToken(32));
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(name) as { value: string };
  return row.value;
}
