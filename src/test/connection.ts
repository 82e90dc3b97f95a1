import type { Connection } from '../data/connection';

/** A verified connection to a local service for tests (org_1, no key, no subscriptions), unless changed. */
export const testConnection = (over: Partial<Connection> = {}): Connection => ({
  id: 'c1',
  name: 'Demo',
  baseUrl: 'http://127.0.0.1:8787',
  apiKey: '',
  subscriptions: [],
  remember: false,
  verified: { org_id: 'org_1', key_id: 'k1', key_name: 'demo' },
  ...over,
});
