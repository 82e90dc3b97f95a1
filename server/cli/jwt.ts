import { UsageError } from '../lib/service-error';
import { issueDashboardToken } from '../lib/jwt';
import { parseDuration } from '../lib/time';
import { openDb } from '../store/db';
import { defaultOrg } from '../store/loaders';
import { orgExists } from '../store/orgs';
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
    const org = values.org ?? defaultOrg(db);
    // The service refuses a token naming no organization it knows: say so now, not at first use.
    if (!orgExists(db, org)) throw new UsageError(`unknown organization ${org}`);
    const token = await issueDashboardToken(dataDirSecret(db, 'jwt_secret'), org, ttl);
    process.stdout.write(`${token}\n`);
  } finally {
    db.close();
  }
});
