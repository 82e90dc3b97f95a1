import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_CREDENTIALS_FILE, demoCredentialsSchema, type DemoCredentials } from '../../src/api/contract';

/** The E2E service's data directory and the CLI that works on it while it runs. */
export const E2E_DATA = '.e2e-data';

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
