import { KEY_EXPIRY_CHOICES } from '../../src/api/contract';
import { UsageError } from '../lib/service-error';
import { parseDuration } from '../lib/time';
import { openDb } from '../store/db';
import { createKey, listKeys, revokeKey } from '../store/keys';
import { oneOf, parseFlags, requireFlag, runCli } from './args';

const USAGE = `usage:
  npm run keys -- create --name N --subscriptions A,B [--expires 7d|30d|90d|1y|never | --expires-at ISO-8601] [--no-data-access] --data DIR
  npm run keys -- list --data DIR
  npm run keys -- revoke --key-id ID --data DIR`;

function expiresAt(expires: string | undefined, at: string | undefined): string | null {
  if (expires !== undefined && at !== undefined) throw new UsageError('use --expires or --expires-at, not both');
  if (at !== undefined) {
    // Any ISO-8601 instant, past ones included (to create an already expired key).
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(at) || Number.isNaN(Date.parse(at))) {
      throw new UsageError('--expires-at must be an ISO-8601 date-time with a zone, e.g. 2026-01-01T00:00:00Z');
    }
    return new Date(at).toISOString();
  }
  const choice = oneOf(expires, KEY_EXPIRY_CHOICES, 'expires', 'never');
  return choice === 'never' ? null : new Date(Date.now() + parseDuration(choice)!).toISOString();
}

void runCli('keys', () => {
  const [command, ...rest] = process.argv.slice(2);
  if (command === '--help' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (command === 'create') {
    const { values } = parseFlags(rest, {
      name: { type: 'string' },
      subscriptions: { type: 'string' },
      expires: { type: 'string' },
      'expires-at': { type: 'string' },
      'no-data-access': { type: 'boolean', default: false },
      data: { type: 'string' },
    });
    const dataDir = requireFlag(values.data, 'data');
    const name = requireFlag(values.name, 'name');
    const subscriptionIds = requireFlag(values.subscriptions, 'subscriptions')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const expiry = expiresAt(values.expires, values['expires-at']);
    const db = openDb(dataDir);
    try {
      const key = createKey(db, { name, subscriptionIds, expiresAt: expiry, dataAccess: !values['no-data-access'] });
      if ('refused' in key) throw new UsageError(key.refused);
      process.stdout.write(`${JSON.stringify(key)}\n`);
    } finally {
      db.close();
    }
  } else if (command === 'list') {
    const { values } = parseFlags(rest, { data: { type: 'string' } });
    const db = openDb(requireFlag(values.data, 'data'));
    try {
      for (const key of listKeys(db)) process.stdout.write(`${JSON.stringify(key)}\n`);
    } finally {
      db.close();
    }
  } else if (command === 'revoke') {
    const { values } = parseFlags(rest, { 'key-id': { type: 'string' }, data: { type: 'string' } });
    const keyId = requireFlag(values['key-id'], 'key-id');
    const db = openDb(requireFlag(values.data, 'data'));
    try {
      if (!revokeKey(db, keyId)) throw new UsageError(`no key with id ${keyId}`);
      process.stdout.write(`${JSON.stringify({ key_id: keyId, revoked: true })}\n`);
    } finally {
      db.close();
    }
  } else {
    throw new UsageError(`${command ? `unknown command ${command}` : 'no command'}: use create, list or revoke (npm run keys -- --help)`);
  }
});
