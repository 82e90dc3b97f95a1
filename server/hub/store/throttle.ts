import { sql, type Kysely } from 'kysely';
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

/**
 * Counts one failure on each key. The count is raised by one atomic upsert (a read-then-write lost
 * concurrent failures on PostgreSQL: 10 parallel wrong passwords counted 2), then the lock is set
 * from the count that upsert returned.
 */
export async function recordFailure(
  db: Kysely<HubTables>,
  policy: ThrottlePolicy,
  keys: { account: string; address: string },
  now = Date.now(),
): Promise<void> {
  const expired = sql<boolean>`signin_throttle.window_start <= ${now - policy.windowMs}`;
  for (const [kind, key] of [['account', keys.account] as const, ['address', keys.address] as const]) {
    const row = await db
      .insertInto('signin_throttle')
      .values({ key, failures: 1, window_start: now, locked_until: 0 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          failures: sql<number>`case when ${expired} then 1 else signin_throttle.failures + 1 end`,
          window_start: sql<number>`case when ${expired} then ${now} else signin_throttle.window_start end`,
          locked_until: sql<number>`case when ${expired} then 0 else signin_throttle.locked_until end`,
        }),
      )
      .returning(['failures', 'window_start'])
      .executeTakeFirstOrThrow();
    let lockedUntil: number | undefined;
    if (kind === 'account' && row.failures >= policy.perAccount) {
      lockedUntil = now + Math.min(policy.accountLockMs * 2 ** (row.failures - policy.perAccount), policy.maxLockMs);
    } else if (kind === 'address' && row.failures >= policy.perAddress) {
      lockedUntil = row.window_start + policy.windowMs;
    }
    if (lockedUntil !== undefined) await db.updateTable('signin_throttle').set({ locked_until: lockedUntil }).where('key', '=', key).execute();
  }
}

/** A right password clears the account's count (not the address's: one good account does not excuse a spray). */
export const clearAccount = (db: Kysely<HubTables>, key: string) => db.deleteFrom('signin_throttle').where('key', '=', key).execute();
