import type { Kysely } from 'kysely';
import type { HubTables } from '../db/schema';

/*
 * Sign-in throttling, kept in the database so a restart forgets nothing and two hubs on one
 * PostgreSQL share it. Two keys per attempt: the account (`acct:<email>`) and the address
 * (`ip:<address>`). Failures count within a window; past the limit the key is locked, the
 * account's lock doubling with each further failure.
 */

export interface ThrottlePolicy {
  windowMs: number;
  /** Failures of one account before it locks. */
  perAccount: number;
  /** The first lock of an account; each further failure doubles it, up to `maxLockMs`. */
  accountLockMs: number;
  maxLockMs: number;
  /** Failures from one address (any accounts) before it locks for the rest of the window. */
  perAddress: number;
}

export const DEFAULT_THROTTLE: ThrottlePolicy = { windowMs: 15 * 60_000, perAccount: 5, accountLockMs: 30_000, maxLockMs: 15 * 60_000, perAddress: 50 };

export const accountKey = (email: string) => `acct:${email}`;
export const addressKey = (address: string) => `ip:${address}`;

/** Milliseconds until the first of these keys unlocks, or 0 when none is locked. */
export async function lockedFor(db: Kysely<HubTables>, keys: string[], now = Date.now()): Promise<number> {
  const rows = await db.selectFrom('signin_throttle').select('locked_until').where('key', 'in', keys).execute();
  return Math.max(0, ...rows.map((r) => r.locked_until - now));
}

export async function recordFailure(
  db: Kysely<HubTables>,
  policy: ThrottlePolicy,
  keys: { account: string; address: string },
  now = Date.now(),
): Promise<void> {
  for (const [kind, key] of [['account', keys.account] as const, ['address', keys.address] as const]) {
    const row = await db.selectFrom('signin_throttle').selectAll().where('key', '=', key).executeTakeFirst();
    const fresh = !row || now - row.window_start >= policy.windowMs;
    const failures = fresh ? 1 : row.failures + 1;
    const windowStart = fresh ? now : row.window_start;
    let lockedUntil = fresh ? 0 : row.locked_until;
    if (kind === 'account' && failures >= policy.perAccount) {
      lockedUntil = now + Math.min(policy.accountLockMs * 2 ** (failures - policy.perAccount), policy.maxLockMs);
    } else if (kind === 'address' && failures >= policy.perAddress) {
      lockedUntil = windowStart + policy.windowMs;
    }
    await db
      .insertInto('signin_throttle')
      .values({ key, failures, window_start: windowStart, locked_until: lockedUntil })
      .onConflict((oc) => oc.column('key').doUpdateSet({ failures, window_start: windowStart, locked_until: lockedUntil }))
      .execute();
  }
}

/** A right password clears the account's count (not the address's: one good account does not excuse a spray). */
export const clearAccount = (db: Kysely<HubTables>, key: string) => db.deleteFrom('signin_throttle').where('key', '=', key).execute();
