import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceApi } from './support/api';
import { connectDemo } from './support/console';
import { signedInPage, startE2eHub, vendorItemStatuses, type E2eHub } from './support/hub';
import { slotPort, workerSlot } from './support/worker';
import { batchBar, itemIds, option, options } from './support/review-list';

/*
 * The offline app shell (issue 26 item 6): once the console has been opened, its worker keeps the
 * build's files, so a reload while the network is down opens the console again, which shows what
 * the browser's store holds and says it is offline; decisions made meanwhile wait in the outbox and
 * are sent once the network is back. The simulator's records are the judge of what was sent.
 */
test.describe.configure({ mode: 'serial' });
// The other specs block the worker (playwright.config.ts): here it is what is tested.
test.use({ serviceWorkers: 'allow' });

const SUB = 'sub_sim_retail';

let hub: E2eHub;
const contexts: BrowserContext[] = [];
test.beforeAll(async () => {
  hub = await startE2eHub('offline-shell');
});
test.afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
  await hub?.stop();
});

const offlineNotice = (page: Page) => page.getByRole('status').filter({ hasText: 'This page shows what this browser keeps' });

/**
 * The page's worker has the build's files and controls the page: what a person who has used the
 * console for a moment has. (No worker, no controller: this never holds and the test fails here.)
 */
async function shellKept(page: Page) {
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller !== null))).toBe(true);
}

test('hub mode: a reviewer offline reloads the review: the console opens on the batch from the store, the adopt waits, and is sent once online', async ({
  browser,
}) => {
  const admin = await signedInPage(browser, hub, hub.accounts.admin, contexts);
  // Items into the team's inbox: the admin pulls a page in the whole-subscription review.
  await admin.goto(`/review/${SUB}?limit=4&queue=all`);
  await admin.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(options(admin)).toHaveCount(4);

  const page = await signedInPage(browser, hub, hub.accounts.reviewer1, contexts);
  await page.goto(`/review/${SUB}?batch=3`);
  await expect(batchBar(page)).toContainText(/Batch · 3 left · yours until/);
  const batch = await itemIds(page);
  expect(batch).toHaveLength(3);
  await shellKept(page);

  await page.context().setOffline(true);
  const adopted = batch[0]!;
  await option(page, adopted).click();
  await page.keyboard.press('a');
  await expect(option(page, adopted)).toHaveAttribute('data-state', /waiting|undo/);

  await page.reload();
  // The console, not the browser's error page: the batch's items from the store, the adopt still waiting, and why.
  await expect(options(page)).toHaveCount(3);
  expect(new Set(await itemIds(page))).toEqual(new Set(batch));
  await expect(option(page, adopted)).toHaveAttribute('data-state', /waiting/);
  await expect(page.getByRole('status', { name: /Decisions: 1 unsent/ })).toBeVisible();
  await expect(offlineNotice(page)).toBeVisible();
  expect(vendorItemStatuses(hub, [adopted])).toEqual(['pending']);

  await page.context().setOffline(false);
  await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => vendorItemStatuses(hub, batch)).toEqual(['adopted', 'pending', 'pending']);
  await expect(offlineNotice(page)).toBeHidden();
});

test('personal mode: offline, a reload opens the console on the kept items, the dispute waits, and is sent once online', async ({ page, request }) => {
  await connectDemo(page);
  await page.goto('/review/sub_sim_product?limit=2');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(options(page)).toHaveCount(2);
  const kept = await itemIds(page);
  await shellKept(page);

  await page.context().setOffline(true);
  // A dispute (free): a simulated adopt that a reload left waits for "Send and pay" in personal mode.
  const disputed = kept[0]!;
  await option(page, disputed).click();
  await page.keyboard.press('d');
  await expect(page.getByRole('radio', { name: 'No code' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(option(page, disputed)).toHaveAttribute('data-state', /waiting|undo/);

  await page.reload();
  await expect(options(page)).toHaveCount(2);
  expect(new Set(await itemIds(page))).toEqual(new Set(kept));
  await expect(option(page, disputed)).toHaveAttribute('data-state', /waiting/);
  await expect(offlineNotice(page)).toBeVisible();

  await page.context().setOffline(false);
  await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible({ timeout: 60_000 });
  const pending = (await serviceApi(request).pending('sub_sim_product', 200)).map((i) => i.id);
  expect(pending).not.toContain(disputed);
  expect(pending).toContain(kept[1]);
});

/** The revisions of index.html in the worker's precache (Workbox keys it `index.html?__WB_REVISION__=<revision>`). */
const precachedShells = (page: Page) =>
  page.evaluate(async () => {
    const revisions: string[] = [];
    for (const name of await caches.keys())
      for (const request of await (await caches.open(name)).keys())
        if (new URL(request.url).pathname === '/index.html') revisions.push(new URL(request.url).searchParams.get('__WB_REVISION__') ?? '');
    return revisions;
  });

test('a new build takes over at the next load: its shell is the one an offline reload opens, and the old build’s is deleted', async ({ page }) => {
  // A console of its own (the built one, copied), so that a new build can be put in its place.
  const dir = mkdtempSync(join(tmpdir(), 'offline-shell-dist-'));
  const data = mkdtempSync(join(tmpdir(), 'offline-shell-data-'));
  cpSync('dist', dir, { recursive: true });
  const port = slotPort(workerSlot()) + 30;
  const service = spawn(
    process.execPath,
    ['--import', 'tsx', 'server/cli/service.ts', '--port', String(port), '--data', data, '--seed', 'none', '--static', dir, '--quiet'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    let out = '';
    service.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    await expect.poll(() => out).toContain('Console: ');
    const url = `http://127.0.0.1:${port}/`;

    await page.goto(url);
    await shellKept(page);
    const [old] = await precachedShells(page);
    expect(old).toMatch(/^[0-9a-f]{32}$/);

    // The next build: another index.html (marked), and its worker listing it with a new revision.
    const worker = join(dir, 'sw.js');
    writeFileSync(join(dir, 'index.html'), readFileSync(join(dir, 'index.html'), 'utf8').replace('<head>', '<head><meta name="build" content="next" />'));
    writeFileSync(worker, readFileSync(worker, 'utf8').replace(`"revision":"${old}","url":"index.html"`, '"revision":"next-build","url":"index.html"'));

    // Online, the next load is the new build at once (navigations go to the network first), and the new
    // worker, found by that load, takes over by itself: the old build's shell is deleted.
    await page.reload();
    await expect(page.locator('meta[name="build"]')).toHaveAttribute('content', 'next');
    await expect.poll(() => precachedShells(page)).toEqual(['next-build']);

    // Offline, a reload opens the new build's shell, not the old one.
    await page.context().setOffline(true);
    await page.reload();
    await expect(page.locator('meta[name="build"]')).toHaveAttribute('content', 'next');
    await expect(page.getByRole('link', { name: 'Data Delivery Console' })).toBeVisible();
  } finally {
    if (service.exitCode === null && service.signalCode === null) {
      service.kill('SIGTERM');
      await once(service, 'exit');
    }
    rmSync(dir, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  }
});
