import { describe, expect, it } from 'vitest';
import { localScope, scopeOf } from '../../data';
import { scopeOfConnection } from './instance';

describe('a connection’s scope', () => {
  it('is the local store’s scope of its organization on its base URL, whatever the key', () => {
    const base = { id: 'c1', name: 'n', baseUrl: 'http://127.0.0.1:8793/', apiKey: '', subscriptions: [], remember: false };
    const a = scopeOfConnection({ ...base, verified: { org_id: 'org_1', key_id: 'k1', key_name: 'one' } });
    const b = scopeOfConnection({ ...base, id: 'c2', verified: { org_id: 'org_1', key_id: 'k2', key_name: 'two' } });
    expect(a).toBe(scopeOf('http://127.0.0.1:8793/', 'org_1'));
    expect(b).toBe(a);
    expect(scopeOfConnection(base)).not.toBe(a);
  });

  it('is where the delivered items of the same connection are kept', async () => {
    const verified = {
      id: 'c1',
      name: 'n',
      baseUrl: 'http://127.0.0.1:8793',
      apiKey: '',
      subscriptions: [],
      remember: false,
      verified: { org_id: 'org_1', key_id: 'k', key_name: 'n' },
    };
    expect(await localScope(verified)).toBe(scopeOfConnection(verified));
  });
});
