import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openHubStore } from '../../hub/db/open';
import { vendorCipher } from '../../hub/vendor-cipher';
import { ENGINES } from './hub-harness';
import { throwawayDatabase } from './postgres';

/*
 * `npm run hub -- secret rotate`: every vendor key and JWT sealed again under a new hub secret in
 * one transaction, or (one of them not opening) nothing changed at all.
 */

const TSX = new URL('../../../node_modules/.bin/tsx', import.meta.url).pathname;
const CLI = new URL('../../cli/hub.ts', import.meta.url).pathname;

describe.each(ENGINES)('npm run hub -- secret rotate on %s', (engine) => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it('re-seals every vendor key and JWT under the new secret and replaces DIR/hub-secret; refuses, changing nothing, when one does not open', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hub-rotate-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const database = engine === 'postgres' ? await throwawayDatabase() : undefined;
    if (database) cleanup.push(() => database.drop());
    const { HUB_SECRET: _ignored, ...env } = process.env;
    const run = (args: string[], input = '', extra: Record<string, string> = {}) => {
      const result = spawnSync(TSX, [CLI, ...args, '--data', dataDir, ...(database ? ['--database', database.url] : [])], {
        input,
        encoding: 'utf8',
        env: { ...env, ...extra },
      });
      return { status: result.status, out: `${result.stdout}${result.stderr}` };
    };
    const keys = { a: `dds_live_sk_${'A'.repeat(32)}`, b: `dds_live_sk_${'B'.repeat(32)}` };
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXJvdGF0ZQ';
    expect(run(['vendor-keys', 'add', '--name', 'a', '--subscription', 'sub_a', '--with-jwt'], `${keys.a}\n${jwt}\n`).status).toBe(0);
    expect(run(['vendor-keys', 'add', '--name', 'b', '--subscription', 'sub_b'], `${keys.b}\n`).status).toBe(0);
    const secretFile = join(dataDir, 'hub-secret');
    const oldSecret = readFileSync(secretFile, 'utf8').trim();
    const newSecret = 'the-new-hub-secret-for-the-rotate-test-0123456789';

    const store = await openHubStore({ dataDir, databaseUrl: database?.url });
    cleanup.push(() => store.close());
    const rows = () => store.db.selectFrom('vendor_keys').selectAll().orderBy('name').execute();

    // One row that does not open (altered): refused, nothing changed, the secret file untouched.
    const before = await rows();
    const parts = before[1]!.key_sealed.split('.');
    // One bit of the ciphertext flipped ("AA" in place of its last two characters changed nothing in about 1 run of 256).
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    parts[3] = body.toString('base64url');
    await store.db
      .updateTable('vendor_keys')
      .set({ key_sealed: parts.join('.') })
      .where('name', '=', 'b')
      .execute();
    const refused = run(['secret', 'rotate'], '', { HUB_NEW_SECRET: newSecret });
    expect(refused.status).not.toBe(0);
    expect(refused.out).toContain('the vendor key b does not open');
    expect((await rows())[0]!.key_sealed).toBe(before[0]!.key_sealed);
    expect(readFileSync(secretFile, 'utf8').trim()).toBe(oldSecret);
    expect(existsSync(`${secretFile}.new`)).toBe(false);
    await store.db.updateTable('vendor_keys').set({ key_sealed: before[1]!.key_sealed }).where('name', '=', 'b').execute();

    const rotated = run(['secret', 'rotate'], '', { HUB_NEW_SECRET: newSecret });
    expect(rotated.status, rotated.out).toBe(0);
    expect(JSON.parse(rotated.out)).toMatchObject({ resealed: 2, key_id: vendorCipher(Buffer.from(newSecret)).keyId, secret: secretFile });
    for (const secret of [oldSecret, newSecret, keys.a, keys.b, jwt]) expect(rotated.out).not.toContain(secret);
    expect(readFileSync(secretFile, 'utf8').trim()).toBe(newSecret);
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    expect(existsSync(`${secretFile}.new`)).toBe(false);
    const [a, b] = await rows();
    const next = vendorCipher(Buffer.from(newSecret));
    expect(next.open(a!.key_sealed, `${a!.id}.key`)).toBe(keys.a);
    expect(next.open(a!.jwt_sealed!, `${a!.id}.jwt`)).toBe(jwt);
    expect(next.open(b!.key_sealed, `${b!.id}.key`)).toBe(keys.b);
    expect(b!.jwt_sealed).toBeNull();
    expect(() => vendorCipher(Buffer.from(oldSecret)).open(a!.key_sealed, `${a!.id}.key`)).toThrow(/another hub secret/);
    // The CLI (as the hub) now works under the new secret only.
    expect(run(['vendor-keys', 'rotate', '--name', 'b'], `${keys.b}\n`).status).toBe(0);
    const audit = run(['audit']).out;
    expect(audit.match(/hub_secret\.rotate/g)).toHaveLength(1);
  });
});
