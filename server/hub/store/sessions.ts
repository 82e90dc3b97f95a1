import type { Kysely } from 'kysely';
import type { HubTables } from '../db/schema';
import { shaped } from '../db/shaped';
import { randomToken, sha256Hex } from '../secrets';
import type { MemberRow } from './members';

/** A session lasts this long from sign-in, whatever is done with it. */
export const SESSION_TTL_MS = 12 * 3600_000;

/** A fresh session: the token goes to the cookie, only its SHA-256 to the database. */
export async function createSession(db: Kysely<HubTables>, memberId: string, now = Date.now()): Promise<{ token: string; expiresAt: number }> {
  const token = randomToken();
  const expiresAt = now + SESSION_TTL_MS;
  await db
    .insertInto('sessions')
    .values({ id: sha256Hex(token), member_id: memberId, created_at: now, expires_at: expiresAt })
    .execute();
  return { token, expiresAt };
}

/**
 * The member behind a cookie's token, read afresh on every request (with the member's current
 * role, so a removal or a role change applies at once), or undefined.
 */
export async function sessionMember(db: Kysely<HubTables>, token: string, now = Date.now()): Promise<SessionFound | undefined> {
  const lookup = sessionLookup(db, token, now);
  return lookup.found((await db.executeQuery(lookup.statement)).rows);
}

export interface SessionFound {
  sessionId: string;
  member: MemberRow;
}

/** The same lookup as a statement to send along with others (routes/forward.ts), and how to read its rows. */
export function sessionLookup(db: Kysely<HubTables>, token: string, now = Date.now()) {
  const id = sha256Hex(token);
  return {
    statement: sessionMemberStatement(db, { id, now }),
    found: (rows: readonly unknown[]): SessionFound | undefined => (rows[0] ? { sessionId: id, member: rows[0] as MemberRow } : undefined),
  };
}

/** Every request's lookup, built directly (shapes.test.ts compares the two). */
export const sessionMemberQuery = (db: Kysely<HubTables>, id: string, now: number) =>
  db
    .selectFrom('sessions')
    .innerJoin('members', 'members.id', 'sessions.member_id')
    .selectAll('members')
    .where('sessions.id', '=', id)
    .where('sessions.expires_at', '>', now)
    .where('members.removed_at', 'is', null);

/** The same compiled once (db/shaped.ts). */
export const sessionMemberStatement = shaped(['id', 'now'], (db, v: { id: string; now: number }) => sessionMemberQuery(db, v.id, v.now));

export const endSession = (db: Kysely<HubTables>, sessionId: string) => db.deleteFrom('sessions').where('id', '=', sessionId).execute();

/** "Sign out everywhere": every session of the member, this one included. */
export async function endAllSessions(db: Kysely<HubTables>, memberId: string): Promise<number> {
  const result = await db.deleteFrom('sessions').where('member_id', '=', memberId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
