import { sql, type Kysely } from 'kysely';
import type { Engine, HubTables } from './schema';

/**
 * Makes every commit so far survive an OS crash or a power loss, which a commit alone does not
 * on SQLite: the hub runs it in WAL mode with synchronous NORMAL (sqlite.ts), which syncs the log
 * at a checkpoint, not at each commit. A PASSIVE checkpoint syncs the log first, whatever it can
 * then copy. PostgreSQL's commit already waited for its WAL to be flushed.
 *
 * Called before the hub answers that it keeps a decision it has not sent (202 queued, 409 held):
 * the browser then lets go of it, so the hub's copy must be on disk. A decision the vendor took
 * needs no such wait: the vendor has it, and the receipts sync counts its charge.
 */
export async function syncCommits(db: Kysely<HubTables>, engine: Engine): Promise<void> {
  if (engine === 'sqlite') await sql`PRAGMA wal_checkpoint(PASSIVE)`.execute(db);
}
