import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub } from '../../hub/main';
import { loadHubSecret, vendorCipher } from '../../hub/vendor-cipher';
import { ENGINES, startTestHub, type TestHub } from './hub-harness';

/** Keys of the vendor's shape (not the simulator's: nothing here forwards). */
const vendorKey = (c: string) => `dds_live_sk_${c.repeat(32)}`;
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvcmdfZGVtbyJ9.c2lnbmF0dXJlLW9mLXRoZS12ZW5kb3I';
const SECRET = 'a-hub-secret-for-the-vendor-key-tests-0123456789';

describe.each(ENGINES)('hub vendor keys on %s', (engine) => {
  let t: TestHub;
  let admin = '';
  beforeAll(async () => {
    t = await startTestHub(engine, { hubSecret: SECRET });
    admin = await t.signIn(t.accounts.admin);
  });
  afterAll(() => t?.close());

  const add = (cookie: string, body: Record<string, unknown>, origin?: string | null) =>
    t.call('POST', '/hub/v1/vendor-keys', { cookie, origin, body: { name: 'main', key: vendorKey('A'), subscriptions: ['*'], ...body } });

  it('are added, listed, rotated and removed by an admin, the key and JWT in no answer, header, log line, audit row or stored column', async () => {
    const key = vendorKey('K');
    const rotatedKey = vendorKey('R');
    const made = await add(admin, { name: 'team', key, jwt: JWT, subscriptions: ['sub_a', 'sub_b'] });
    expect(made.status).toBe(201);
    const sealed = async () => t.hub.store.db.selectFrom('vendor_keys').selectAll().where('name', '=', 'team').executeTakeFirstOrThrow();
    // The raw columns, as added: sealed, the key nowhere in them.
    const asAdded = await sealed();
    expect(asAdded.key_sealed).toMatch(/^v1\.[0-9a-f]{12}\./);
    expect(JSON.stringify(asAdded)).not.toContain(key.slice(-12));
    expect(JSON.stringify(asAdded)).not.toContain(JWT.slice(-12));
    expect(made.body.vendor_key).toMatchObject({ name: 'team', subscriptions: ['sub_a', 'sub_b'], has_jwt: true, rotated_at: null });
    expect(Object.keys(made.body.vendor_key).sort()).toEqual(['created_at', 'has_jwt', 'id', 'name', 'rotated_at', 'subscriptions']);
    const list = await t.call('GET', '/hub/v1/vendor-keys', { cookie: admin });
    expect(list.body.vendor_keys.map((k: { name: string }) => k.name)).toContain('team');
    const rotated = await t.call('PUT', '/hub/v1/vendor-keys/team', { cookie: admin, body: { key: rotatedKey } });
    expect(rotated.status).toBe(200);
    expect(rotated.body.vendor_key.has_jwt).toBe(false);
    expect(rotated.body.vendor_key.rotated_at).not.toBeNull();

    const stored = await sealed();
    expect(stored.key_sealed).toMatch(/^v1\.[0-9a-f]{12}\./);
    expect(stored.key_sealed).not.toBe(asAdded.key_sealed);
    const removed = await t.call('DELETE', '/hub/v1/vendor-keys/team', { cookie: admin });
    expect(removed.body).toEqual({ removed: 'team' });
    expect((await t.call('GET', '/hub/v1/vendor-keys', { cookie: admin })).body.vendor_keys.map((k: { name: string }) => k.name)).not.toContain('team');

    const audit = await t.call('GET', '/hub/v1/audit?limit=1000', { cookie: admin });
    const actions = audit.body.rows.filter((r: { target: string }) => r.target === 'team').map((r: { action: string }) => r.action);
    expect(actions).toEqual(['vendor_key.add', 'vendor_key.rotate', 'vendor_key.remove']);
    const rawAudit = JSON.stringify(await t.hub.store.db.selectFrom('audit').selectAll().execute());
    const answers = [made, list, rotated, removed].map((a) => `${a.text}\n${JSON.stringify([...a.headers])}`);
    for (const text of [...answers, audit.text, rawAudit, JSON.stringify(stored), t.logs.join('\n')]) {
      for (const secret of [key, rotatedKey, JWT]) {
        expect(text).not.toContain(secret);
        // Not even a part: the key's random tail, or the JWT's signature.
        expect(text).not.toContain(secret.slice(-12));
      }
    }
  });

  it('are for admins signed in only, and a state change needs the hub’s Origin', async () => {
    for (const who of [t.accounts.reviewer1, t.accounts.viewer]) {
      const cookie = await t.signIn(who);
      expect((await t.call('GET', '/hub/v1/vendor-keys', { cookie })).status).toBe(403);
      expect((await add(cookie, { name: `by-${who.role}` })).status).toBe(403);
    }
    expect((await t.call('GET', '/hub/v1/vendor-keys')).status).toBe(401);
    const token = (
      await t.call('POST', '/hub/v1/tokens', { cookie: admin, body: { name: 'script', scope: 'decide', subscriptions: ['*'], expires_in_days: 1 } })
    ).body.token;
    expect((await t.call('GET', '/hub/v1/vendor-keys', { token, origin: null })).body.errorCode).toBe('SESSION_REQUIRED');
    const foreign = await add(admin, { name: 'foreign' }, 'https://evil.example');
    expect(foreign.status).toBe(403);
    expect(foreign.body.errorCode).toBe('CROSS_ORIGIN_REFUSED');
    expect((await t.call('GET', '/hub/v1/vendor-keys', { cookie: admin })).body.vendor_keys.map((k: { name: string }) => k.name)).not.toContain('foreign');
  });

  it('refuses a duplicate name, a malformed key (without quoting it) and an unknown name', async () => {
    expect((await add(admin, { name: 'dup' })).status).toBe(201);
    expect((await add(admin, { name: 'dup' })).body.errorCode).toBe('VENDOR_KEY_EXISTS');
    const bad = await add(admin, { name: 'bad', key: 'not-a-vendor-key-SECRETVALUE' });
    expect(bad.status).toBe(400);
    expect(bad.text).not.toContain('SECRETVALUE');
    expect((await t.call('PUT', '/hub/v1/vendor-keys/none', { cookie: admin, body: { key: vendorKey('Z') } })).status).toBe(404);
    expect((await t.call('DELETE', '/hub/v1/vendor-keys/none', { cookie: admin })).status).toBe(404);
  });

  it('refuses a key that would make a subscription covered twice, naming it; a key naming a subscription beside the `*` key is its exception', async () => {
    const wild = await t.call('GET', '/hub/v1/vendor-keys', { cookie: admin });
    const star = wild.body.vendor_keys.find((k: { subscriptions: string[] }) => k.subscriptions.includes('*'));
    expect(star).toBeDefined();
    const second = await add(admin, { name: 'second-star', subscriptions: ['sub_x', '*'] });
    expect(second.status).toBe(409);
    expect(second.body.errorCode).toBe('VENDOR_KEY_OVERLAP');
    expect(second.body.errorMessage).toContain(star.name);
    expect(second.body.errorMessage).toContain('every subscription');
    expect((await add(admin, { name: 'only-a', subscriptions: ['sub_only_a', 'sub_shared'] })).status).toBe(201);
    const twice = await add(admin, { name: 'also-a', subscriptions: ['sub_other', 'sub_shared'] });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ errorCode: 'VENDOR_KEY_OVERLAP' });
    expect(twice.body.errorMessage).toMatch(/subscription sub_shared is already covered by the vendor key only-a/);
    const names = (await t.call('GET', '/hub/v1/vendor-keys', { cookie: admin })).body.vendor_keys.map((k: { name: string }) => k.name);
    expect(names).toContain('only-a');
    expect(names).not.toContain('second-star');
    expect(names).not.toContain('also-a');
    // Two admins adding the same subscription at once: one wins.
    const both = await Promise.all(['race-1', 'race-2'].map((name) => add(admin, { name, subscriptions: ['sub_raced'] })));
    expect(both.map((a) => a.status).sort()).toEqual([201, 409]);
    const refused = (await t.call('GET', '/hub/v1/audit?action=vendor_key.add&limit=1000', { cookie: admin })).body.rows.filter(
      (r: { outcome: string }) => r.outcome === 'overlap',
    );
    expect(refused.map((r: { target: string }) => r.target).sort()).toEqual(['also-a', expect.stringMatching(/^race-/), 'second-star']);
  });

  it('will not start under another hub secret, and says so', async () => {
    expect((await add(admin, { name: 'sealed', subscriptions: ['sub_sealed'] })).status).toBe(201);
    const other = startHub({
      port: 0,
      host: '127.0.0.1',
      dataDir: t.dataDir,
      databaseUrl: t.databaseUrl,
      hubSecret: 'another-secret-entirely-0123456789abcdef',
    });
    await expect(other).rejects.toThrow(/another hub secret/);
  });
});

describe('the hub secret and the vendor-key cipher', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('takes HUB_SECRET when set (refusing a short one), else creates DIR/hub-secret 0600 once and keeps it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hub-secret-'));
    dirs.push(dir);
    expect(() => loadHubSecret(dir, { HUB_SECRET: 'short' })).toThrow(/at least 32/);
    expect(loadHubSecret(dir, { HUB_SECRET: SECRET }).toString()).toBe(SECRET);
    expect(existsSync(join(dir, 'hub-secret'))).toBe(false);
    const made = loadHubSecret(dir, {});
    expect(statSync(join(dir, 'hub-secret')).mode & 0o777).toBe(0o600);
    expect(loadHubSecret(dir, {}).equals(made)).toBe(true);
  });

  it('opens only what it sealed, in the row and field it was sealed for, under the same secret', () => {
    const cipher = vendorCipher(Buffer.from(SECRET));
    const key = vendorKey('S');
    const sealed = cipher.seal(key, 'vk_1.key');
    expect(sealed).not.toContain(key.slice(-12));
    expect(cipher.seal(key, 'vk_1.key')).not.toBe(sealed);
    expect(cipher.open(sealed, 'vk_1.key')).toBe(key);
    expect(() => cipher.open(sealed, 'vk_2.key')).toThrow(/does not decrypt/);
    // One bit of the ciphertext flipped. (Its last two characters set to "AA" changed nothing in
    // about 1 run of 256: they could be "AA" already, or differ only in the padding bits.)
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    parts[3] = body.toString('base64url');
    expect(() => cipher.open(parts.join('.'), 'vk_1.key')).toThrow(/does not decrypt/);
    expect(() => vendorCipher(Buffer.from(`${SECRET}x`)).open(sealed, 'vk_1.key')).toThrow(/another hub secret/);
  });
});
