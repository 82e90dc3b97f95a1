import Database from 'libsql';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_CREDENTIALS_FILE, demoCredentialsSchema, type DemoCredentials } from '../../src/api/contract';
import { slotDataDir, workerSlot } from './worker';

/** This worker's service's data directory (`worker.ts`) and the CLI that works on it while it runs. */
export const E2E_DATA = slotDataDir(workerSlot());

export const demoCredentials = (): DemoCredentials => demoCredentialsSchema.parse(JSON.parse(readFileSync(join(E2E_DATA, DEMO_CREDENTIALS_FILE), 'utf8')));

function cli(script: string, args: string[]): string {
  return execFileSync(process.execPath, ['--import', 'tsx', `server/cli/${script}.ts`, ...args, '--data', E2E_DATA], {
    encoding: 'utf8',
  }).trim();
}

export function createKey(name: string, subscriptions: string[], extra: string[] = []) {
  return JSON.parse(cli('keys', ['create', '--name', name, '--subscriptions', subscriptions.join(','), ...extra])) as {
    key: string;
    key_id: string;
  };
}

export const revokeKey = (keyId: string) => cli('keys', ['revoke', '--key-id', keyId]);

/**
 * The vendor narrows a key after the console checked and saved it: the key no longer covers one
 * subscription (the keys CLI has no such command; the service reads a key's scope on every request).
 */
export function narrowKey(keyId: string, subscriptionId: string): void {
  const db = new Database(join(E2E_DATA, 'service.db'));
  try {
    db.prepare('DELETE FROM api_key_subscriptions WHERE key_id = ? AND subscription_id = ?').run(keyId, subscriptionId);
  } finally {
    db.close();
  }
}

/**
 * Imports a spec's own fixture (frontiers, tasks, submissions, verticals, items, subscriptions,
 * receipts) into the running service, once: a new worker after a failed test imports it again,
 * and the service holding it already is not an error.
 */
export function importFixture(name: string, fixture: object): void {
  const file = join(mkdtempSync(join(tmpdir(), `dds-${name}-`)), 'fixture.json');
  writeFileSync(file, JSON.stringify(fixture));
  try {
    cli('fixtures', ['import', file]);
  } catch (error) {
    if (!String((error as { stderr?: unknown }).stderr).includes('UNIQUE constraint failed')) throw error;
  }
}

/**
 * A simulated subscription in an organization of its own (its receipts and deliveries stay off
 * the demo's Usage and Deliveries pages, which other specs read), with `count` items at one price.
 */
export function pricedItemsFixture(
  name: string,
  { subscription, label, count, priceUsd }: { subscription: string; label: string; count: number; priceUsd: number },
) {
  const vertical = `v-e2e-${name}`;
  return {
    verticals: [{ id: vertical, slug: `e2e-${name}`, name: label, description: `priced at ${priceUsd} USD`, base_price_usd: priceUsd }],
    items: Array.from({ length: count }, (_, i) => ({
      id: `${name}-${String(i).padStart(2, '0')}`,
      vertical_id: vertical,
      topic_id: `topic-e2e-${name}`,
      subscription_id: subscription,
      payload: { text: `${label} item ${i}` },
      quality_score: 0.9,
      quality_method: 'consensus',
      validator_count: 3,
      consensus_ratio: 1,
      unit_price_usd: priceUsd,
      created_at: '2026-03-03T00:00:00Z',
    })),
    subscriptions: [{ subscription_id: subscription, kind: 'simulated', vertical_id: vertical, name: label, org_id: `org_e2e_${name.replaceAll('-', '_')}` }],
  };
}
