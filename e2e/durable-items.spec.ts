import { expect, test, type Page, type Route } from '@playwright/test';
import { serviceApi } from './support/api';
import { connectDemo, connectWith } from './support/console';
import { storedIds } from './support/idb';
import { createKey, importFixture } from './support/service';

/*
 * Nothing delivered is lost: every pulled item is in the browser's IndexedDB before it shows,
 * whatever happens to the tab or to the answer of a pull. Each test checks the service's record
 * (a full re-read) as the independent witness.
 */

const list = (page: Page) => page.getByRole('listbox', { name: 'Items on this page' });
const isIncrementalPull = (url: string) => url.includes('/v1/live/pull') && !url.includes('from=beginning');

/** Opens a live subscription's review in New items mode, as a person does: Review, then the subscription. */
async function openNewItems(page: Page, subscription: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Review' }).click();
  await page
    .getByRole('listitem')
    .filter({ hasText: subscription })
    .getByRole('link', { name: /^Review / })
    .click();
  await expect(page.getByRole('button', { name: 'Pull', exact: true })).toBeVisible();
}

/** A live subscription of its own: one frontier and task with `count` text submissions (a test that pulls everything leaves the demo's alone). */
function liveStreamFixture({
  frontierId,
  subscription,
  name,
  count,
  firstSubmissionId,
}: {
  frontierId: number;
  subscription: string;
  name: string;
  count: number;
  firstSubmissionId: number;
}) {
  const taskId = String(frontierId + 1);
  return {
    frontiers: [{ frontier_id: String(frontierId), title: `${name} stream`, status: 'ONLINE' }],
    tasks: [{ task_id: taskId, frontier_id: String(frontierId), name: `${name} task`, task_type: 'TEXT_CLASSIFICATION', status: 'COLLECTING' }],
    submissions: Array.from({ length: count }, (_, i) => ({
      submission_id: String(firstSubmissionId + i),
      task_id: taskId,
      data: { text: `message ${i}` },
      quality_score: 0.9,
      quality_grade: 'A',
      source: 'e2e',
      created_at: '2026-01-01T00:00:00',
    })),
    subscriptions: [{ subscription_id: subscription, kind: 'live', frontier_id: String(frontierId), task_ids: [taskId], name }],
  };
}

async function setPageSize(page: Page, size: number) {
  const field = page.getByRole('spinbutton', { name: 'Page size' });
  await field.fill(String(size));
  await field.press('Enter');
  await expect(page).toHaveURL(new RegExp(`limit=${size}`));
}

test('pulled items survive a reload and a closed tab, and are not pulled again', async ({ page, context }) => {
  await connectDemo(page);
  await openNewItems(page, 'sub_live_support');
  await setPageSize(page, 20);
  const pulls: string[] = [];
  page.on('request', (r) => isIncrementalPull(r.url()) && pulls.push(r.url()));
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByText('20 items kept on this device')).toBeVisible();
  const ids = await storedIds(page, 'sub_live_support');
  expect(ids).toHaveLength(20);
  const first = await list(page).getByRole('option').first().getAttribute('aria-label');
  expect(pulls).toHaveLength(1);

  await page.reload();
  await expect(page.getByText('20 items kept on this device')).toBeVisible();
  await expect(list(page).getByRole('option').first()).toHaveAttribute('aria-label', first!);
  expect(pulls).toHaveLength(1);

  // A new tab of a tab-only connection starts without the key: connect again, and the 20 are there.
  await page.close();
  const second = await context.newPage();
  const secondPulls: string[] = [];
  second.on('request', (r) => isIncrementalPull(r.url()) && secondPulls.push(r.url()));
  await connectDemo(second);
  await openNewItems(second, 'sub_live_support');
  await expect(second.getByText('20 items kept on this device')).toBeVisible();
  await expect(list(second).getByRole('option').first()).toHaveAttribute('aria-label', first!);
  expect((await storedIds(second, 'sub_live_support')).sort()).toEqual([...ids].sort());
  // Every one of the 20 can be reached in the list.
  const focused = second.getByRole('region', { name: 'Focused item' }).getByRole('heading').first();
  await second.keyboard.press('End');
  await expect(focused).not.toHaveText(first!.split(',')[0]!);
  expect(ids).toContain((await focused.textContent())!.replace('Submission ', ''));
  expect(secondPulls).toHaveLength(0);
  // The focused item's content is read from the store.
  await expect(second.getByRole('region', { name: 'Focused item' }).getByRole('region', { name: 'Delivered content' })).toBeVisible();
});

test('lost answers (503 after the service answered, a reset, a timeout) are never retried; Recover brings every lost item back once', async ({
  page,
  request,
}) => {
  await connectDemo(page);
  await openNewItems(page, 'sub_live_streets');
  await setPageSize(page, 10);
  const pulls: string[] = [];
  page.on('request', (r) => isIncrementalPull(r.url()) && pulls.push(r.url()));

  // The first pull arrives.
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByText('10 items kept on this device')).toBeVisible();

  // Three pulls reach the service (which moves the position) but their answers are lost.
  const lost: string[] = [];
  const served = async (route: Route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { data: { items: { submission_id: string }[] } };
    lost.push(...body.data.items.map((i) => i.submission_id));
  };
  const faults: ((route: Route) => Promise<void>)[] = [
    async (route) => {
      await served(route);
      await route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, errorCode: 'UNAVAILABLE', errorMessage: 'busy' }),
      });
    },
    async (route) => {
      await served(route);
      await route.abort('connectionreset');
    },
    async (route) => {
      await served(route);
      await route.abort('timedout');
    },
  ];
  for (const [index, fault] of faults.entries()) {
    await page.route((url) => isIncrementalPull(url.toString()), fault, { times: 1 });
    await page.getByRole('button', { name: 'Pull', exact: true }).click();
    await expect.poll(() => lost.length).toBe(10 * (index + 1));
    // The pull is over (Pull is enabled again) and it was sent once.
    await expect(page.getByRole('button', { name: 'Pull', exact: true })).toBeEnabled();
    await expect(page.getByRole('alert').filter({ hasText: 'Answer lost' }).first()).toBeVisible();
    expect(pulls).toHaveLength(2 + index);
  }
  expect(lost).toHaveLength(30);
  // No retry happened, and the gap is said, also after a reload.
  expect(pulls).toHaveLength(4);
  await expect(page.getByText('10 items kept on this device')).toBeVisible();
  await page.reload();
  const notice = page.getByRole('alert', { name: 'Lost answers' });
  await expect(notice).toContainText('3 pulls');

  await notice.getByRole('button', { name: 'Recover' }).click();
  const finished = page.getByRole('status').filter({ hasText: /Recover finished/ });
  await expect(finished).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('alert', { name: 'Lost answers' })).toHaveCount(0);

  // Every lost item is back, and nothing is listed twice; everything listed is readable and undecided at the service.
  const shown = await storedIds(page, 'sub_live_streets');
  await expect(page.getByText(`${shown.length.toLocaleString('en-US')} items kept on this device`)).toBeVisible();
  expect(new Set(shown).size).toBe(shown.length);
  for (const id of lost) expect(shown).toContain(id);
  const undecided = new Set((await serviceApi(request).reread('sub_live_streets')).filter((s) => s.consumer_feedback === null).map((s) => s.submission_id));
  for (const id of shown) expect(undecided.has(id), id).toBe(true);
  const recovered = Number((await finished.textContent())!.match(/([\d,]+) recovered/)![1]!.replace(/,/g, ''));
  expect(recovered).toBe(shown.length - 10);

  // Recover again finds nothing new.
  await page.getByRole('button', { name: 'Recover missing items' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Recover finished/ })).toContainText(' 0 recovered');
  expect(await storedIds(page, 'sub_live_streets')).toHaveLength(shown.length);
});

test('Pull all new pulls until the subscription is up to date, with progress and Cancel', async ({ page }) => {
  // A subscription of its own (pulling everything would leave the demo's empty for other tests).
  const total = 1_250;
  importFixture(
    'pull-all',
    liveStreamFixture({ frontierId: 9300, subscription: 'sub_e2e_pull_all', name: 'Pull all', count: total, firstSubmissionId: 30_000_000 }),
  );
  const { key } = createKey('pull all', ['sub_e2e_pull_all']);
  await connectWith(page, 'Pull all', key, [{ id: 'sub_e2e_pull_all', kind: 'Live' }]);
  await openNewItems(page, 'sub_e2e_pull_all');
  await setPageSize(page, 200);
  let answered = 0;
  // Each answer is held on its way back until the test lets it through, so Cancel lands while a
  // page is in flight (the service has answered it and moved the position) without racing a timer.
  const held: (() => void)[] = [];
  const incremental = (url: URL) => isIncrementalPull(url.toString());
  await page.route(incremental, async (route) => {
    const response = await route.fetch();
    answered++;
    await new Promise<void>((release) => held.push(release));
    await route.fulfill({ response });
  });
  await page.getByRole('button', { name: 'Pull all new' }).click();
  const progress = page.getByRole('region', { name: 'Pulling all new items' });
  await expect(progress.getByRole('progressbar')).toBeVisible();
  await expect.poll(() => held.length).toBe(1);
  held.shift()!();
  await expect.poll(() => answered).toBe(2);
  await progress.getByRole('button', { name: 'Cancel' }).click();
  held.shift()!();
  await expect(page.getByRole('status').filter({ hasText: 'Pull all new cancelled' })).toBeVisible();
  // Cancel ends after the page in flight: that page is kept, nothing more is asked (a third
  // request would be held here for ever, and the pull would never say it was cancelled).
  await expect(page.getByText('400 items kept on this device')).toBeVisible();
  expect(await storedIds(page, 'sub_e2e_pull_all')).toHaveLength(400);
  expect(answered).toBe(2);
  expect(held).toHaveLength(0);

  await page.unroute(incremental);
  await page.getByRole('button', { name: 'Pull all new' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Up to date/ })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(`${total.toLocaleString('en-US')} items kept on this device · up to date`)).toBeVisible();
  expect(new Set(await storedIds(page, 'sub_e2e_pull_all')).size).toBe(total);
});

test('with no room in storage nothing is pulled, and the error says why', async ({ page }) => {
  await page.addInitScript(() => {
    // This browser says its storage is full.
    const storage = navigator.storage;
    storage.estimate = async () => ({ usage: 1_000_000, quota: 1_000_100 });
  });
  await connectDemo(page);
  await openNewItems(page, 'sub_live_streets');
  const pulls: string[] = [];
  page.on('request', (r) => isIncrementalPull(r.url()) && pulls.push(r.url()));
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Not enough room' })).toContainText('Nothing was pulled');
  expect(pulls).toHaveLength(0);
});

test('a page that cannot be written after the pull stays on screen, and a dialog offers to save it as a file', async ({ page }) => {
  await connectDemo(page);
  await openNewItems(page, 'sub_live_streets');
  await setPageSize(page, 5);
  // Every write to IndexedDB now fails as a full disk would.
  await page.evaluate(() => {
    const fail = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    IDBObjectStore.prototype.add = fail;
    IDBObjectStore.prototype.put = fail;
  });
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  const dialog = page.getByRole('alertdialog', { name: 'These delivered items are not saved on this device' });
  await expect(dialog).toBeVisible();
  await expect(list(page).getByRole('option')).toHaveCount(5);
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Save 5 items as a file' }).click();
  const saved = JSON.parse(
    await (await download).createReadStream().then(async (stream) => {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    }),
  ) as { submission_id: string }[];
  expect(saved).toHaveLength(5);
  const shown = await list(page)
    .getByRole('option')
    .evaluateAll((options) => options.map((o) => o.getAttribute('aria-label')!.split(',')[0]!.replace('Submission ', '')));
  expect(saved.map((s) => s.submission_id).sort()).toEqual(shown.sort());
});

test('a Recover right after a lost answer closes that pull’s alert: its Retry would pull a new page, not the lost one', async ({ page }) => {
  importFixture(
    'lost-once',
    liveStreamFixture({ frontierId: 9310, subscription: 'sub_e2e_lost_once', name: 'Lost once', count: 30, firstSubmissionId: 31_000_000 }),
  );
  const { key } = createKey('lost once', ['sub_e2e_lost_once']);
  await connectWith(page, 'Lost once', key, [{ id: 'sub_e2e_lost_once', kind: 'Live' }]);
  await openNewItems(page, 'sub_e2e_lost_once');
  await setPageSize(page, 10);
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByText('10 items kept on this device')).toBeVisible();

  // The service serves the next page (and moves the position); the answer is lost on its way back.
  await page.route(
    (url) => isIncrementalPull(url.toString()),
    async (route) => {
      await route.fetch();
      await route.abort('connectionreset');
    },
    { times: 1 },
  );
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  const lostAlert = page.getByRole('alert').filter({ hasText: 'The answer to this pull was lost' });
  await expect(lostAlert).toBeVisible();

  await page.getByRole('alert', { name: 'Lost answers' }).getByRole('button', { name: 'Recover' }).click();
  // Recover keeps every readable item not received yet: the lost 10 and the 10 never pulled.
  await expect(page.getByRole('status').filter({ hasText: /Recover finished/ })).toContainText('30 items read, 20 recovered', { timeout: 60_000 });
  await expect(page.getByText('30 items kept on this device')).toBeVisible();
  await expect(lostAlert).toHaveCount(0);
  await expect(page.getByRole('alert', { name: 'Lost answers' })).toHaveCount(0);
});
