import type { Kysely, Selectable } from 'kysely';
import type { AccessTokensTable, HubTables, TokenScope } from '../db/schema';
import { ACCESS_TOKEN_PREFIX, newId, randomToken, sha256Hex } from '../secrets';
import type { MemberRow } from './members';

export type AccessTokenRow = Selectable<AccessTokensTable>;

/** A token as listed: what it may do and until when, never the token or its hash. */
export interface AccessTokenView {
  id: string;
  member_id: string;
  name: string;
  last4: string;
  scope: TokenScope;
  subscriptions: string[];
  expires_at: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const tokenView = (t: AccessTokenRow): AccessTokenView => ({
  id: t.id,
  member_id: t.member_id,
  name: t.name,
  last4: t.last4,
  scope: t.scope,
  subscriptions: JSON.parse(t.subscriptions) as string[],
  expires_at: iso(t.expires_at)!,
  created_at: iso(t.created_at)!,
  last_used_at: iso(t.last_used_at),
  revoked_at: iso(t.revoked_at),
});

/** Creates a token: the whole `ddh_pat_…` value is returned this once, only its SHA-256 is kept. */
export async function createAccessToken(
  db: Kysely<HubTables>,
  input: { memberId: string; name: string; scope: TokenScope; subscriptions: string[]; expiresAt: number },
  now = Date.now(),
): Promise<{ token: string; row: AccessTokenRow }> {
  const token = `${ACCESS_TOKEN_PREFIX}${randomToken()}`;
  const row: AccessTokenRow = {
    id: newId('pat'),
    member_id: input.memberId,
    name: input.name,
    token_hash: sha256Hex(token),
    last4: token.slice(-4),
    scope: input.scope,
    subscriptions: JSON.stringify(input.subscriptions),
    expires_at: input.expiresAt,
    created_at: now,
    last_used_at: null,
    revoked_at: null,
  };
  await db.insertInto('access_tokens').values(row).execute();
  return { token, row };
}

export const listTokens = (db: Kysely<HubTables>, memberId?: string) => {
  let query = db.selectFrom('access_tokens').selectAll().orderBy('created_at');
  if (memberId !== undefined) query = query.where('member_id', '=', memberId);
  return query.execute();
};

export const findToken = (db: Kysely<HubTables>, id: string) => db.selectFrom('access_tokens').selectAll().where('id', '=', id).executeTakeFirst();

export const revokeToken = (db: Kysely<HubTables>, id: string, now = Date.now()) =>
  db.updateTable('access_tokens').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();

export type TokenLookup = { token: AccessTokenRow; member: MemberRow } | { refused: 'INVALID_TOKEN' | 'TOKEN_EXPIRED' | 'TOKEN_REVOKED' };

/** The token behind a bearer value and its member as they are now (a removed member's tokens are dead with them). */
export async function lookupToken(db: Kysely<HubTables>, value: string, now = Date.now()): Promise<TokenLookup> {
  const token = await db.selectFrom('access_tokens').selectAll().where('token_hash', '=', sha256Hex(value)).executeTakeFirst();
  if (!token) return { refused: 'INVALID_TOKEN' };
  if (token.revoked_at !== null) return { refused: 'TOKEN_REVOKED' };
  if (token.expires_at <= now) return { refused: 'TOKEN_EXPIRED' };
  const member = await db.selectFrom('members').selectAll().where('id', '=', token.member_id).where('removed_at', 'is', null).executeTakeFirst();
  if (!member) return { refused: 'TOKEN_REVOKED' };
  // At most once a minute: a busy script does not write on every call.
  if (token.last_used_at === null || now - token.last_used_at > 60_000) {
    await db.updateTable('access_tokens').set({ last_used_at: now }).where('id', '=', token.id).execute();
  }
  return { token, member };
}
