/**
 * `npm run bench`: one performance report. Builds the console, measures the first page's
 * JavaScript and the other bundle sizes, runs Lighthouse on the frontiers page (desktop,
 * median of 5), runs the service and UI benchmarks, writes bench/results.json, prints a
 * table, and exits non-zero when a budget is broken. Budgets live here, not in tests.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import { CHROMIUM_ARGS, chromiumPath } from '../scripts/chromium';
import { launchBenchChromium, percentile, startServiceProcess } from './lib';

// Lighthouse's own variable names its browser first; otherwise the one the E2E tests use.
const CHROME = process.env.CHROME_PATH || chromiumPath();

interface Row {
  group: string;
  metric: string;
  value: number;
  unit: string;
  budget?: { max?: number; min?: number };
  /** A benchmark's own target in words and whether it was met (tables of bench/lib.ts printTable). */
  target?: string;
  ok?: boolean;
}

const gz = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;
const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

async function bundleSizes(url: string): Promise<Row[]> {
  const browser = await launchBenchChromium(CHROME);
  const page = await browser.newPage();
  const loaded = new Set<string>();
  page.on('response', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/assets/') && path.endsWith('.js')) loaded.add(path.slice('/assets/'.length));
  });
  await page.goto(`${url}/frontiers`, { waitUntil: 'networkidle' });
  await page.getByRole('link', { name: 'Urban street scenes' }).waitFor();
  await browser.close();
  const assets = readdirSync('dist/assets');
  const js = assets.filter((f) => f.endsWith('.js'));
  const firstPage = [...loaded].reduce((sum, f) => sum + gz(join('dist/assets', f)), 0);
  const lazy = js.filter((f) => !loaded.has(f)).map((f) => ({ f, size: gz(join('dist/assets', f)) }));
  const largestLazy = lazy.sort((a, b) => b.size - a.size)[0];
  const css = assets.filter((f) => f.endsWith('.css')).reduce((sum, f) => sum + gz(join('dist/assets', f)), 0);
  return [
    { group: 'build', metric: `first page JS, gzipped (${loaded.size} files)`, value: kb(firstPage), unit: 'KB', budget: { max: 140 } },
    { group: 'build', metric: `largest lazy chunk, gzipped (${largestLazy?.f ?? '-'})`, value: kb(largestLazy?.size ?? 0), unit: 'KB' },
    { group: 'build', metric: 'CSS, gzipped', value: kb(css), unit: 'KB', budget: { max: 30 } },
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
    { group: 'lighthouse', metric: `performance score (median of ${runs}, desktop)`, value: median('score'), unit: '', budget: { min: 90 } },
    { group: 'lighthouse', metric: 'LCP', value: Math.round(median('lcp')), unit: 'ms', budget: { max: 2500 } },
    { group: 'lighthouse', metric: 'TBT', value: Math.round(median('tbt')), unit: 'ms', budget: { max: 200 } },
    { group: 'lighthouse', metric: 'CLS', value: Math.round(median('cls') * 1000) / 1000, unit: '', budget: { max: 0.1 } },
  ];
}

function runBench(script: string, resultFile: string): Record<string, any> | null {
  const run = spawnSync(process.execPath, ['--import', 'tsx', script], { stdio: 'inherit' });
  if (run.status !== 0 || !existsSync(resultFile)) return null;
  return JSON.parse(readFileSync(resultFile, 'utf8'));
}

async function main() {
  execFileSync('npx', ['vite', 'build'], { stdio: 'inherit' });
  const rows: Row[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'dds-bench-'));
  const { url, child } = await startServiceProcess(['--port', '0', '--data', dataDir, '--static', 'dist']);
  try {
    rows.push(...(await bundleSizes(url)));
    rows.push(...(await lighthouseRuns(url)));
  } finally {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }

  const service = runBench('bench/service-bench.ts', 'bench/service-results.json');
  if (service) {
    rows.push(
      { group: 'service', metric: 'incremental 200-item page p50 (1M rows)', value: round(service.incremental_p50_ms), unit: 'ms', budget: { max: 15 } },
      { group: 'service', metric: 'incremental 200-item page p99', value: round(service.incremental_p99_ms), unit: 'ms' },
      { group: 'service', metric: 're-read 200-item page p50', value: round(service.reread_p50_ms), unit: 'ms', budget: { max: 15 } },
      { group: 'service', metric: 're-read 200-item page p99', value: round(service.reread_p99_ms), unit: 'ms' },
      { group: 'service', metric: 'pulls/s, 16 clients', value: Math.round(service.pulls_per_s), unit: '/s', budget: { min: 400 } },
      { group: 'service', metric: 'adopts/s', value: Math.round(service.adopts_per_s), unit: '/s' },
    );
  } else rows.push({ group: 'service', metric: 'service benchmark failed', value: NaN, unit: '', budget: { max: 0 } });

  const ui = runBench('bench/ui-bench.ts', 'bench/ui-results.json');
  if (ui) {
    for (const key of ['a', 'd', 'j']) {
      rows.push(
        { group: 'ui', metric: `key ${key} → next item painted, median`, value: round(ui.key_ms[key].median), unit: 'ms', budget: { max: 7 } },
        { group: 'ui', metric: `key ${key} → next item painted, p95`, value: round(ui.key_ms[key].p95), unit: 'ms', budget: { max: 33 } },
        { group: 'ui', metric: `key ${key} → that frame on screen, median`, value: round(ui.key_ms[key].presented_median), unit: 'ms', budget: { max: 16.7 } },
        { group: 'ui', metric: `key ${key} presses without a measured paint`, value: ui.key_ms[key].unmatched, unit: '', budget: { max: 6 } },
      );
    }
    rows.push(
      { group: 'ui', metric: 'pull response → 200 items painted, median', value: round(ui.pull_to_paint_ms.median), unit: 'ms', budget: { max: 50 } },
      { group: 'ui', metric: 'JS heap after reviewing 2,000 items', value: round(ui.heap_mb_after_2000), unit: 'MB', budget: { max: 100 } },
      { group: 'ui', metric: `JS heap after reviewing ${ui.visit_items.toLocaleString('en-US')} items`, value: round(ui.heap_mb_after_visit), unit: 'MB' },
      { group: 'ui', metric: `list rows in the DOM at ${ui.visit_items.toLocaleString('en-US')} items`, value: ui.dom_rows, unit: '', budget: { max: 99 } },
      {
        group: 'ui',
        metric: `adoptions the service recorded of ${ui.visit_items.toLocaleString('en-US')}`,
        value: ui.visit_adopted_by_service,
        unit: '',
        budget: { min: ui.visit_items },
      },
    );
  } else rows.push({ group: 'ui', metric: 'UI benchmark failed', value: NaN, unit: '', budget: { max: 0 } });

  const store = runBench('bench/store-bench.ts', 'bench/store-results.json');
  if (store) {
    rows.push(
      { group: 'store', metric: 'items in the local store (one subscription)', value: store.items, unit: '', budget: { min: 100_000 } },
      { group: 'store', metric: 'write a 200-item page into the full store, p50', value: round(store.write_page_ms.p50), unit: 'ms', budget: { max: 50 } },
      { group: 'store', metric: 'write a 200-item page, p95', value: round(store.write_page_ms.p95), unit: 'ms' },
      {
        group: 'store',
        metric: 'open the review → first item painted, median',
        value: Math.round(store.open_first_item_ms.median),
        unit: 'ms',
        budget: { max: 1000 },
      },
      { group: 'store', metric: 'open the review → every item listed', value: Math.round(store.listed_all_ms), unit: 'ms' },
    );
  } else rows.push({ group: 'store', metric: 'store benchmark failed', value: NaN, unit: '', budget: { max: 0 } });

  // Issue 14's and 16's benchmarks print tables (bench/lib.ts printTable); each table row with a
  // target becomes a budget row here, failing the report when missed.
  for (const [group, script] of [
    ['triage', 'bench/triage-bench.ts'],
    ['bulk', 'bench/bulk-bench.ts'],
    ['export', 'bench/export-bench.ts'],
    ['viewer', 'bench/viewer-bench.ts'],
  ] as const) {
    const file = `bench/${group}-tables.json`;
    rmSync(file, { force: true });
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { stdio: 'inherit', env: { ...process.env, BENCH_RESULTS_FILE: file } });
    if (run.status !== 0 || !existsSync(file)) {
      rows.push({ group, metric: `${group} benchmark failed`, value: NaN, unit: '', budget: { max: 0 } });
      continue;
    }
    const tables = JSON.parse(readFileSync(file, 'utf8')) as { title: string; rows: { metric: string; value: string; target?: string; ok?: boolean }[] }[];
    for (const table of tables) {
      for (const r of table.rows) {
        const value = Number.parseFloat(r.value.replace(/,/g, ''));
        const unit = r.value.replace(/^[\d.,\s-]+/, '').trim();
        // A missed target is reported as over budget; a met one as ok (the row's own words say which target).
        rows.push({ group, metric: r.metric, value, unit, ...(r.target ? { target: r.target } : {}), ...(r.ok === undefined ? {} : { ok: r.ok }) });
      }
    }
  }

  const verdict = (r: Row) =>
    r.ok !== undefined
      ? r.ok
        ? 'ok'
        : 'OVER BUDGET'
      : !r.budget
        ? ''
        : Number.isNaN(r.value) || (r.budget.max !== undefined && r.value > r.budget.max) || (r.budget.min !== undefined && r.value < r.budget.min)
          ? 'OVER BUDGET'
          : 'ok';
  const budgetText = (r: Row) =>
    r.target ??
    (!r.budget ? '' : r.budget.max !== undefined ? `≤ ${r.budget.max}${r.unit ? ` ${r.unit}` : ''}` : `≥ ${r.budget.min}${r.unit ? ` ${r.unit}` : ''}`);
  const width = Math.max(...rows.map((r) => r.metric.length));
  console.log('\nPerformance report');
  console.log(`${'group'.padEnd(10)} ${'metric'.padEnd(width)} ${'value'.padStart(12)}  budget`);
  for (const r of rows) {
    console.log(
      `${r.group.padEnd(10)} ${r.metric.padEnd(width)} ${`${r.value}${r.unit ? ` ${r.unit}` : ''}`.padStart(12)}  ${budgetText(r).padEnd(12)} ${verdict(r)}`,
    );
  }
  const broken = rows.filter((r) => verdict(r) === 'OVER BUDGET');
  writeFileSync(
    'bench/results.json',
    `${JSON.stringify({ at: new Date().toISOString(), rows: rows.map((r) => ({ ...r, verdict: verdict(r) || null })), broken: broken.map((r) => r.metric) }, null, 2)}\n`,
  );
  console.log(broken.length ? `\n${broken.length} budget(s) broken: ${broken.map((r) => r.metric).join('; ')}` : '\nAll budgets met.');
  process.exit(broken.length ? 1 : 0);
}

const round = (n: number) => Math.round(n * 10) / 10;

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
