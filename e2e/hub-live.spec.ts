import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { signedInPage, startE2eHub, type E2eHub } from './support/hub';

/*
 * Live updates through the hub's change stream: reviewer B has Statistics open in one browser;
 * reviewer A adopts an item in another; B's header names A's decision without a reload. Nothing
 * else could tell B: the header's activity has no poll, only the stream (GET /hub/v1/events), and
 * B's page opened one stream. The hub restarts: B's console says it is reconnecting, is live again
 * on its own, and shows A's next decision.
 */
test.describe.configure({ mode: 'serial' });

const SUB = 'sub_sim_retail';

let hub: E2eHub;
const contexts: BrowserContext[] = [];
test.beforeAll(async () => {
  hub = await startE2eHub('hub-live');
});
test.afterAll(async () => {
  for (const context of contexts) await context.close();
  await hub?.stop();
});

/** Adopts the review's focused item by key and returns its id. */
async function adoptFocused(page: Page): Promise<string> {
  const title = page.getByRole('region', { name: 'Focused item' }).getByRole('heading').first();
  const id = (await title.textContent())!.replace(/^Item /, '').trim();
  await page.keyboard.press('a');
  await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();
  return id;
}

test('a decision made in one browser shows in another without a reload, from the stream, and again after the hub restarts', async ({ browser }) => {
  test.setTimeout(240_000);
  const a = await signedInPage(browser, hub, hub.accounts.reviewer1, contexts);
  const b = await signedInPage(browser, hub, hub.accounts.reviewer2, contexts);
  // B's stream was opened when its page loaded after sign-in: none opens from here on, and the page is never reloaded.
  const streams: string[] = [];
  b.on('request', (request) => request.url().includes('/hub/v1/events') && streams.push(request.url()));
  await b.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  const notReloaded = () => b.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true);

  await b.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Statistics' }).click();
  const activity = b.getByRole('status', { name: 'Team activity' });
  await expect(activity).toContainText('Live');

  await a.goto(`/review/${SUB}?limit=5&queue=all`);
  await a.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(a.getByText('5 items kept on this device')).toBeVisible();
  const first = await adoptFocused(a);

  await expect(activity).toContainText(`${hub.accounts.reviewer1.email} adopted ${first}`);
  await expect(b).toHaveURL(/\/stats/);
  expect(await notReloaded()).toBe(true);
  expect(streams).toEqual([]);

  // The hub goes away and comes back: B's console reconnects by itself and is live again.
  await hub.restart();
  await expect(activity).toContainText('Live', { timeout: 60_000 });
  const second = await adoptFocused(a);
  await expect(activity).toContainText(`${hub.accounts.reviewer1.email} adopted ${second}`);
  expect(second).not.toBe(first);
  await expect(b).toHaveURL(/\/stats/);
  expect(await notReloaded()).toBe(true);
});
