import { openHubStore, type HubStore } from '../../server/hub/db/open';
import type { Bench } from './run';
import { spawnListening } from './spawn';

export interface HubProcess {
  url: string;
  /** The hub's store, opened by this process too: for a benchmark's setup and its witness reads. */
  store: HubStore;
  close(): Promise<void>;
}

/**
 * A team hub as it runs for a team: a process of its own (`npm run hub`), on a free port, forwarding
 * to `upstream`, its vendor keys sealed under `hubSecret`. A hub in the benchmark's own process
 * would share one event loop with the clients that measure it: their work and the hub's would wait
 * for each other, which no deployment does (the simulator it is compared with runs apart too).
 */
export async function startHubProcess(
  bench: Bench,
  options: { dataDir: string; databaseUrl?: string; upstream: string; hubSecret: string },
): Promise<HubProcess> {
  const args = ['--port', '0', '--host', '127.0.0.1', '--data', options.dataDir];
  if (options.databaseUrl) args.push('--database', options.databaseUrl);
  args.push('--upstream', options.upstream, '--quiet');
  const { url, close } = await spawnListening(bench, 'hub.ts', args, { env: { ...process.env, HUB_SECRET: options.hubSecret } });
  // Its schema is in place once it listens: the benchmark's own connection can set it up.
  const store = await openHubStore({ dataDir: options.dataDir, databaseUrl: options.databaseUrl });
  bench.defer(() => store.close());
  return { url, store, close };
}
