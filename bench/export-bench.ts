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
 * file (one manifest line, then every item once).
 *
 * EXPORT_BENCH_ITEMS sets the size (100,000).
 */

import { createReadStream, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { CDPSession, Page } from '@playwright/test';
import { openContext } from './harness/browser';
import { heapUsed, MB, measure, sampleHeap } from './harness/measure';
import { bundlePage, callPage, ROOT, serveDir } from './harness/pages';
import { runBench } from './harness/run';

const ITEMS = Number(process.env.EXPORT_BENCH_ITEMS ?? 100_000);
const SUBSCRIPTION = 'sub_bench_export';

/** The bench page: fills the store, then renders the dialog over the subscription's rows. */
const MAIN = `
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { localDb, saveDelivered, summaryOfLive } from '${ROOT}/src/domain/store/index.ts';
import { loadSubscriptionItems, toTriageRows } from '${ROOT}/src/domain/triage/index.ts';
import { ExportMenu } from '${ROOT}/src/features/export/index.ts';
import { readRecords } from '${ROOT}/src/features/export/read-records.ts';

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
  const before = await heapUsed(cdp);
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

runBench('export', async (bench) => {
  console.log('bundling the bench page…');
  const dist = await bundlePage(bench, 'export-bench', MAIN);
  const url = await serveDir(bench, dist);
  const downloads = join(dist, '..', 'downloads');
  mkdirSync(downloads, { recursive: true });
  const context = await openContext(bench, { acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(url);
  console.log(`filling the store with ${ITEMS.toLocaleString('en-US')} items (pages of 200)…`);
  const fillMs = await callPage<number>(page, 'benchFill', ITEMS);
  const readOnly = await callPage<{ ms: number; count: number }>(page, 'benchReadOnly');

  // As a download: no File System Access API, so chunks go into a Blob (the fallback path).
  await page.addInitScript(() => Object.defineProperty(window, 'showSaveFilePicker', { value: undefined }));
  await page.reload();
  const rows = await callPage<number>(page, 'benchMount');
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
  await filePage.addInitScript(() => {
    Object.defineProperty(window, 'showSaveFilePicker', {
      value: async ({ suggestedName }: { suggestedName: string }) => (await navigator.storage.getDirectory()).getFileHandle(suggestedName, { create: true }),
    });
  });
  await filePage.goto(url);
  await callPage(filePage, 'benchMount');
  console.log('exporting into a file handle…');
  const fileRun = await exportOnce(filePage, await context.newCDPSession(filePage));
  const written = await filePage.evaluate(async (name) => {
    const handle = await (await navigator.storage.getDirectory()).getFileHandle(name);
    return (await handle.getFile()).size;
  }, download.suggestedFilename());
  // For comparison (no target): CSV reads the selection twice (its header needs every column first).
  console.log('exporting as CSV into a file handle…');
  const csvRun = await exportOnce(filePage, await context.newCDPSession(filePage), 'CSV (.csv)');

  const seconds = { max: 10 };
  const heapMb = { max: 250 };
  bench.report(`Export benchmark: ${ITEMS.toLocaleString('en-US')} items as JSON Lines (Chromium, bench page bundled by Vite, IndexedDB in memory)`, [
    measure(`fill the store (${ITEMS / 200} pages of 200)`, fillMs / 1000, 's', 1),
    measure(`read every record from the store, nothing written (${readOnly.count.toLocaleString('en-US')})`, readOnly.ms / 1000, 's', 2),
    measure('export as a download (Blob chunks): click → saved', blobRun.seconds, 's', 2, seconds),
    measure('export as a download: JS heap peak', MB(blobRun.peak), 'MB', 0, heapMb),
    measure('export as a download: JS heap before (rows loaded)', MB(blobRun.before), 'MB', 0),
    measure('export into a file handle: click → saved', fileRun.seconds, 's', 2, seconds),
    measure('export into a file handle: JS heap peak', MB(fileRun.peak), 'MB', 0, heapMb),
    measure('export into a file handle: JS heap before', MB(fileRun.before), 'MB', 0),
    measure('CSV into a file handle (two passes, no target): click → saved', csvRun.seconds, 's', 2),
    measure('CSV into a file handle: JS heap peak', MB(csvRun.peak), 'MB', 0),
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
});
