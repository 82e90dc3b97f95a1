import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { HubTables, Role } from './db/schema';
import type { Passwords } from './passwords';
import { appendAudit } from './store/audit';
import { addMember, listActive } from './store/members';

export const DEMO_ACCOUNTS_FILE = 'demo-accounts.json';

const DEMO: readonly { email: string; role: Role }[] = [
  { email: 'admin@demo.hub', role: 'admin' },
  { email: 'reviewer1@demo.hub', role: 'reviewer' },
  { email: 'reviewer2@demo.hub', role: 'reviewer' },
  { email: 'viewer@demo.hub', role: 'viewer' },
];

/**
 * `--demo` on a hub with no members: one admin, two reviewers and a viewer, each with a random
 * password, written to DIR/demo-accounts.json (0600) and nowhere else: not to stdout, not to a log.
 * A hub that already has members is left as it is (its file, if any, still holds their passwords).
 */
export async function seedDemoAccounts(db: Kysely<HubTables>, passwords: Passwords, dataDir: string): Promise<string | null> {
  if ((await listActive(db)).length > 0) return null;
  const accounts = await Promise.all(
    DEMO.map(async (a) => {
      const password = randomBytes(12).toString('base64url');
      return { ...a, password, hash: await passwords.hash(password) };
    }),
  );
  await db.transaction().execute(async (trx) => {
    for (const a of accounts) {
      await addMember(trx, { email: a.email, role: a.role, passwordHash: a.hash });
      await appendAudit(trx, { actorId: null, via: 'system', action: 'member.add', target: a.email, outcome: 'ok', details: { role: a.role, demo: 1 } });
    }
  });
  const file = join(dataDir, DEMO_ACCOUNTS_FILE);
  writeFileSync(
    file,
    `${JSON.stringify(
      accounts.map(({ email, password, role }) => ({ email, password, role })),
      null,
      2,
    )}\n`,
    { mode: 0o600 },
  );
  return file;
}
