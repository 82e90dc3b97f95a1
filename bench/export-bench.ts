/**
 * `npm run bench:export`: export 100,000 stored items as JSON Lines in Chromium, through the
 * Export… dialog itself. A bench page bundled by Vite (not the built console: the items view
 * that will hold the dialog is wired in elsewhere) fills the local store with 100,000 live items
 * written as pulls write them (pages of 200), loads the subscription's rows as the items view
 * does, and renders <ExportMenu>. The benchmark clicks Export…, Everything, Export 100,000 items
 * and waits for "Saved 100,000 items", twice: once as a download (a Blob built chunk by chunk,
 * where the browser has no File System Access API) and once into a file handle (an origin-private
 * file standing in for the one the save picker returns). During each it samples the page's JS heap
 * with CDP `Runtime.getHeapUsage` every 20 ms and prints the time and the peak; then it checks the
 * file (one manifest line, then every item once). A benchmark, not a test: it reports numbers.
 *
 * EXPORT_BENCH_ITEMS sets the size (100,000).
 */

import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync, createReadStream } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import react from '@vitejs/plugin-react';
import type { CDPSession, Page } from '@playwright/test';
import { build } from 'vite';
import { launchBenchChromium, printTable, shimTsxNames } from './lib';

const ITEMS = Number(process.env.EXPORT_BENCH_ITEMS ?? 100_000);
const SUBSCRIPTION = 'sub_bench_export';
const root = resolve(import.meta.dirname, '..');
// Inside the repository, so the page's imports resolve from its node_modules.
const work = join(root, 'node_modules', '.cache', 'export-bench');

/** The bench page: fills the store, then renders the dialog over the subscription's rows. */
const MAIN = `
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { localDb, saveDelivered, summaryOfLive } from '${root}/src/domain/store/index.ts';
import { loadSubscriptionItems, toTriageRows } from '${root}/src/domain/triage/index.ts';
import { ExportMenu } from '${root}/src/features/export/index.ts';
import { readRecords } from '${root}/src/features/export/read-records.ts';

const SCOPE = 'http://127.0.0.1 org_bench';
const SUBSCRIPTION = '${SUBSCRIPTION}';
const LABELS = ['refund', 'shipping', 'account', 'product', 'cancel'];

/** A text-labelling submission of about 400 bytes, one in five adopted by the service. */
const submission = (i) => ({
  submission_id: String(30_000_000 + i),
  task_id: String(9301 + (i % 3)),
  frontier_id: '9300',
  campaign_id: 'camp-' + (i % 7),
  data: {
    text: 'Export benchmark message ' + i + ': the parcel for order ' + (100000 + i) + ' arrived damaged, please advise on a refund or a replacement.',
    label: LABELS[i % 5],
    tokens: 12 + (i % 40),
    meta: { language: 'en', channel: ['app', 'web', 'email'][i % 3], annotator: { id: 'a' + (i % 50), tenure_days: i % 400 } },
  },
  quality_score: Math.round((0.5 + (i % 50) / 100) * 100) / 100,
  quality_grade: 'ABCD'[i % 4],
  source: ['app', 'web', 'email'][i % 3],
  created_at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString().slice(0, 19),
  consumer_feedback: i % 5 === 0 ? 'adopt' : null,
});

window.benchFill = async (count) => {
  const db = localDb();
  const started = performance.now();
  for (let from = 0; from < count; from += 200) {
    const page = [];
    for (let i = from; i < Math.min(count, from + 200); i++) {
      const record = submission(i);
      page.push({ summary: summaryOfLive(record), record });
    }
    await saveDelivered(db, SCOPE, SUBSCRIPTION, 'incremental', page, 1_700_000_000_000 + from);
  }
  return performance.now() - started;
};

/** The store's share of an export: every record read, nothing written. */
window.benchReadOnly = async () => {
  const rows = toTriageRows(await loadSubscriptionItems(SCOPE, SUBSCRIPTION), []);
  const started = performance.now();
  let count = 0;
  for await (const { record } of readRecords(rows)) if (record) count++;
  return { ms: performance.now() - started, count };
};

window.benchMount = async () => {
  const rows = toTriageRows(await loadSubscriptionItems(SCOPE, SUBSCRIPTION), []);
  const connection = { id: 'bench', name: 'Export bench', baseUrl: 'http://127.0.0.1', apiKey: '', subscriptions: [], remember: false };
  const subscription = { id: SUBSCRIPTION, kind: 'live' };
  const host = document.getElementById('root');
  createRoot(host).render(createElement(ExportMenu, { connection, subscription, rows, allRows: rows, filters: {} }));
  return rows.length;
};
`;

async function buildPage(): Promise<string> {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'index.html'), '<!doctype html><html><body><div id="root"></div><script type="module" src="./main.js"></script></body></html>');
  writeFileSync(join(work, 'main.js'), MAIN);
  await build({
    configFile: false,
    root: work,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir: join(work, 'dist'), emptyOutDir: true, target: 'es2022', modulePreload: { polyfill: false } },
  });
  return join(work, 'dist');
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

function serve(dir: string): Promise<{ url: string; close: () => void }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const file = join(dir, path === '/' ? 'index.html' : path);
    if (!file.startsWith(dir)) return void response.writeHead(404).end();
    try {
      const body = readFileSync(file);
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () => done({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() })),
  );
}

/** The JS heap's used size, sampled every 20 ms until stopped: the peak and the samples' count. */
function sampleHeap(cdp: CDPSession) {
  let peak = 0;
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
      peak = Math.max(peak, usedSize);
      samples++;
      await new Promise((done) => setTimeout(done, 20));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return { peak, samples };
  };
}

const MB = (bytes: number) => bytes / (1024 * 1024);

/** Lines of a file and its first and last line, read as a stream. */
async function linesOf(file: string) {
  let count = 0;
  let first = '';
  let last = '';
  for await (const line of createInterface({ input: createReadStream(file) })) {
    if (count === 0) first = line;
    if (line) last = line;
    count++;
  }
  return { count, first, last };
}

/** One export through the dialog: the time from the click to "Saved …", the heap's peak. */
async function exportOnce(page: Page, cdp: CDPSession, format = 'JSON Lines (.jsonl)') {
  await page.getByRole('button', { name: 'Export…' }).click();
  await page.getByRole('radio', { name: /^Everything/ }).check();
  await page.getByRole('radio', { name: format }).check();
  await cdp.send('HeapProfiler.collectGarbage');
  const before = ((await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }).usedSize;
  const stop = sampleHeap(cdp);
  const started = Date.now();
  await page.getByRole('button', { name: `Export ${ITEMS.toLocaleString('en-US')} items` }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `Saved ${ITEMS.toLocaleString('en-US')} items as` })
    .waitFor({ timeout: 10 * 60_000 });
  const seconds = (Date.now() - started) / 1000;
  const heap = await stop();
  await page.getByRole('button', { name: 'Close' }).click();
  return { seconds, before, ...heap };
}

async function main() {
  console.log('bundling the bench page…');
  const dist = await buildPage();
  const { url, close } = await serve(dist);
  const browser = await launchBenchChromium();
  const downloads = join(work, 'downloads');
  mkdirSync(downloads, { recursive: true });
  try {
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    await shimTsxNames(page);
    await page.goto(url);
    console.log(`filling the store with ${ITEMS.toLocaleString('en-US')} items (pages of 200)…`);
    const fillMs = await page.evaluate((n) => (window as unknown as { benchFill: (n: number) => Promise<number> }).benchFill(n), ITEMS);
    const readOnly = await page.evaluate(() => (window as unknown as { benchReadOnly: () => Promise<{ ms: number; count: number }> }).benchReadOnly());

    // As a download: no File System Access API, so chunks go into a Blob (the fallback path).
    await page.addInitScript(() => Object.defineProperty(window, 'showSaveFilePicker', { value: undefined }));
    await page.reload();
    const mount = () => page.evaluate(() => (window as unknown as { benchMount: () => Promise<number> }).benchMount());
    const rows = await mount();
    console.log(`${rows.toLocaleString('en-US')} rows loaded; exporting as a download…`);
    const downloaded = page.waitForEvent('download', { timeout: 10 * 60_000 });
    const blobRun = await exportOnce(page, await context.newCDPSession(page));
    const download = await downloaded;
    const file = join(downloads, download.suggestedFilename());
    await download.saveAs(file);
    const lines = await linesOf(file);
    const manifest = (JSON.parse(lines.first) as { manifest: { count: number } }).manifest;
    const lastItem = (JSON.parse(lines.last) as { item_id: string }).item_id;

    // Into a file handle: the save picker's stand-in returns an origin-private file, written as it goes.
    const filePage = await context.newPage();
    await shimTsxNames(filePage);
    await filePage.addInitScript(() => {
      Object.defineProperty(window, 'showSaveFilePicker', {
        value: async ({ suggestedName }: { suggestedName: string }) => (await navigator.storage.getDirectory()).getFileHandle(suggestedName, { create: true }),
      });
    });
    await filePage.goto(url);
    await filePage.evaluate(() => (window as unknown as { benchMount: () => Promise<number> }).benchMount());
    console.log('exporting into a file handle…');
    const fileRun = await exportOnce(filePage, await context.newCDPSession(filePage));
    const written = await filePage.evaluate(async (name) => {
      const handle = await (await navigator.storage.getDirectory()).getFileHandle(name);
      return (await handle.getFile()).size;
    }, download.suggestedFilename());
    // For comparison (no target): CSV reads the selection twice (its header needs every column first).
    console.log('exporting as CSV into a file handle…');
    const csvRun = await exportOnce(filePage, await context.newCDPSession(filePage), 'CSV (.csv)');

    const target = { seconds: 10, heapMb: 250 };
    printTable(`Export benchmark: ${ITEMS.toLocaleString('en-US')} items as JSON Lines (Chromium, bench page bundled by Vite, IndexedDB in memory)`, [
      { metric: `fill the store (${ITEMS / 200} pages of 200)`, value: `${(fillMs / 1000).toFixed(1)} s` },
      {
        metric: `read every record from the store, nothing written (${readOnly.count.toLocaleString('en-US')})`,
        value: `${(readOnly.ms / 1000).toFixed(2)} s`,
      },
      {
        metric: 'export as a download (Blob chunks): click → saved',
        value: `${blobRun.seconds.toFixed(2)} s`,
        target: `≤ ${target.seconds} s`,
        ok: blobRun.seconds <= target.seconds,
      },
      {
        metric: 'export as a download: JS heap peak',
        value: `${MB(blobRun.peak).toFixed(0)} MB`,
        target: `≤ ${target.heapMb} MB`,
        ok: MB(blobRun.peak) <= target.heapMb,
      },
      { metric: 'export as a download: JS heap before (rows loaded)', value: `${MB(blobRun.before).toFixed(0)} MB` },
      {
        metric: 'export into a file handle: click → saved',
        value: `${fileRun.seconds.toFixed(2)} s`,
        target: `≤ ${target.seconds} s`,
        ok: fileRun.seconds <= target.seconds,
      },
      {
        metric: 'export into a file handle: JS heap peak',
        value: `${MB(fileRun.peak).toFixed(0)} MB`,
        target: `≤ ${target.heapMb} MB`,
        ok: MB(fileRun.peak) <= target.heapMb,
      },
      { metric: 'export into a file handle: JS heap before', value: `${MB(fileRun.before).toFixed(0)} MB` },
      { metric: 'CSV into a file handle (two passes, no target): click → saved', value: `${csvRun.seconds.toFixed(2)} s` },
      { metric: 'CSV into a file handle: JS heap peak', value: `${MB(csvRun.peak).toFixed(0)} MB` },
      { metric: 'heap samples (download / file)', value: `${blobRun.samples} / ${fileRun.samples}` },
      {
        metric: 'file: size (download / file handle)',
        value: `${MB(statSync(file).size).toFixed(1)} / ${MB(written).toFixed(1)} MB`,
        ok: statSync(file).size === written,
      },
      {
        metric: 'file: manifest count, item lines, last item',
        value: `${manifest.count} / ${lines.count - 1} / ${lastItem}`,
        ok: manifest.count === ITEMS && lines.count - 1 === ITEMS && lastItem === String(30_000_000 + ITEMS - 1),
      },
    ]);
    if ([blobRun, fileRun].some((r) => r.seconds > target.seconds || MB(r.peak) > target.heapMb)) process.exitCode = 1;
  } finally {
    await browser.close();
    close();
    rmSync(work, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
