import { importFixture, readFixture } from '../fixtures/import';
import { UsageError } from '../lib/service-error';
import { openDb } from '../store/db';
import { parseFlags, requireFlag, runCli } from './args';

void runCli('fixtures', () => {
  const [command, ...rest] = process.argv.slice(2);
  if (command !== 'import') throw new UsageError('usage: npm run fixtures -- import FILE --data DIR');
  const { values, positionals } = parseFlags(rest, { data: { type: 'string' } }, true);
  if (positionals.length !== 1) throw new UsageError('usage: npm run fixtures -- import FILE --data DIR');
  const fixture = readFixture(positionals[0]!);
  const db = openDb(requireFlag(values.data, 'data'));
  try {
    process.stdout.write(`${JSON.stringify({ imported: importFixture(db, fixture) })}\n`);
  } finally {
    db.close();
  }
});
