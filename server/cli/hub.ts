import { closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../lib/service-error';
import { openHubStore, type HubStore } from '../hub/db/open';
import { ROLES } from '../hub/db/schema';
import { startHub } from '../hub/main';
import { checkOidcSettings, type OidcSettings } from '../hub/oidc';
import { createPasswords, PASSWORD_MAX, PASSWORD_MIN } from '../hub/passwords';
import { randomBytes } from 'node:crypto';
import { randomToken } from '../hub/secrets';
import { appendAudit, listAudit, verifyAudit } from '../hub/store/audit';
import { addMember, findActiveByEmail, isLastAdmin, listActive, memberView, removeMember, setRole } from '../hub/store/members';
import { newVendorKeyBody } from '../hub/http/schemas';
import {
  addVendorKey,
  checkVendorKeys,
  findVendorKeyByName,
  listVendorKeys,
  lockVendorKeys,
  overlapMessage,
  removeVendorKey,
  resealVendorKeys,
  rotateVendorKey,
  vendorKeyView,
} from '../hub/store/vendor-keys';
import { checkNewSecret, hubSecretFile, loadHubSecret, vendorCipher } from '../hub/vendor-cipher';
import { oneOf, parseFlags, requireFlag, runCli, upstreamUrl } from './args';

const USAGE = `usage:
  npm run hub -- --port 8788 --host 127.0.0.1 --data DIR [--database postgres://…] [--upstream URL | --demo] [--static DIR] [--origin URL] [--allowed-host NAME] [--insecure-cookies] [--quiet]
      [--oidc-issuer URL --oidc-client-id ID [--oidc-label TEXT] [--oidc-redirect-uri URL]]   (single sign-on; client secret: HUB_OIDC_CLIENT_SECRET or DIR/oidc-client-secret)
  npm run hub -- members list --data DIR [--database URL]
  npm run hub -- members add --email E --role admin|reviewer|viewer [--password-stdin] --data DIR [--database URL]
  npm run hub -- members role --email E --role admin|reviewer|viewer --data DIR [--database URL]
  npm run hub -- members remove --email E --data DIR [--database URL]
  npm run hub -- vendor-keys list --data DIR [--database URL]
  npm run hub -- vendor-keys add --name N [--subscription ID]… [--with-jwt] --data DIR [--database URL]   (stdin: the key, then the JWT on a second line)
  npm run hub -- vendor-keys rotate --name N [--with-jwt] --data DIR [--database URL]                    (stdin: as add)
  npm run hub -- vendor-keys remove --name N --data DIR [--database URL]
  npm run hub -- audit [verify] --data DIR [--database URL]
  npm run hub -- secret rotate [--new-secret-file FILE] --data DIR [--database URL]   (new secret: HUB_NEW_SECRET, the file, or generated into DIR/hub-secret)`;

const STORE_FLAGS = { data: { type: 'string' }, database: { type: 'string' } } as const;

/** A CLI command's own store, closed when it is done (the hub may be running on it: both wait on each other's writes). */
async function withStore<T>(values: { data?: string; database?: string }, work: (store: HubStore) => Promise<T>): Promise<T> {
  const store = await openHubStore({ dataDir: requireFlag(values.data, 'data'), databaseUrl: values.database });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

const line = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

/** From stdin (never a flag: flags land in shell history and `ps`), or a generated one printed once. */
function newPassword(fromStdin: boolean): { password: string; generated: boolean } {
  if (!fromStdin) return { password: randomToken().slice(0, 20), generated: true };
  const password = readFileSync(0, 'utf8').replace(/\r?\n$/, '');
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX)
    throw new UsageError(`the password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
  return { password, generated: false };
}

async function members(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const CLI = { actorId: null, via: 'cli' } as const;
  if (command === 'list') {
    const { values } = parseFlags(rest, STORE_FLAGS);
    await withStore(values, async ({ db }) => (await listActive(db)).forEach((m) => line(memberView(m))));
    return;
  }
  if (command === 'add') {
    const { values } = parseFlags(rest, {
      ...STORE_FLAGS,
      email: { type: 'string' },
      role: { type: 'string' },
      'password-stdin': { type: 'boolean', default: false },
    });
    const email = requireFlag(values.email, 'email');
    const role = oneOf(requireFlag(values.role, 'role'), ROLES, 'role', 'viewer');
    const { password, generated } = newPassword(values['password-stdin']);
    const passwordHash = await createPasswords().hash(password);
    await withStore(values, async ({ db }) => {
      const added = await db.transaction().execute(async (trx) => {
        const member = await addMember(trx, { email, role, passwordHash });
        await appendAudit(trx, { ...CLI, action: 'member.add', target: email.toLowerCase(), outcome: 'exists' in member ? 'exists' : 'ok', details: { role } });
        return member;
      });
      if ('exists' in added) throw new UsageError(`a member with the email ${email} exists`);
      line({ member: memberView(added), ...(generated ? { password } : {}) });
    });
    return;
  }
  if (command === 'role' || command === 'remove') {
    const { values } = parseFlags(rest, {
      ...STORE_FLAGS,
      email: { type: 'string' },
      ...(command === 'role' ? { role: { type: 'string' } } : {}),
    } as typeof STORE_FLAGS & {
      email: { type: 'string' };
      role: { type: 'string' };
    });
    const email = requireFlag(values.email, 'email');
    const role = command === 'role' ? oneOf(requireFlag(values.role, 'role'), ROLES, 'role', 'viewer') : undefined;
    await withStore(values, async ({ db }) => {
      await db.transaction().execute(async (trx) => {
        const member = await findActiveByEmail(trx, email);
        if (!member) throw new UsageError(`no member with the email ${email}`);
        if (role !== 'admin' && (await isLastAdmin(trx, member))) throw new UsageError('the hub must keep one admin: make another member admin first');
        if (role) await setRole(trx, member.id, role);
        else await removeMember(trx, member.id);
        await appendAudit(trx, {
          ...CLI,
          action: role ? 'member.role' : 'member.remove',
          target: member.email,
          outcome: 'ok',
          details: role ? { from: member.role, to: role } : { role: member.role },
        });
      });
      line(role ? { email: email.toLowerCase(), role } : { removed: email.toLowerCase() });
    });
    return;
  }
  throw new UsageError(USAGE);
}

/** The key (and, with --with-jwt, the JWT on the next line) from stdin: never a flag, which lands in shell history and `ps`. */
function vendorSecretFromStdin(withJwt: boolean): { key: string; jwt?: string } {
  const [key = '', jwt = ''] = readFileSync(0, 'utf8')
    .split(/\r?\n/)
    .map((l) => l.trim());
  if (withJwt && !jwt) throw new UsageError('--with-jwt: send the key, then the JWT on a second line, on stdin');
  return withJwt ? { key, jwt } : { key };
}

async function vendorKeys(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const CLI = { actorId: null, via: 'cli' } as const;
  const { values } = parseFlags(rest, {
    ...STORE_FLAGS,
    name: { type: 'string' },
    subscription: { type: 'string', multiple: true },
    'with-jwt': { type: 'boolean', default: false },
  });
  if (command === 'list') {
    await withStore(values, async ({ db }) => (await listVendorKeys(db)).forEach((k) => line(vendorKeyView(k))));
    return;
  }
  if (command !== 'add' && command !== 'rotate' && command !== 'remove') throw new UsageError(USAGE);
  const name = requireFlag(values.name, 'name');
  const dataDir = requireFlag(values.data, 'data');
  const cipher = vendorCipher(loadHubSecret(dataDir));
  const secret = command === 'remove' ? undefined : vendorSecretFromStdin(values['with-jwt']);
  let input: { key: string; jwt?: string; subscriptions: string[] } | undefined;
  if (secret) {
    // The hub's own validation; its messages never quote the value.
    const parsed = newVendorKeyBody.safeParse({ name, ...secret, subscriptions: values.subscription ?? ['*'] });
    if (!parsed.success) throw new UsageError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    input = parsed.data;
  }
  await withStore(values, async ({ db, engine }) => {
    await checkVendorKeys(db, cipher);
    const result = await db.transaction().execute(async (trx) => {
      await lockVendorKeys(trx, engine);
      const row = await findVendorKeyByName(trx, name);
      if (command === 'add') {
        const added = await addVendorKey(trx, cipher, { name, ...input! });
        await appendAudit(trx, {
          ...CLI,
          action: 'vendor_key.add',
          target: name,
          outcome: 'exists' in added ? 'exists' : 'overlap' in added ? 'overlap' : 'ok',
          details: { subscriptions: JSON.stringify(input!.subscriptions), jwt: input!.jwt === undefined ? 0 : 1 },
        });
        if ('exists' in added) throw new UsageError(`a vendor key named ${name} exists: rotate it, or remove it first`);
        if ('overlap' in added) throw new UsageError(overlapMessage(added));
        return { vendor_key: vendorKeyView(added) };
      }
      if (!row) throw new UsageError(`no vendor key named ${name}`);
      if (command === 'rotate') {
        const next = await rotateVendorKey(trx, cipher, row, { key: input!.key, jwt: input!.jwt });
        await appendAudit(trx, { ...CLI, action: 'vendor_key.rotate', target: name, outcome: 'ok', details: { jwt: input!.jwt === undefined ? 0 : 1 } });
        return { vendor_key: vendorKeyView(next) };
      }
      await removeVendorKey(trx, row.id);
      await appendAudit(trx, { ...CLI, action: 'vendor_key.remove', target: name, outcome: 'ok' });
      return { removed: name };
    });
    line(result);
  });
}

/**
 * Re-seals every vendor key and JWT under a new hub secret, in one transaction, refusing (nothing
 * changed) if any does not open under the current one. The current secret is read as the hub
 * reads it (HUB_SECRET, else DIR/hub-secret); the new one is HUB_NEW_SECRET, --new-secret-file, or
 * generated. Without HUB_SECRET the new secret replaces DIR/hub-secret: it is written beside it
 * first (hub-secret.new, 0600) and renamed over it once the store has committed, so a crash in
 * between leaves it on disk. Stop the hub first: a running one still holds the old secret.
 */
async function secret(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command !== 'rotate') throw new UsageError(USAGE);
  const { values } = parseFlags(rest, { ...STORE_FLAGS, 'new-secret-file': { type: 'string' } });
  const dataDir = requireFlag(values.data, 'data');
  const inEnv = process.env.HUB_SECRET !== undefined;
  const current = loadHubSecret(dataDir);
  const fromFile = values['new-secret-file'];
  const given = process.env.HUB_NEW_SECRET;
  if (given !== undefined && fromFile !== undefined) throw new UsageError('give the new secret once: HUB_NEW_SECRET or --new-secret-file');
  if (inEnv && given === undefined && fromFile === undefined)
    throw new UsageError('HUB_SECRET is set: give the new secret as HUB_NEW_SECRET or --new-secret-file (then set HUB_SECRET to it)');
  const next =
    given !== undefined
      ? checkNewSecret(given, 'HUB_NEW_SECRET')
      : fromFile !== undefined
        ? checkNewSecret(readFileSync(fromFile, 'utf8'), fromFile)
        : Buffer.from(randomBytes(32).toString('base64url'), 'utf8');
  if (next.equals(current)) throw new UsageError('the new secret is the current one');
  const [from, to] = [vendorCipher(current), vendorCipher(next)];
  const staged = inEnv ? null : `${hubSecretFile(dataDir)}.new`;
  if (staged) {
    rmSync(staged, { force: true });
    const fd = openSync(staged, 'wx', 0o600);
    writeSync(fd, `${next.toString('utf8')}\n`);
    closeSync(fd);
  }
  try {
    const count = await withStore(values, ({ db, engine }) =>
      db.transaction().execute(async (trx) => {
        await lockVendorKeys(trx, engine);
        const resealed = await resealVendorKeys(trx, from, to);
        await appendAudit(trx, {
          actorId: null,
          via: 'cli',
          action: 'hub_secret.rotate',
          target: 'hub-secret',
          outcome: 'ok',
          details: { vendor_keys: resealed, from: from.keyId, to: to.keyId },
        });
        return resealed;
      }),
    );
    if (staged) renameSync(staged, hubSecretFile(dataDir));
    line({ resealed: count, key_id: to.keyId, secret: staged ? hubSecretFile(dataDir) : 'set HUB_SECRET to the new secret before the hub starts' });
  } catch (error) {
    if (staged) rmSync(staged, { force: true });
    throw error;
  }
}

async function audit(argv: string[]): Promise<void> {
  const verify = argv[0] === 'verify';
  const { values } = parseFlags(verify ? argv.slice(1) : argv, STORE_FLAGS);
  await withStore(values, async ({ db }) => {
    if (verify) {
      const verdict = await verifyAudit(db);
      line(verdict);
      // A broken chain is a failure a script must see.
      if (!verdict.ok) process.exitCode = 1;
      return;
    }
    for (let after: number | null = 0; after !== null;) {
      const page = await listAudit(db, { after, limit: 1000 });
      page.rows.forEach((r) => line({ ...r, at: new Date(r.at).toISOString() }));
      after = page.next;
    }
  });
}

/**
 * --oidc-*: single sign-on (server/hub/oidc.ts). The client secret is never a flag (flags land in
 * shell history and `ps`): HUB_OIDC_CLIENT_SECRET, else DIR/oidc-client-secret, else none (a public client).
 */
function oidcSettings(values: Record<string, unknown>, dataDir: string): OidcSettings | undefined {
  const issuer = values['oidc-issuer'] as string | undefined;
  const clientId = values['oidc-client-id'] as string | undefined;
  const others = ['oidc-client-id', 'oidc-label', 'oidc-redirect-uri'].filter((name) => values[name] !== undefined);
  if (issuer === undefined) {
    if (others.length) throw new UsageError(`--${others[0]} needs --oidc-issuer`);
    return undefined;
  }
  const secretFile = join(dataDir, 'oidc-client-secret');
  const clientSecret = process.env.HUB_OIDC_CLIENT_SECRET ?? (existsSync(secretFile) ? readFileSync(secretFile, 'utf8').trim() : undefined);
  const settings: OidcSettings = {
    issuer,
    clientId: requireFlag(clientId, 'oidc-client-id'),
    clientSecret: clientSecret || undefined,
    label: values['oidc-label'] as string | undefined,
    redirectUri: values['oidc-redirect-uri'] as string | undefined,
  };
  checkOidcSettings(settings);
  return settings;
}

async function serve(argv: string[]): Promise<void> {
  const { values } = parseFlags(argv, {
    ...STORE_FLAGS,
    port: { type: 'string', default: '8788' },
    host: { type: 'string', default: '127.0.0.1' },
    demo: { type: 'boolean', default: false },
    upstream: { type: 'string' },
    static: { type: 'string' },
    origin: { type: 'string', multiple: true },
    'allowed-host': { type: 'string', multiple: true },
    'insecure-cookies': { type: 'boolean', default: false },
    'oidc-issuer': { type: 'string' },
    'oidc-client-id': { type: 'string' },
    'oidc-label': { type: 'string' },
    'oidc-redirect-uri': { type: 'string' },
    quiet: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (!/^[0-9]{1,5}$/.test(values.port) || Number(values.port) > 65535) throw new UsageError('--port must be 0 to 65535');
  const origins = (values.origin ?? []).map((o) => {
    try {
      return new URL(o).origin;
    } catch {
      throw new UsageError(`--origin must be a URL, got ${o}`);
    }
  });
  if (values.static !== undefined && !existsSync(join(values.static, 'index.html')))
    throw new UsageError(`--static ${values.static}: no index.html there (build the console first: npx vite build)`);
  if (values.demo && values.upstream !== undefined) throw new UsageError('--demo runs its own simulator as the upstream: leave out --upstream');
  const upstream = values.upstream === undefined ? undefined : upstreamUrl(values.upstream);
  const log = values.quiet ? undefined : (text: string) => process.stdout.write(`${text}\n`);
  const dataDir = values.data ?? '.data';
  const oidc = oidcSettings(values, dataDir);
  if (values['insecure-cookies'])
    process.stderr.write('hub: --insecure-cookies: the session cookie is sent over plain http; use it only on a trusted network\n');
  const hub = await startHub({
    port: Number(values.port),
    host: values.host,
    dataDir,
    databaseUrl: values.database,
    origins,
    oidc,
    allowedHosts: values['allowed-host'],
    insecureCookies: values['insecure-cookies'],
    demo: values.demo,
    simulator: values.demo,
    upstream,
    staticDir: values.static,
    log,
    // Tests only (scale.test.ts): a killed hub's pull claim runs out sooner than the 45 s default.
    pullClaimMs: process.env.HUB_PULL_CLAIM_MS ? Number(process.env.HUB_PULL_CLAIM_MS) : undefined,
  }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new UsageError(`port ${values.port} on ${values.host} is in use: choose another with --port N`);
    throw error;
  });
  process.stdout.write(`Team hub listening on ${hub.url}\nStore: ${hub.store.describe}\n`);
  if (values.static) process.stdout.write(`Console: ${hub.url}/ (sign in with a member's email and password${oidc ? ', or with single sign-on' : ''})\n`);
  // The file's path only: the passwords stay in the file.
  if (hub.demoAccountsFile) process.stdout.write(`Demo accounts: ${hub.demoAccountsFile}\n`);
  if (hub.simulator) process.stdout.write(`Simulator (upstream): ${hub.simulator.url}\nSimulator credentials: ${hub.simulator.credentialsFile}\n`);
  else if (upstream) process.stdout.write(`Upstream: /v1 is forwarded to ${upstream}\n`);
  const stop = () => void hub.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void runCli('hub', async () => {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'members') return members(rest);
  if (command === 'audit') return audit(rest);
  if (command === 'vendor-keys') return vendorKeys(rest);
  if (command === 'secret') return secret(rest);
  if (command === 'help') return void process.stdout.write(`${USAGE}\n`);
  return serve(process.argv.slice(2));
});
