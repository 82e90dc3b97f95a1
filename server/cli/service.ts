import { LIVE_PULL_FORMS } from '../../src/api/contract';
import { UsageError } from '../lib/service-error';
import { startService } from '../main';
import { oneOf, parseFlags, runCli, upstreamUrl } from './args';

const USAGE =
  'service --port 8787 --host 127.0.0.1 --data .data [--seed demo|none] [--live-pull-form envelope|flat] [--cors-origin URL] [--api-origin URL] [--allowed-host NAME] [--static DIR] [--upstream URL] [--quiet]';

void runCli('service', async () => {
  const { values } = parseFlags(process.argv.slice(2), {
    port: { type: 'string', default: '8787' },
    host: { type: 'string', default: '127.0.0.1' },
    data: { type: 'string', default: '.data' },
    seed: { type: 'string' },
    'live-pull-form': { type: 'string' },
    'cors-origin': { type: 'string', multiple: true },
    'api-origin': { type: 'string', multiple: true },
    'allowed-host': { type: 'string', multiple: true },
    static: { type: 'string' },
    upstream: { type: 'string' },
    quiet: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  });
  if (values.help) {
    process.stdout.write(`usage: npm run ${USAGE}\n`);
    return;
  }
  if (!/^[0-9]{1,5}$/.test(values.port) || Number(values.port) > 65535) throw new UsageError('--port must be 0 to 65535');
  const origins = (list: string[] | undefined, flag: string) =>
    (list ?? [])
      .flatMap((v) => v.split(','))
      .map((origin) => {
        try {
          return new URL(origin).origin;
        } catch {
          throw new UsageError(`--${flag} must be a URL, got ${origin}`);
        }
      });
  const upstream = values.upstream === undefined ? undefined : upstreamUrl(values.upstream);
  // A gateway holds no data: the demo and the live pull's form are the upstream's business.
  if (upstream && (values.seed !== undefined || values['live-pull-form'] !== undefined)) {
    throw new UsageError('--seed and --live-pull-form have no meaning with --upstream');
  }
  // A Host name, optionally with a port (example.com, example.com:8443): what the service will answer to.
  const allowedHosts = (list: string[] | undefined) =>
    (list ?? []).map((name) => {
      if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?$/.test(name))
        throw new UsageError(`--allowed-host must be a host name, optionally with :port, got ${name}`);
      return name;
    });
  const service = await startService({
    port: Number(values.port),
    host: values.host,
    dataDir: values.data,
    seed: upstream ? 'none' : oneOf(values.seed, ['demo', 'none'] as const, 'seed', 'demo'),
    livePullForm: oneOf(values['live-pull-form'], LIVE_PULL_FORMS, 'live-pull-form', 'envelope'),
    corsOrigins: origins(values['cors-origin'], 'cors-origin'),
    apiOrigins: origins(values['api-origin'], 'api-origin'),
    allowedHosts: allowedHosts(values['allowed-host']),
    staticDir: values.static,
    gateway: upstream ? { upstream } : undefined,
    log: values.quiet ? undefined : (line) => process.stdout.write(`${line}\n`),
  }).catch((error: unknown) => {
    // The port is taken before the data directory is opened: nothing was created or seeded.
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new UsageError(`port ${values.port} on ${values.host} is in use: choose another with \`npm start -- --port N\` (or --port N); nothing was created`);
    }
    throw error;
  });
  process.stdout.write(`Data Delivery Service listening on ${service.url}\n`);
  if (upstream) process.stdout.write(`Gateway: /v1 is forwarded to ${upstream}\n`);
  if (values.static) process.stdout.write(`Console: ${service.url}/\n`);
  if (service.demoCredentialsFile) process.stdout.write(`Demo credentials: ${service.demoCredentialsFile}\n`);
  process.stdout.write(`Data directory: ${service.dataDir}\n`);
  const stop = () => void service.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
});
