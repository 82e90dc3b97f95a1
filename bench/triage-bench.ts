/**
 * `npm run bench:triage`: the items view at 100,000 stored items, in Chromium against the local
 * service. The store is filled directly in IndexedDB (rows shaped as the console writes them,
 * under the scope a real pull created), which takes seconds where pulling 100,000 items takes
 * minutes; then the items view is opened and timed, in the page, from the user's action to the
 * next frame after the table and the counts show the change:
 * - a filter change (a grade ticked or unticked), a sort change (a header clicked),
 * - a text search: the first (the content index is built from the stored pages) and later ones
 *   (the index is cached).
 * TRIAGE_BENCH_ITEMS sets the size (100,000).
 */
import type { Page } from '@playwright/test';
import { connect, openContext, VIEWPORT } from './harness/browser';
import { measure, percentile } from './harness/measure';
import { runBench } from './harness/run';
import { startService } from './harness/service';

const ITEMS = Number(process.env.TRIAGE_BENCH_ITEMS ?? 100_000);
const SUBSCRIPTION = 'sub_live_support';
const RUNS = 20;

/** Writes ITEMS item rows and their records (pages of 200) under the scope of the item a real pull stored. */
async function fillStore(page: Page, count: number) {
  return page.evaluate(
    async ({ count, subscriptionId }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('dds-console');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const done = (tx: IDBTransaction) =>
        new Promise<void>((resolve, reject) => {
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        });
      const sample = await new Promise<Record<string, unknown>>((resolve, reject) => {
        const request = db.transaction('items').objectStore('items').openCursor();
        request.onsuccess = () => resolve(request.result!.value as Record<string, unknown>);
        request.onerror = () => reject(request.error);
      });
      const scope = sample.scope as string;
      const words = ['refund', 'delivery', 'password', 'invoice', 'cancel', 'upgrade', 'broken', 'thanks'];
      const now = Date.now() - count * 10;
      for (let start = 0; start < count; start += 10_000) {
        const tx = db.transaction(['items', 'pages'], 'readwrite');
        const items = tx.objectStore('items');
        const pages = tx.objectStore('pages');
        for (let p = start; p < Math.min(count, start + 10_000); p += 200) {
          const records = new Map<string, unknown>();
          const rows: Record<string, unknown>[] = [];
          for (let i = p; i < Math.min(count, p + 200); i++) {
            const id = String(90_000_000 + i);
            const quality = Math.round(((i * 7919) % 1000) / 10) / 100;
            records.set(id, {
              submission_id: id,
              task_id: String(9201 + (i % 5)),
              data: { text: `Customer ${i} writes about ${words[i % words.length]} number ${i % 997}`, intent: words[(i * 3) % words.length] },
              quality_score: quality,
              quality_grade: 'ABCD'[i % 4],
              source: ['app', 'web', 'email'][i % 3],
              created_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString().slice(0, 19),
              consumer_feedback: null,
            });
            const receivedAt = now + i * 10;
            rows.push({
              scope,
              subscriptionId,
              itemId: id,
              kind: 'live',
              seq: receivedAt * 1000 + (i % 200),
              receivedAt,
              via: 'incremental',
              open: 1,
              serverDecision: null,
              taskId: String(9201 + (i % 5)),
              campaignId: i % 2 ? 'camp_a' : 'camp_b',
              frontierId: '102',
              verticalId: null,
              topicId: null,
              qualityScore: quality,
              qualityGrade: 'ABCD'[i % 4],
              qualityMethod: null,
              source: ['app', 'web', 'email'][i % 3],
              priceMicros: null,
              validatorCount: null,
              consensusRatio: null,
              createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString().slice(0, 19),
            });
          }
          // Page IDs given here (the store's own are small): each item points at its page row.
          const pageId = 1_000_000 + p / 200;
          pages.add({ id: pageId, scope, subscriptionId, records });
          for (const row of rows) items.put({ ...row, page: pageId });
        }
        await done(tx);
      }
      const total = await new Promise<number>((resolve) => {
        const request = db.transaction('items').objectStore('items').count();
        request.onsuccess = () => resolve(request.result);
      });
      const counts = db.transaction('counts', 'readwrite');
      const store = counts.objectStore('counts');
      store.put({ scope, subscriptionId, total, open: total });
      await done(counts);
      db.close();
      return total;
    },
    { count, subscriptionId: SUBSCRIPTION },
  );
}

/**
 * Runs `act` in the page and waits until `changed()` holds, then for the next frame: the time from
 * the action to the frame that shows its result.
 */
async function timed(page: Page, act: string, changed: string): Promise<number> {
  // One expression, evaluated as is (the console's CSP allows no eval of its own in the page).
  return page.evaluate(`(async () => {
    const start = performance.now();
    ${act};
    await new Promise((resolve) => {
      const check = () => ((${changed}) ? resolve() : requestAnimationFrame(check));
      check();
    });
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    return performance.now() - start;
  })()`) as Promise<number>;
}

const STATUS = `[...document.querySelectorAll('[role=status]')].find((e) => e.textContent.includes('items match'))`;
const statusText = (page: Page) => page.evaluate(`(${STATUS})?.textContent ?? ''`) as Promise<string>;

async function search(page: Page, term: string): Promise<number> {
  const before = await statusText(page);
  const act = `const input = document.querySelector('input[type=search]');
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, ${JSON.stringify(term)});
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));`;
  return timed(page, act, `!document.body.textContent.includes('Searching content') && (${STATUS})?.textContent !== ${JSON.stringify(before)}`);
}

runBench('triage', async (bench) => {
  const { url } = await startService(bench, { static: 'dist' });
  const page = await (await openContext(bench, { viewport: VIEWPORT })).newPage();
  await connect(page, url);
  // One real pull: the store's scope (the organization on this base URL) as the console names it.
  await page.goto(`${url}/review/${SUBSCRIPTION}?limit=10`);
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await page.getByText('10 items kept on this device').waitFor();
  console.log(`writing ${ITEMS.toLocaleString('en-US')} items into the store…`);
  const total = await fillStore(page, ITEMS);

  const items = `${url}/items/${SUBSCRIPTION}`;
  const opens: number[] = [];
  for (let i = 0; i < 3; i++) {
    await page.goto(items);
    const shown = (await (
      await page.waitForFunction(
        (n) => (document.body.textContent?.includes(`${n} of ${n} items match`) ? performance.now() : 0),
        total.toLocaleString('en-US'),
        {
          polling: 'raf',
          timeout: 60_000,
        },
      )
    ).jsonValue()) as number;
    opens.push(shown);
  }

  const engine = async () =>
    page.evaluate(() => {
      const of = (name: string) => performance.getEntriesByName(name).map((e) => e.duration);
      const steps = { filter: of('dds:triage-filter'), facets: of('dds:triage-facets'), sort: of('dds:triage-sort') };
      performance.clearMeasures();
      return steps;
    });
  await engine();
  // Filter: tick and untick grade A.
  const filters: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const before = await statusText(page);
    filters.push(await timed(page, `document.querySelector('input[aria-label="Grade A"]').click()`, `(${STATUS})?.textContent !== ${JSON.stringify(before)}`));
  }
  const filterSteps = await engine();
  // With a filter on (grade B, quality ≥ 0.5), sort by quality, then by ID, and so on.
  await page.getByRole('checkbox', { name: 'Grade B' }).check();
  await page.getByRole('spinbutton', { name: 'Quality from' }).fill('0.5');
  await page.getByRole('spinbutton', { name: 'Quality from' }).press('Enter');
  await page.waitForFunction(`!(${STATUS})?.textContent.startsWith('${total.toLocaleString('en-US')} of')`);
  const sorts: number[] = [];
  // 'Item' sorts by ID.
  const headers = ['Quality', 'Item', 'State', 'Source', 'Received'];
  for (let i = 0; i < RUNS; i++) {
    const name = headers[i % headers.length]!;
    const th = `[...document.querySelectorAll('th')].find((th) => th.textContent.startsWith(${JSON.stringify(name)}))`;
    const before = await page.evaluate(`(${th}).getAttribute('aria-sort')`);
    sorts.push(await timed(page, `(${th}).querySelector('button').click()`, `(${th}).getAttribute('aria-sort') !== ${JSON.stringify(before)}`));
  }

  const sortSteps = await engine();
  // Text search: the first one builds the index (a fresh page each time), later ones use it.
  const firstSearches: number[] = [];
  for (let i = 0; i < 3; i++) {
    await page.goto(items);
    await page.waitForFunction((n) => document.body.textContent?.includes(`${n} of ${n} items match`), total.toLocaleString('en-US'), { timeout: 60_000 });
    firstSearches.push(await search(page, 'refund'));
  }
  const cachedSearches: number[] = [];
  const terms = ['password', 'number 12', 'invoice', 'customer 77', 'upgrade', 'broken', 'number 5', 'thanks', 'delivery', 'cancel'];
  for (const term of terms) {
    cachedSearches.push(await search(page, term));
    await search(page, '');
  }

  const p = (metric: string, samples: number[], q: number, limit?: { max: number }) => measure(metric, percentile(samples, q), 'ms', 0, limit);
  const steps = [filterSteps.filter, filterSteps.facets, filterSteps.sort].map((samples) => percentile(samples, 50));
  bench.report(`Items view at ${total.toLocaleString('en-US')} stored items (Chromium)`, [
    p(`open the items view → counts shown, median of ${opens.length}`, opens, 50),
    p(`filter change → table and counts updated, p50 of ${filters.length}`, filters, 50, { max: 100 }),
    p('filter change, p95', filters, 95),
    p(`sort change → table updated, p50 of ${sorts.length}`, sorts, 50, { max: 100 }),
    p('sort change, p95', sorts, 95),
    measure('in the page: filter + facet counts + sort of one filter change, p50', steps[0]! + steps[1]! + steps[2]!, 'ms', 1),
    { metric: '  of which filterRows / facetCounts / sortRows, p50', value: `${steps.map((ms) => ms.toFixed(1)).join(' / ')} ms` },
    measure('in the page: sortRows of one sort change, p50', percentile(sortSteps.sort, 50), 'ms', 1),
    p(`text search, first (index built), median of ${firstSearches.length}`, firstSearches, 50),
    p(`text search, index cached, p50 of ${cachedSearches.length}`, cachedSearches, 50, { max: 100 }),
    p('text search, index cached, p95', cachedSearches, 95),
  ]);
});
