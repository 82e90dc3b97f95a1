// Starts one fresh local service per worker (port E2E_PORT + slot, data .e2e-data/w<slot>), serving the
// built console, and stops them when the run ends. `config.workers` already counts a `--workers` flag.
import type { FullConfig } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { slotDataDir, slotPort, slotURL } from './worker';

const READY_MS = 120_000;

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/v1/frontiers`)).ok;
  } catch {
    return false;
  }
}

async function start(slot: number): Promise<ChildProcess> {
  const url = slotURL(slot);
  if (await answers(url)) throw new Error(`${url} is already taken: stop what runs there or choose another E2E_PORT`);
  rmSync(slotDataDir(slot), { recursive: true, force: true });
  const args = ['--import', 'tsx', 'server/cli/service.ts', '--port', String(slotPort(slot)), '--data', slotDataDir(slot), '--static', 'dist', '--quiet'];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  let exited = false;
  child.once('exit', () => (exited = true));
  const deadline = Date.now() + READY_MS;
  // Polls the service until it answers (it needs a moment to compile and seed); gives up if it exits.
  while (!(await answers(url))) {
    if (exited) throw new Error(`the E2E service for worker ${slot} exited before it answered`);
    if (Date.now() > deadline) throw new Error(`the E2E service for worker ${slot} did not answer within ${READY_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return child;
}

export default async function globalSetup(config: FullConfig) {
  if (!existsSync('dist/index.html')) throw new Error('dist/ is missing: run `vite build` first (npm test does).');
  const slots = Array.from({ length: Math.max(1, config.workers) }, (_, slot) => slot);
  const started = await Promise.allSettled(slots.map(start));
  const children = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stop = async () => {
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        await once(child, 'exit');
      }),
    );
  };
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return stop;
}
