import { chromium, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { chromiumLaunchOptions } from '../scripts/chromium';

/** Small helpers shared by the benchmarks: percentiles, a table, a service child process. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export interface TableRow {
  metric: string;
  value: string;
  target?: string;
  ok?: boolean;
}

/**
 * Prints a benchmark's table; with BENCH_RESULTS_FILE set, also appends it there (JSON), so the
 * whole report (`npm run bench`, bench/index.ts) lists every benchmark's figures and verdicts.
 */
export function printTable(title: string, rows: TableRow[]) {
  const file = process.env.BENCH_RESULTS_FILE;
  if (file) {
    const tables = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as unknown[]) : [];
    writeFileSync(file, `${JSON.stringify([...tables, { title, rows }], null, 2)}\n`);
  }
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

/** The E2E tests' Chromium (scripts/chromium.ts) unless told another, with the same flags. */
export function launchBenchChromium(executablePath?: string) {
  return chromium.launch(chromiumLaunchOptions(executablePath));
}

/** tsx keeps function names with a helper (`__name`) that page.evaluate'd code does not have: pages get a stand-in. */
export const shimTsxNames = (page: Page) => page.addInitScript('window.__name = (fn) => fn;');

/**
 * Connects through the UI with the local demo's connection plus one benchmark subscription (no
 * endpoint lists subscriptions) and the benchmark's key, remembered so that fresh contexts start
 * connected.
 */
export async function connectForBench(page: Page, url: string, key: string, subscriptionId: string) {
  await shimTsxNames(page);
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
