import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_KEY_PATTERN } from '../../src/api/contract';
import { ORG, OTHER_ORG, openTempStore, type TempStore } from '../tests/temp-store';
import { createKey, findKey, revokeKey, type CreateKeyInput } from './keys';

let store: TempStore;
beforeEach(() => {
  store = openTempStore();
});
afterEach(() => store.close());

const input = (overrides: Partial<CreateKeyInput> = {}): CreateKeyInput => ({
  name: 'Test key',
  subscriptionIds: ['live_all'],
  expiresAt: null,
  dataAccess: true,
  ...overrides,
});

describe('keys store', () => {
  it('creates a key for its subscriptions’ organization, found again by the key itself', () => {
    const created = createKey(store.db, input({ subscriptionIds: ['live_all', 'live_1001', 'live_all'] }));
    if ('refused' in created) throw new Error(created.refused);
    expect(created.key).toMatch(API_KEY_PATTERN);
    expect(created.org_id).toBe(ORG);
    const found = findKey(store.db, created.key);
    expect(found).toMatchObject({ key_id: created.key_id, org_id: ORG, data_access: true, revoked_at: null });
    expect([...(found?.subscription_ids ?? [])].sort()).toEqual(['live_1001', 'live_all']);
    const last = created.key.at(-1) === 'x' ? 'y' : 'x';
    expect(findKey(store.db, `${created.key.slice(0, -1)}${last}`)).toBeNull();
  });

  it('refuses, with the reason, a blank name, no subscriptions, an unknown one or two organizations', () => {
    expect(createKey(store.db, input({ name: '  ' }))).toEqual({ refused: 'a key needs a non-empty --name' });
    expect(createKey(store.db, input({ subscriptionIds: [] }))).toMatchObject({ refused: expect.stringContaining('at least one') });
    expect(createKey(store.db, input({ subscriptionIds: ['nope'] }))).toEqual({ refused: 'unknown subscription: nope' });
    expect(createKey(store.db, input({ subscriptionIds: ['live_all', `sim_${OTHER_ORG}`] }))).toMatchObject({
      refused: expect.stringContaining('one organization'),
    });
  });

  it('revokes a key once, keeping the first time, and reports a key that does not exist', () => {
    const created = createKey(store.db, input());
    if ('refused' in created) throw new Error(created.refused);
    expect(revokeKey(store.db, created.key_id)).toBe(true);
    const first = findKey(store.db, created.key)?.revoked_at;
    expect(first).toBeTruthy();
    expect(revokeKey(store.db, created.key_id)).toBe(true);
    expect(findKey(store.db, created.key)?.revoked_at).toBe(first);
    expect(revokeKey(store.db, 'nope')).toBe(false);
  });
});
