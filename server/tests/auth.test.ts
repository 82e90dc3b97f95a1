import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyVerificationSchema } from '../../src/api/contract';
import { DB_FILE } from '../store/db';
import { cli, createKeyCli, startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const pull = (sub: string) => `/v1/live/pull?subscription_id=${sub}&limit=1&from=beginning`;

describe('API key authentication', () => {
  it('verifies the demo key', async () => {
    const response = await h.post('/v1/auth/verify-key', h.demo.api_key);
    expect(response.status).toBe(200);
    const result = keyVerificationSchema.parse(response.body);
    expect(result.org_id).toBe(h.demo.org_id);
  });

  it.each([
    ['missing', undefined, 'MISSING_API_KEY'],
    ['malformed', 'dds_live_sk_short', 'INVALID_API_KEY'],
    ['unknown', `dds_live_sk_${'A'.repeat(32)}`, 'INVALID_API_KEY'],
  ])('refuses a %s key with 401 %s on every keyed endpoint', async (_label, token, code) => {
    // Which POSTs take a body (the live feedback); the others take none (a body there is 415).
    const endpoints: [string, string, boolean?][] = [
      ['POST', '/v1/auth/verify-key'],
      ['GET', pull('sub_live_streets')],
      ['GET', '/v1/live/usage'],
      ['POST', '/v1/live/items/500001/adopt', true],
      ['POST', '/v1/live/items/500001/dispute', true],
      ['GET', '/v1/data/pull?subscription_id=sub_sim_retail'],
      ['POST', '/v1/data/items/x/adopt'],
      ['POST', '/v1/data/items/x/dispute'],
      ['GET', '/v1/data/deliveries'],
      ['GET', '/v1/data/deliveries/x/items'],
    ];
    // Without a key the request is deliberately outside the document (its security); a wrong key is only refused.
    const mark = token === undefined ? 'invalid' : undefined;
    for (const [method, path, withBody] of endpoints) {
      const body = withBody ? { subscription_id: 'sub_live_streets' } : undefined;
      const response = method === 'GET' ? await h.get(path, token, mark) : await h.post(path, token, body, mark);
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.body).toEqual({ success: false, errorCode: code, errorMessage: expect.any(String) });
      if (token) expect(response.body.errorMessage).not.toContain(token);
    }
  });

  it('refuses a key revoked from the CLI while the service runs, on the very next request', async () => {
    const key = await createKeyCli(h.dataDir, ['sub_live_streets']);
    expect((await h.get(pull('sub_live_streets'), key.key)).status).toBe(200);
    const revoked = await cli('keys', ['revoke', '--key-id', key.key_id, '--data', h.dataDir]);
    expect(revoked.code).toBe(0);
    const response = await h.get(pull('sub_live_streets'), key.key);
    expect(response.status).toBe(401);
    expect(response.body.errorCode).toBe('KEY_REVOKED');
    expect((await h.post('/v1/auth/verify-key', key.key)).body.errorCode).toBe('KEY_REVOKED');
  });

  it('refuses an expired key', async () => {
    const key = await createKeyCli(h.dataDir, ['sub_live_streets'], ['--expires-at', '2020-01-01T00:00:00Z']);
    const response = await h.post('/v1/auth/verify-key', key.key);
    expect(response.status).toBe(401);
    expect(response.body.errorCode).toBe('KEY_EXPIRED');
  });

  it('accepts an unexpired key with a chosen expiry', async () => {
    const key = await createKeyCli(h.dataDir, ['sub_live_streets'], ['--expires', '7d']);
    expect(Date.parse(key.expires_at!)).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    expect((await h.post('/v1/auth/verify-key', key.key)).status).toBe(200);
  });

  it('keeps a key to its subscriptions', async () => {
    const key = await createKeyCli(h.dataDir, ['sub_live_streets']);
    const other = await h.get(pull('sub_live_support'), key.key);
    expect(other.status).toBe(403);
    expect(other.body.errorCode).toBe('SUBSCRIPTION_NOT_IN_SCOPE');
    const sim = await h.get('/v1/data/pull?subscription_id=sub_sim_retail', key.key);
    expect(sim.status).toBe(403);
    const feedback = await h.post('/v1/live/items/500001/adopt', key.key, { subscription_id: 'sub_live_support' });
    expect(feedback.status).toBe(403);
  });

  it('lets a key without data access verify itself and read usage and deliveries, but not pull or decide', async () => {
    const key = await createKeyCli(h.dataDir, ['sub_live_streets', 'sub_sim_retail'], ['--no-data-access']);
    expect((await h.post('/v1/auth/verify-key', key.key)).status).toBe(200);
    expect((await h.get('/v1/live/usage', key.key)).status).toBe(200);
    expect((await h.get('/v1/data/deliveries', key.key)).status).toBe(200);
    for (const response of [
      await h.get(pull('sub_live_streets'), key.key),
      await h.get('/v1/data/pull?subscription_id=sub_sim_retail', key.key),
      await h.post('/v1/live/items/500001/adopt', key.key, { subscription_id: 'sub_live_streets' }),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body.errorCode).toBe('NO_DATA_ACCESS');
    }
  });

  it('does not accept a JWT as an API key', async () => {
    const response = await h.post('/v1/auth/verify-key', h.demo.jwt);
    expect(response.status).toBe(401);
    expect(response.body.errorCode).toBe('INVALID_API_KEY');
  });

  it('stores only a hash of keys', async () => {
    const key = await createKeyCli(h.dataDir, ['sub_live_streets']);
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const bytes = readFileSync(join(h.dataDir, DB_FILE));
    const wal = (() => {
      try {
        return readFileSync(join(h.dataDir, `${DB_FILE}-wal`));
      } catch {
        return Buffer.alloc(0);
      }
    })();
    expect(bytes.includes(key.key)).toBe(false);
    expect(wal.includes(key.key)).toBe(false);
    const listed = await cli('keys', ['list', '--data', h.dataDir]);
    expect(listed.stdout).not.toContain(key.key);
    expect(listed.stdout).toContain(key.key_id);
  });

  it('creates keys of the spec’s form', async () => {
    const key = await createKeyCli(h.dataDir, ['sub_live_streets']);
    expect(key.key).toMatch(/^dds_live_sk_[A-Za-z0-9_-]{32}$/);
  });
});
