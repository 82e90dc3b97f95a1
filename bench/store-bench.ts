/**
 * `npm run bench:store`: the durable local store at 100,000 items, in Chromium against the local
 * service. One visit pulls a live subscription of 100,000 submissions with "Pull all new" (200 a
 * page, each page written to IndexedDB before it shows) and prints the write time per page; then
 * the review is opened afresh five times and the time from navigation to the first item painted
 * (Element Timing) is printed. A benchmark, not a test: it reports numbers.
 *
 * STORE_BENCH_ITEMS sets the size (100,000); STORE_BENCH_PROFILE=disk keeps IndexedDB on disk.
 */

import { execFileSync, execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { connectForBench, launchBenchChromium, percentile, printTable, startServiceProcess } from './lib';
import { chromiumLaunchOptions } from '../scripts/chromium';

const ITEMS = Number(process.env.STORE_BENCH_ITEMS ?? 100_000);
const SUBSCRIPTION = 'sub_bench_store';

/** A live subscription of ITEMS small submissions with a few metadata fields, like a text-labelling stream. */
function writeFixture(file: string, from = 0, count = ITEMS) {
  const created = Date.UTC(2026, 0, 1);
  const submissions = Array.from({ length: count }, (_, n) => n + from).map((i) => ({
    submission_id: String(20_000_000 + i),
    task_id: String(9201 + (i % 3)),
    data: { text: `Store benchmark message ${i}: please refund order ${100_000 + i}.`, label: ['refund', 'other', 'complaint'][i % 3], tokens: 8 + (i % 40) },
    quality_score: Math.round((0.5 + (i % 50) / 100) * 100) / 100,
    quality_grade: 'ABCD'[i % 4],
    source: ['app', 'web', 'email'][i % 3],
    created_at: new Date(created + i * 1000).toISOString().slice(0, 19),
  }));
  writeFileSync(
    file,
    JSON.stringify({
      ...(from === 0
        ? {
            frontiers: [{ frontier_id: '9200', title: 'Store benchmark stream', status: 'ONLINE' }],
            tasks: [0, 1, 2].map((t) => ({
              task_id: String(9201 + t),
              frontier_id: '9200',
              name: `Store task ${t}`,
              task_type: 'TEXT_CLASSIFICATION',
              status: 'COLLECTING',
            })),
            subscriptions: [{ subscription_id: SUBSCRIPTION, kind: 'live', frontier_id: '9200', task_ids: ['9201', '9202', '9203'], name: 'Store benchmark' }],
          }
        : {}),
      submissions,
    }),
  );
}

async function main() {
  if (!existsSync('dist/index.html')) execSync('npx vite build', { stdio: 'inherit' });
  const dataDir = mkdtempSync(join(tmpdir(), 'dds-bench-store-'));
  const { url, child } = await startServiceProcess(['--port', '0', '--data', dataDir, '--static', 'dist']);
  const cli = (script: string, args: string[]) =>
    execFileSync(process.execPath, ['--import', 'tsx', `server/cli/${script}`, ...args, '--data', dataDir], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  console.log(`importing ${ITEMS.toLocaleString('en-US')} submissions…`);
  writeFixture(join(dataDir, 'store.json'));
  cli('fixtures.ts', ['import', join(dataDir, 'store.json')]);
  const demo = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as { subscriptions: { subscription_id: string }[] };
  const key = (
    JSON.parse(
      cli('keys.ts', ['create', '--name', 'bench:store', '--subscriptions', [...demo.subscriptions.map((s) => s.subscription_id), SUBSCRIPTION].join(',')]),
    ) as { key: string }
  ).key;
  // Playwright's contexts keep IndexedDB in memory; STORE_BENCH_PROFILE=disk measures a profile on disk, as a person's browser.
  const profile = process.env.STORE_BENCH_PROFILE === 'disk' ? mkdtempSync(join(tmpdir(), 'dds-bench-profile-')) : null;
  const viewport = { width: 1400, height: 1000 };
  const browser = profile ? null : await launchBenchChromium();
  const context = browser ? await browser.newContext({ viewport }) : await chromium.launchPersistentContext(profile!, { ...chromiumLaunchOptions(), viewport });
  try {
    const page = await context.newPage();
    await connectForBench(page, url, key, SUBSCRIPTION);

    const review = `${url}/review/${SUBSCRIPTION}?mode=new&limit=200`;
    await page.goto(review);
    console.log('pulling everything with Pull all new…');
    const pullStart = Date.now();
    await page.getByRole('button', { name: 'Pull all new' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Up to date/ })
      .waitFor({ timeout: 30 * 60_000 });
    const pullSeconds = (Date.now() - pullStart) / 1000;
    const pullAllWrites = await page.evaluate(() => performance.getEntriesByName('dds:store-page').map((e) => e.duration));
    const stored = await page.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const open = indexedDB.open('dds-console');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const request = open.result.transaction('items').objectStore('items').count();
            request.onsuccess = () => resolve(request.result);
          };
        }),
    );
    console.log(`${stored.toLocaleString('en-US')} items stored in ${pullSeconds.toFixed(0)} s; pulling single pages into the full store…`);

    // One page at a time into the full store, as a reviewer pulls: 20 more pages of 200 (fed by a
    // second import), each write measured on its own; then 10 more with the Connection page open
    // in another tab (it shows how many items are kept, and updates on every write).
    writeFixture(join(dataDir, 'more.json'), ITEMS, 30 * 200);
    cli('fixtures.ts', ['import', join(dataDir, 'more.json')]);
    // Each pull starts once the list shows the previous page (two frames later), so a write is timed
    // on its own, not behind the rendering of the page before; that time is reported beside it.
    let pulled = stored;
    const pullSingles = async (count: number) => {
      await page.evaluate(() => performance.clearMeasures('dds:store-page'));
      const listUpdates: number[] = [];
      for (let i = 0; i < count; i++) {
        const clicked = Date.now();
        await page.getByRole('button', { name: 'Pull', exact: true }).click();
        pulled += 200;
        await page.waitForFunction((n) => document.body.innerText.includes(`${n.toLocaleString()} items kept on this device`), pulled, { timeout: 60_000 });
        listUpdates.push(Date.now() - clicked);
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      }
      const writes = await page.evaluate(() => performance.getEntriesByName('dds:store-page').map((e) => e.duration));
      return { writes, listUpdates };
    };
    const { writes, listUpdates } = await pullSingles(20);
    const connectionTab = await context.newPage();
    await connectionTab.goto(`${url}/connection`);
    // Navigation → the counts shown (they were counted row by row on every change before the counts table).
    const countsShown = (await (
      await connectionTab.waitForFunction(
        (n) => (document.querySelector('[aria-label="Storage used"]')?.textContent?.includes(`${n} items in all`) ? performance.now() : 0),
        pulled.toLocaleString('en-US'),
        {
          polling: 'raf',
          timeout: 60_000,
        },
      )
    ).jsonValue()) as number;
    const beside = await pullSingles(10);
    // The Connection page caught up with every write.
    await connectionTab
      .getByLabel('Storage used')
      .filter({ hasText: `${pulled.toLocaleString('en-US')} items in all` })
      .waitFor({ timeout: 60_000 });
    await connectionTab.close();
    const total = pulled;
    console.log('opening the review afresh…');

    // Navigation → first item painted: the title's Element Timing entry, relative to the navigation's start.
    const opens: number[] = [];
    let complete = 0;
    for (let i = 0; i < 5; i++) {
      const fresh = await context.newPage();
      await fresh.goto(review);
      const first = await fresh.evaluate(
        () =>
          new Promise<number>((resolve) => {
            new PerformanceObserver((list, observer) => {
              const entry = (list.getEntries() as (PerformanceEntry & { identifier: string; renderTime: number; paintTime?: number })[]).find((e) =>
                e.identifier.startsWith('review-item '),
              );
              if (entry) {
                observer.disconnect();
                resolve(entry.paintTime ?? entry.renderTime);
              }
            }).observe({ type: 'element', buffered: true });
          }),
      );
      opens.push(first);
      const listed = await fresh
        .waitForFunction((n) => document.body.innerText.includes(`${n.toLocaleString()} items kept on this device`), total, { timeout: 120_000 })
        .then(() => fresh.evaluate(() => performance.now()));
      complete = Math.max(complete, listed);
      await fresh.close();
    }
    const writeP50 = percentile(writes, 50);
    const openMedian = percentile(opens, 50);
    const rows = [
      {
        metric: `items in the store for one subscription`,
        value: stored.toLocaleString('en-US'),
        target: `${ITEMS.toLocaleString('en-US')}`,
        ok: stored === ITEMS,
      },
      {
        metric: `write a 200-item page into the full store, p50 of ${writes.length}`,
        value: `${writeP50.toFixed(1)} ms`,
        target: '≤ 50 ms',
        ok: writeP50 <= 50,
      },
      { metric: 'write a 200-item page into the full store, p95', value: `${percentile(writes, 95).toFixed(1)} ms` },
      {
        metric: `write a 200-item page with the Connection page open in another tab, p50 of ${beside.writes.length}`,
        value: `${percentile(beside.writes, 50).toFixed(1)} ms`,
      },
      { metric: `open the Connection page → ${pulled.toLocaleString('en-US')} items counted`, value: `${countsShown.toFixed(0)} ms` },
      { metric: 'write a 200-item page during Pull all new (list rendering meanwhile), p50', value: `${percentile(pullAllWrites, 50).toFixed(1)} ms` },
      { metric: `Pull click → the page listed in a ${total.toLocaleString('en-US')}-item list, p50`, value: `${percentile(listUpdates, 50).toFixed(0)} ms` },
      {
        metric: `open the review → first item painted, median of ${opens.length}`,
        value: `${openMedian.toFixed(0)} ms`,
        target: '≤ 1000 ms',
        ok: openMedian <= 1000,
      },
      { metric: 'open the review → first item painted, max', value: `${Math.max(...opens).toFixed(0)} ms` },
      { metric: `open the review → all ${total.toLocaleString('en-US')} listed, max`, value: `${complete.toFixed(0)} ms` },
      { metric: `Pull all new, ${ITEMS.toLocaleString('en-US')} items (pages of 200)`, value: `${pullSeconds.toFixed(0)} s` },
    ];
    printTable(`Local store benchmark (Chromium, IndexedDB ${profile ? 'on disk' : 'in memory'})`, rows);
    writeFileSync(
      'bench/store-results.json',
      `${JSON.stringify({ items: stored, write_page_ms: { p50: writeP50, p95: percentile(writes, 95), samples: writes, connection_tab_open: beside.writes, during_pull_all_p50: percentile(pullAllWrites, 50) }, open_first_item_ms: { median: openMedian, max: Math.max(...opens), samples: opens }, listed_all_ms: complete, connection_counts_shown_ms: countsShown, pull_all_seconds: pullSeconds }, null, 2)}\n`,
    );
    if (rows.some((r) => r.ok === false)) process.exitCode = 1;
  } finally {
    await context.close();
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
