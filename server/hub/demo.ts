import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { DEMO_CREDENTIALS_FILE, demoCredentialsSchema, type DemoCredentials } from '../../src/api/contract';
import { startService } from '../main';
import type { HubTables, Role } from './db/schema';
import type { Passwords } from './passwords';
import { appendAudit } from './store/audit';
import { addMember, listActive } from './store/members';
import { listTeamSubscriptions, replaceTeamSubscriptions } from './store/team-subscriptions';
import { addVendorKey, findVendorKeyByName } from './store/vendor-keys';
import type { VendorCipher } from './vendor-cipher';

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

/**
 * `--demo`'s upstream: the simulator in this process on a loopback port, its data in DIR/simulator
 * (seeded as `npm run service` does), its credentials copied to DIR/demo-credentials.json (0600)
 * as the simulator writes them, and its API key and JWT held as the vendor key `demo` for every
 * subscription (added once: a later start keeps what an admin made of it).
 */
export async function startDemoSimulator(db: Kysely<HubTables>, cipher: VendorCipher, dataDir: string) {
  const service = await startService({
    port: 0,
    host: '127.0.0.1',
    dataDir: join(dataDir, 'simulator'),
    seed: 'demo',
    livePullForm: 'envelope',
    corsOrigins: [],
  });
  try {
    const source = service.demoCredentialsFile ?? join(service.dataDir, DEMO_CREDENTIALS_FILE);
    const credentials = demoCredentialsSchema.parse(JSON.parse(readFileSync(source, 'utf8')));
    const credentialsFile = join(dataDir, DEMO_CREDENTIALS_FILE);
    writeFileSync(credentialsFile, readFileSync(source), { mode: 0o600 });
    chmodSync(credentialsFile, 0o600);
    if (!(await findVendorKeyByName(db, 'demo'))) {
      await db.transaction().execute(async (trx) => {
        const added = await addVendorKey(trx, cipher, { name: 'demo', key: credentials.api_key, jwt: credentials.jwt, subscriptions: ['*'] });
        // Another key an admin made to cover every subscription stands: the demo key is not added beside it.
        if ('id' in added) {
          await appendAudit(trx, {
            actorId: null,
            via: 'system',
            action: 'vendor_key.add',
            target: 'demo',
            outcome: 'ok',
            details: { subscriptions: '["*"]', jwt: 1, demo: 1 },
          });
        }
      });
    }
    await seedTeamSubscriptions(db, credentials.subscriptions);
    return { service, credentialsFile };
  } catch (error) {
    await service.close();
    throw error;
  }
}

/**
 * The demo's subscriptions become the team's, once: a hub whose admin has set the list (even to
 * none after it was seeded) keeps it. The `vendor_key.add` row above says the demo seeded; this one
 * says what the console's connection is made of.
 */
async function seedTeamSubscriptions(db: Kysely<HubTables>, subscriptions: DemoCredentials['subscriptions']): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if ((await listTeamSubscriptions(trx)).length > 0) return;
    const seeded = await trx.selectFrom('audit').select('seq').where('action', '=', 'subscriptions.set').executeTakeFirst();
    if (seeded) return;
    const list = subscriptions.map((s) => ({ id: s.subscription_id, kind: s.kind, ...(s.name ? { label: s.name.slice(0, 200) } : {}) }));
    await replaceTeamSubscriptions(trx, list);
    await appendAudit(trx, {
      actorId: null,
      via: 'system',
      action: 'subscriptions.set',
      target: 'team',
      outcome: 'ok',
      details: { from: '[]', to: JSON.stringify(list.map((s) => s.id)), demo: 1 },
    });
  });
}
