/**
 * `npm run bench:store`: the durable local store at 100,000 items, in Chromium against the local
 * service. One visit pulls a live subscription of 100,000 submissions with "Pull all new" (200 a
 * page, each page written to IndexedDB before it shows) and prints the write time per page; then
 * the review is opened afresh five times and the time from navigation to the first item painted
 * (Element Timing) is printed.
 *
 * STORE_BENCH_ITEMS sets the size (100,000); STORE_BENCH_PROFILE=disk keeps IndexedDB on disk.
 */

import { connect, openContext, VIEWPORT } from './harness/browser';
import { measure, percentile, settle } from './harness/measure';
import { runBench } from './harness/run';
import { liveStream, startService } from './harness/service';

const ITEMS = Number(process.env.STORE_BENCH_ITEMS ?? 100_000);
const SUBSCRIPTION = 'sub_bench_store';

/** A live subscription of ITEMS small submissions with a few metadata fields, like a text-labelling stream (`from` > 0: more of its submissions). */
function fixture(from = 0, count = ITEMS) {
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
  const stream = liveStream({
    frontier: '9200',
    title: 'Store benchmark stream',
    tasks: { '9201': 'Store task 0', '9202': 'Store task 1', '9203': 'Store task 2' },
    type: 'TEXT_CLASSIFICATION',
    subscription: SUBSCRIPTION,
    name: 'Store benchmark',
  });
  return from === 0 ? { ...stream, submissions } : { submissions };
}

runBench('store', async (bench) => {
  const service = await startService(bench, { static: 'dist' });
  const { url } = service;
  console.log(`importing ${ITEMS.toLocaleString('en-US')} submissions…`);
  service.importFixture('store', fixture());
  const key = service.createKey('bench:store', [SUBSCRIPTION]);
  // STORE_BENCH_PROFILE=disk measures a profile on disk, as a person's browser; by default IndexedDB is in memory.
  const onDisk = process.env.STORE_BENCH_PROFILE === 'disk';
  const context = await openContext(bench, { onDisk, viewport: VIEWPORT });
  const page = await context.newPage();
  await connect(page, url, { key, subscriptionId: SUBSCRIPTION });

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
  service.importFixture('more', fixture(ITEMS, 30 * 200));
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
      await settle(page);
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
  const fixed = (metric: string, samples: number[], q: number, digits: number, limit?: { max: number }) =>
    measure(metric, percentile(samples, q), 'ms', digits, limit);
  bench.report(`Local store benchmark (Chromium, IndexedDB ${onDisk ? 'on disk' : 'in memory'})`, [
    { metric: 'items in the store for one subscription', value: stored.toLocaleString('en-US'), target: ITEMS.toLocaleString('en-US'), ok: stored === ITEMS },
    fixed(`write a 200-item page into the full store, p50 of ${writes.length}`, writes, 50, 1, { max: 50 }),
    fixed('write a 200-item page into the full store, p95', writes, 95, 1),
    fixed(`write a 200-item page with the Connection page open in another tab, p50 of ${beside.writes.length}`, beside.writes, 50, 1),
    measure(`open the Connection page → ${pulled.toLocaleString('en-US')} items counted`, countsShown, 'ms', 0),
    fixed('write a 200-item page during Pull all new (list rendering meanwhile), p50', pullAllWrites, 50, 1),
    fixed(`Pull click → the page listed in a ${total.toLocaleString('en-US')}-item list, p50`, listUpdates, 50, 0),
    fixed(`open the review → first item painted, median of ${opens.length}`, opens, 50, 0, { max: 1000 }),
    measure('open the review → first item painted, max', Math.max(...opens), 'ms', 0),
    measure(`open the review → all ${total.toLocaleString('en-US')} listed, max`, complete, 'ms', 0),
    measure(`Pull all new, ${ITEMS.toLocaleString('en-US')} items (pages of 200)`, pullSeconds, 's', 0),
  ]);
});
