import { chromium, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Small helpers shared by the benchmarks: percentiles, a table, a service child process. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export function printTable(title: string, rows: { metric: string; value: string; target?: string; ok?: boolean }[]) {
  console.log(`\n${title}`);
  const width = Math.max(...rows.map((r) => r.metric.length), 6);
  const valueWidth = Math.max(...rows.map((r) => r.value.length), 5);
  console.log(`${'metric'.padEnd(width)}  ${'value'.padStart(valueWidth)}  target`);
  for (const r of rows) {
    const verdict = r.ok === undefined ? '' : r.ok ? '  ok' : '  MISSED';
    console.log(`${r.metric.padEnd(width)}  ${r.value.padStart(valueWidth)}  ${r.target ?? ''}${verdict}`);
  }
}

export async function startServiceProcess(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/service.ts', '--quiet', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`service exited with ${code}`)));
  });
  return { url, child };
}

export const BENCH_CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
export const benchChromiumPath = () => process.env.PLAYWRIGHT_CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

/** Debian's chromium (or PLAYWRIGHT_CHROMIUM_PATH) with the flags this machine needs. */
export function launchBenchChromium() {
  return chromium.launch({ executablePath: benchChromiumPath(), args: BENCH_CHROMIUM_ARGS });
}

/**
 * Connects through the UI with the local demo's connection plus one benchmark subscription (no
 * endpoint lists subscriptions) and the benchmark's key, remembered so that fresh contexts start
 * connected.
 */
export async function connectForBench(page: Page, url: string, key: string, subscriptionId: string) {
  // tsx keeps function names with a helper that page.evaluate'd code does not have.
  await page.addInitScript('window.__name = (fn) => fn;');
  await page.goto(`${url}/connection`);
  await page.getByRole('button', { name: 'Use the local demo' }).click();
  const added = await page.getByRole('textbox', { name: /^Subscription \d+ ID$/ }).count();
  await page.getByRole('button', { name: 'Add subscription' }).click();
  await page.getByRole('textbox', { name: `Subscription ${added + 1} ID` }).fill(subscriptionId);
  await page.getByLabel('API key', { exact: true }).fill(key);
  await page.getByRole('checkbox', { name: /Remember on this device/ }).check();
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await page.getByRole('heading', { name: 'Keys' }).waitFor();
}
