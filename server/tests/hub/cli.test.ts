import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENGINES } from './hub-harness';
import { throwawayDatabase } from './postgres';

const TSX = new URL('../../../node_modules/.bin/tsx', import.meta.url).pathname;
const CLI = new URL('../../cli/hub.ts', import.meta.url).pathname;

describe.each(ENGINES)('npm run hub on %s', (engine) => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it('starts with --demo, writes the demo accounts to a 0600 file and no password to its output, and stops on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hub-cli-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const database = engine === 'postgres' ? await throwawayDatabase() : undefined;
    if (database) cleanup.push(() => database.drop());
    const child = spawn(TSX, [CLI, '--port', '0', '--data', dataDir, '--demo', ...(database ? ['--database', database.url] : [])], {
      env: { ...process.env, HUB_PASSWORD_COST: 'low' },
    });
    cleanup.push(() => void child.kill('SIGKILL'));
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const url = await new Promise<string>((done, fail) => {
      child.stdout.on('data', () => {
        const match = /Team hub listening on (\S+)/.exec(output);
        if (match && output.includes('Simulator credentials:')) done(match[1]!);
      });
      void exited.then((code) => fail(new Error(`the hub exited (${code}): ${output}`)));
    });
    const file = join(dataDir, 'demo-accounts.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const accounts = JSON.parse(readFileSync(file, 'utf8')) as { email: string; password: string; role: string }[];
    expect(accounts.map((a) => a.role).sort()).toEqual(['admin', 'reviewer', 'reviewer', 'viewer']);
    const admin = accounts.find((a) => a.role === 'admin')!;
    const signIn = await fetch(`${url}/hub/v1/session`, {
      method: 'POST',
      headers: { Origin: url, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: admin.email, password: admin.password }),
    });
    expect(signIn.status).toBe(200);
    // The simulator is the upstream, its demo key the hub's: a pull through the hub reaches it.
    const cookie = signIn.headers.getSetCookie()[0]!.split(';')[0]!;
    const pulled = await fetch(`${url}/v1/data/pull?subscription_id=sub_sim_retail&limit=2`, { headers: { Cookie: cookie } });
    expect(pulled.status).toBe(200);
    expect(((await pulled.json()) as { count: number }).count).toBe(2);
    const credentialsFile = join(dataDir, 'demo-credentials.json');
    expect(output).toContain(`Simulator credentials: ${credentialsFile}`);
    expect(statSync(credentialsFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'hub-secret')).mode & 0o777).toBe(0o600);
    const vendor = JSON.parse(readFileSync(credentialsFile, 'utf8')) as { api_key: string; jwt: string };
    expect(output).not.toContain(vendor.api_key);
    expect(output).not.toContain(vendor.jwt);
    expect(output).not.toContain(readFileSync(join(dataDir, 'hub-secret'), 'utf8').trim());
    expect(output).toContain('POST /hub/v1/session 200');
    expect(output).toContain(engine === 'postgres' ? 'Store: PostgreSQL' : 'Store: SQLite');
    for (const account of accounts) expect(output).not.toContain(account.password);
    // The store is named without its credentials.
    if (database) expect(output).not.toContain(`${new URL(database.url).username}:${new URL(database.url).password}@`);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('vendor-keys add, list, rotate and remove: the key on stdin, never printed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hub-cli-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const database = engine === 'postgres' ? await throwawayDatabase() : undefined;
    if (database) cleanup.push(() => database.drop());
    const run = (args: string[], input = '') => {
      const result = spawnSync(TSX, [CLI, 'vendor-keys', ...args, '--data', dataDir, ...(database ? ['--database', database.url] : [])], {
        input,
        encoding: 'utf8',
      });
      return { status: result.status, out: `${result.stdout}${result.stderr}` };
    };
    const key = `dds_live_sk_${'C'.repeat(32)}`;
    const next = `dds_live_sk_${'N'.repeat(32)}`;
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLWNsaQ';
    const added = run(['add', '--name', 'team', '--subscription', 'sub_a', '--with-jwt'], `${key}\n${jwt}\n`);
    expect(added.status, added.out).toBe(0);
    expect(JSON.parse(added.out).vendor_key).toMatchObject({ name: 'team', subscriptions: ['sub_a'], has_jwt: true });
    const listed = run(['list']);
    expect(JSON.parse(listed.out)).toMatchObject({ name: 'team' });
    const twice = run(['add', '--name', 'twice', '--subscription', 'sub_a'], `${next}\n`);
    expect(twice.status).not.toBe(0);
    expect(twice.out).toContain('subscription sub_a is already covered by the vendor key team');
    const rotated = run(['rotate', '--name', 'team'], `${next}\n`);
    expect(JSON.parse(rotated.out).vendor_key.has_jwt).toBe(false);
    const bad = run(['add', '--name', 'bad'], 'not-a-key-SECRETVALUE\n');
    expect(bad.status).not.toBe(0);
    expect(bad.out).not.toContain('SECRETVALUE');
    expect(run(['remove', '--name', 'team']).out).toContain('"removed":"team"');
    const audit = spawnSync(TSX, [CLI, 'audit', '--data', dataDir, ...(database ? ['--database', database.url] : [])], { encoding: 'utf8' }).stdout;
    expect(audit.match(/vendor_key\.\w+/g)).toEqual(['vendor_key.add', 'vendor_key.rotate', 'vendor_key.remove']);
    for (const text of [added.out, listed.out, rotated.out, audit]) for (const secret of [key, next, jwt]) expect(text).not.toContain(secret);
  });
});
