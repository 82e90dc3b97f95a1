/**
 * `npm run bench`: one performance report. Builds the console, measures the first page's
 * JavaScript and the other bundle sizes, runs Lighthouse on the frontiers page (desktop,
 * median of 5), runs every benchmark below (each one's table, bench/<name>-tables.json, with its
 * targets), writes bench/results.json, prints one table, and exits non-zero when a budget is broken.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import { CHROMIUM_ARGS, chromiumPath } from '../scripts/chromium';
import { openContext } from './harness/browser';
import { measure, percentile } from './harness/measure';
import { printTable, runBench, tablesFile, type Bench, type Row } from './harness/run';
import { startService } from './harness/service';

// Lighthouse's own variable names its browser first; otherwise the one the E2E tests use.
const CHROME = process.env.CHROME_PATH || chromiumPath();
const BENCHMARKS = ['service', 'ui', 'store', 'triage', 'bulk', 'export', 'viewer'];

const gz = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;
const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

async function bundleSizes(bench: Bench, url: string): Promise<Row[]> {
  const page = await (await openContext(bench, { executablePath: CHROME })).newPage();
  const loaded = new Set<string>();
  page.on('response', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/assets/') && path.endsWith('.js')) loaded.add(path.slice('/assets/'.length));
  });
  await page.goto(`${url}/frontiers`, { waitUntil: 'networkidle' });
  await page.getByRole('link', { name: 'Urban street scenes' }).waitFor();
  await page.context().browser()!.close();
  const assets = readdirSync('dist/assets');
  const firstPage = [...loaded].reduce((sum, f) => sum + gz(join('dist/assets', f)), 0);
  const lazy = assets.filter((f) => f.endsWith('.js') && !loaded.has(f)).map((f) => ({ f, size: gz(join('dist/assets', f)) }));
  const largestLazy = lazy.sort((a, b) => b.size - a.size)[0];
  const css = assets.filter((f) => f.endsWith('.css')).reduce((sum, f) => sum + gz(join('dist/assets', f)), 0);
  return [
    measure(`first page JS, gzipped (${loaded.size} files)`, kb(firstPage), 'KB', undefined, { max: 140 }),
    measure(`largest lazy chunk, gzipped (${largestLazy?.f ?? '-'})`, kb(largestLazy?.size ?? 0), 'KB'),
    measure('CSS, gzipped', kb(css), 'KB', undefined, { max: 30 }),
  ];
}

async function lighthouseRuns(url: string, runs = 5): Promise<Row[]> {
  const results: { score: number; lcp: number; tbt: number; cls: number }[] = [];
  for (let i = 0; i < runs; i++) {
    const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: ['--headless=new', ...CHROMIUM_ARGS] });
    try {
      const result = await lighthouse(
        `${url}/frontiers`,
        { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
        desktopConfig,
      );
      const lhr = result!.lhr;
      results.push({
        score: Math.round((lhr.categories.performance!.score ?? 0) * 100),
        lcp: lhr.audits['largest-contentful-paint']!.numericValue ?? NaN,
        tbt: lhr.audits['total-blocking-time']!.numericValue ?? NaN,
        cls: lhr.audits['cumulative-layout-shift']!.numericValue ?? NaN,
      });
    } finally {
      chrome.kill();
    }
  }
  const median = (key: keyof (typeof results)[number]) =>
    percentile(
      results.map((r) => r[key]),
      50,
    );
  return [
    measure(`performance score (median of ${runs}, desktop)`, median('score'), '', undefined, { min: 90 }),
    measure('LCP', Math.round(median('lcp')), 'ms', undefined, { max: 2500 }),
    measure('TBT', Math.round(median('tbt')), 'ms', undefined, { max: 200 }),
    measure('CLS', Math.round(median('cls') * 1000) / 1000, '', undefined, { max: 0.1 }),
  ];
}

/** Runs one benchmark as its npm script would; its table's rows, or one failed row when it wrote none or crashed. */
function runBenchmark(name: string): (Row & { group: string })[] {
  rmSync(tablesFile(name), { force: true });
  const run = spawnSync(process.execPath, ['--import', 'tsx', `bench/${name}-bench.ts`], { stdio: 'inherit' });
  const tables = existsSync(tablesFile(name)) ? (JSON.parse(readFileSync(tablesFile(name), 'utf8')) as { rows: Row[] }[]) : [];
  const rows = tables.flatMap((t) => t.rows.map((r) => ({ group: name, ...r })));
  // A run that exits non-zero without a missed target failed.
  if (!rows.length || (run.status !== 0 && !rows.some((r) => r.ok === false)))
    rows.push({ group: name, metric: `${name} benchmark failed (exit ${run.status})`, value: '-', target: 'runs', ok: false });
  return rows;
}

runBench('report', async (bench) => {
  execFileSync('npx', ['vite', 'build'], { stdio: 'inherit' });
  const rows: (Row & { group: string })[] = [];
  const service = await startService(bench, { static: 'dist' });
  rows.push(...(await bundleSizes(bench, service.url)).map((r) => ({ group: 'build', ...r })));
  rows.push(...(await lighthouseRuns(service.url)).map((r) => ({ group: 'lighthouse', ...r })));
  service.stop();
  for (const name of BENCHMARKS) rows.push(...runBenchmark(name));

  printTable('Performance report', rows);
  const broken = rows.filter((r) => r.ok === false);
  writeFileSync('bench/results.json', `${JSON.stringify({ at: new Date().toISOString(), rows, broken: broken.map((r) => r.metric) }, null, 2)}\n`);
  console.log(broken.length ? `\n${broken.length} budget(s) broken: ${broken.map((r) => r.metric).join('; ')}` : '\nAll budgets met.');
  if (broken.length) process.exitCode = 1;
});
