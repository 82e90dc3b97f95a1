import type { Kysely } from 'kysely';
import type { TeamSubscription } from '../../../src/api/contract/hub';
import type { HubTables } from '../db/schema';

/** The team's subscriptions, in the order the admin gave them. */
export async function listTeamSubscriptions(db: Kysely<HubTables>): Promise<TeamSubscription[]> {
  const rows = await db.selectFrom('team_subscriptions').selectAll().orderBy('position').execute();
  return rows.map((r) => ({ id: r.id, kind: r.kind, ...(r.label !== null ? { label: r.label } : {}) }));
}

/** Replaces the whole list (call inside a transaction: the delete and the inserts are one change). */
export async function replaceTeamSubscriptions(db: Kysely<HubTables>, list: readonly TeamSubscription[]): Promise<void> {
  await db.deleteFrom('team_subscriptions').execute();
  if (list.length === 0) return;
  await db
    .insertInto('team_subscriptions')
    .values(list.map((s, position) => ({ id: s.id, kind: s.kind, label: s.label ?? null, position })))
    .execute();
}
