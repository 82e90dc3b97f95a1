import { UsageError } from '../lib/api-error';
import { issueDashboardToken } from '../lib/jwt';
import { parseDuration } from '../lib/time';
import { openDb } from '../store/db';
import { defaultOrg } from '../store/loaders';
import { dataDirSecret } from '../store/secrets';
import { parseFlags, requireFlag, runCli } from './args';

void runCli('jwt', async () => {
  const { values } = parseFlags(process.argv.slice(2), {
    expires: { type: 'string', default: '1h' },
    org: { type: 'string' },
    data: { type: 'string' },
  });
  const ttl = parseDuration(values.expires);
  if (ttl === null) throw new UsageError('--expires must look like 15m, 1h, 7d or 1y');
  const db = openDb(requireFlag(values.data, 'data'));
  try {
    const token = await issueDashboardToken(dataDirSecret(db, 'jwt_secret'), values.org ?? defaultOrg(db), ttl);
    process.stdout.write(`${token}\n`);
  } finally {
    db.close();
  }
});
