import type { Db } from './db';

/** Does the data directory know this organization? */
export function orgExists(db: Db, orgId: string): boolean {
  return db.prepare('SELECT 1 FROM orgs WHERE org_id = ?').get(orgId) !== undefined;
}
