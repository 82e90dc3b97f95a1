import type { Kysely } from 'kysely';
import type { TeamSettings, TeamSettingsInput } from '../../../src/api/contract/hub';
import type { HubTables } from '../db/schema';

/**
 * The one document of team settings (the reason codes), stored under this name. A document saved
 * before the lots became their own resource may still hold a `lots` list: it is not read.
 */
const TEAM = 'team';

type Document = Pick<TeamSettings, 'reason_codes'>;

const EMPTY: Document = { reason_codes: [] };

/** The team's settings: empty lists, and no time or author, before an admin first saves them. */
export async function readSettings(db: Kysely<HubTables>): Promise<TeamSettings> {
  const row = await db.selectFrom('team_settings').selectAll().where('name', '=', TEAM).executeTakeFirst();
  if (!row) return { ...EMPTY, updated_at: null, updated_by: null };
  const value = JSON.parse(row.value) as Document;
  return { reason_codes: value.reason_codes, updated_at: new Date(row.updated_at).toISOString(), updated_by: row.updated_by };
}

/** Replaces the document (inside the caller's transaction, with its audit row); returns what it was before. */
export async function writeSettings(db: Kysely<HubTables>, input: Required<TeamSettingsInput>, memberId: string, now = Date.now()): Promise<Document> {
  const before = await readSettings(db);
  const value = JSON.stringify({ reason_codes: input.reason_codes });
  await db
    .insertInto('team_settings')
    .values({ name: TEAM, value, updated_at: now, updated_by: memberId })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: now, updated_by: memberId }))
    .execute();
  return { reason_codes: before.reason_codes };
}
