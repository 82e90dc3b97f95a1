import { spawn } from 'node:child_process';
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
        if (match && output.includes('Demo accounts:')) done(match[1]!);
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
    expect(output).toContain('POST /hub/v1/session 200');
    expect(output).toContain(engine === 'postgres' ? 'Store: PostgreSQL' : 'Store: SQLite');
    for (const account of accounts) expect(output).not.toContain(account.password);
    // The store is named without its credentials.
    if (database) expect(output).not.toContain(`${new URL(database.url).username}:${new URL(database.url).password}@`);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
