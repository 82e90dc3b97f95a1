import type { Kysely, Selectable } from 'kysely';
import type { HubTables, MembersTable, Role } from '../db/schema';
import { newId } from '../secrets';

export type MemberRow = Selectable<MembersTable>;

/** A member as the API shows it: never the password hash. */
export interface MemberView {
  id: string;
  email: string;
  role: Role;
  created_at: string;
}

export const memberView = (m: MemberRow): MemberView => ({ id: m.id, email: m.email, role: m.role, created_at: new Date(m.created_at).toISOString() });

export const normalEmail = (email: string) => email.trim().toLowerCase();

export const findActiveByEmail = (db: Kysely<HubTables>, email: string) =>
  db.selectFrom('members').selectAll().where('email', '=', normalEmail(email)).where('removed_at', 'is', null).executeTakeFirst();

export const findActive = (db: Kysely<HubTables>, id: string) =>
  db.selectFrom('members').selectAll().where('id', '=', id).where('removed_at', 'is', null).executeTakeFirst();

export const listActive = (db: Kysely<HubTables>) => db.selectFrom('members').selectAll().where('removed_at', 'is', null).orderBy('email').execute();

/**
 * A new member, or a removed one brought back under the same address (with the new password
 * and role: nothing of the old account's sessions or tokens survives). `exists` when active.
 */
export async function addMember(
  db: Kysely<HubTables>,
  input: { email: string; role: Role; passwordHash: string },
  now = Date.now(),
): Promise<MemberRow | { exists: true }> {
  const email = normalEmail(input.email);
  const previous = await db.selectFrom('members').selectAll().where('email', '=', email).executeTakeFirst();
  if (previous && previous.removed_at === null) return { exists: true };
  if (previous) {
    await db.updateTable('members').set({ role: input.role, password_hash: input.passwordHash, removed_at: null }).where('id', '=', previous.id).execute();
    return { ...previous, role: input.role, password_hash: input.passwordHash, removed_at: null };
  }
  const row: MemberRow = { id: newId('mem'), email, role: input.role, password_hash: input.passwordHash, created_at: now, removed_at: null };
  await db.insertInto('members').values(row).execute();
  return row;
}

/** Would this change leave the hub with no admin? (Nobody could then manage members or keys.) */
export async function isLastAdmin(db: Kysely<HubTables>, member: MemberRow): Promise<boolean> {
  if (member.role !== 'admin') return false;
  const { n } = await db
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'admin')
    .where('removed_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(n) <= 1;
}

export const setRole = (db: Kysely<HubTables>, id: string, role: Role) => db.updateTable('members').set({ role }).where('id', '=', id).execute();

/** Removal ends the member's sessions and revokes their tokens in the same transaction. */
export async function removeMember(db: Kysely<HubTables>, id: string, now = Date.now()): Promise<void> {
  await db.updateTable('members').set({ removed_at: now }).where('id', '=', id).execute();
  await db.deleteFrom('sessions').where('member_id', '=', id).execute();
  await db.updateTable('access_tokens').set({ revoked_at: now }).where('member_id', '=', id).where('revoked_at', 'is', null).execute();
}
