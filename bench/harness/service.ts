import { execFileSync, execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bench } from './run';
import { spawnListening } from './spawn';

export interface Service {
  url: string;
  dataDir: string;
  /** Stops the service before the end of the benchmark. */
  stop(): void;
  /** Runs one of server/cli/ on the service's data directory; returns its output. */
  cli(script: string, args: string[]): string;
  /** Writes `fixture` into the data directory and imports it (`fixtures import`). */
  importFixture(name: string, fixture: object): void;
  /** A new key for `subscriptions`, and the demo's subscriptions too unless `demo` is false. */
  createKey(name: string, subscriptions: string[], demo?: boolean): string;
}

/**
 * Starts the local service as a child process on a free port (or `port`) and a throwaway data
 * directory (or `data`, kept). `static: 'dist'` serves the console, built first if it is not.
 * With `onLine` the service logs each request and every line of its output goes there.
 */
export async function startService(
  bench: Bench,
  options: { static?: string; data?: string; seed?: 'none'; port?: string; onLine?: (line: string) => void } = {},
): Promise<Service> {
  if (options.static === 'dist' && !existsSync('dist/index.html')) execSync('npx vite build', { stdio: 'inherit' });
  const dataDir = options.data ?? mkdtempSync(join(tmpdir(), 'dds-bench-'));
  if (!options.data) bench.defer(() => rmSync(dataDir, { recursive: true, force: true }));
  const args = ['--port', options.port ?? '0', '--data', dataDir, ...(options.seed ? ['--seed', options.seed] : [])];
  if (options.static) args.push('--static', options.static);
  if (!options.onLine) args.push('--quiet');
  const { child, url } = await spawnListening(bench, 'service.ts', args, { onLine: options.onLine });
  const cli = (script: string, cliArgs: string[]) =>
    execFileSync(process.execPath, ['--import', 'tsx', `server/cli/${script}`, ...cliArgs, '--data', dataDir], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
  return {
    url,
    dataDir,
    stop: () => child.kill('SIGTERM'),
    cli,
    importFixture(name, fixture) {
      writeFileSync(join(dataDir, `${name}.json`), JSON.stringify(fixture));
      cli('fixtures.ts', ['import', join(dataDir, `${name}.json`)]);
    },
    createKey(name, subscriptions, demo = true) {
      const demoSubscriptions = demo
        ? (JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as { subscriptions: { subscription_id: string }[] }).subscriptions
        : [];
      const scope = [...demoSubscriptions.map((s) => s.subscription_id), ...subscriptions].join(',');
      return (JSON.parse(cli('keys.ts', ['create', '--name', name, '--subscriptions', scope])) as { key: string }).key;
    },
  };
}

/** A live stream for a fixture: one frontier, its tasks (all of one type) and one live subscription over them. */
export const liveStream = (s: { frontier: string; title: string; tasks: Record<string, string>; type: string; subscription: string; name: string }) => ({
  frontiers: [{ frontier_id: s.frontier, title: s.title, status: 'ONLINE' }],
  tasks: Object.entries(s.tasks).map(([task_id, name]) => ({ task_id, frontier_id: s.frontier, name, task_type: s.type, status: 'COLLECTING' })),
  subscriptions: [{ subscription_id: s.subscription, kind: 'live', frontier_id: s.frontier, task_ids: Object.keys(s.tasks), name: s.name }],
});
