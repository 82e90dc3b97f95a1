import { expect, test, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { signedInPage, startE2eHub, type E2eHub } from './support/hub';

/*
 * The review fits the window in the console a team hub serves too (issue 22, item 1), where the
 * header carries the member and the team's activity and the review walks a batch from the queue:
 * the item card, both actions and the image inside the window at 1440×900 and 1280×720, the page
 * not scrolled, the header one row; and at 390 px the item comes first.
 */
test.describe.configure({ mode: 'serial' });

let hub: E2eHub;
const contexts: BrowserContext[] = [];
test.beforeAll(async () => {
  hub = await startE2eHub('hub-review-fit');
});
test.afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  await hub?.stop();
});

const focusedItem = (page: Page) => page.getByRole('region', { name: 'Focused item' });

async function expectInViewport(page: Page, locator: Locator, what: string) {
  const viewport = page.viewportSize()!;
  const box = (await locator.boundingBox())!;
  expect(box, `${what} is laid out`).not.toBeNull();
  expect(box.y, `${what}: top`).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, `${what}: bottom within ${viewport.height}`).toBeLessThanOrEqual(viewport.height);
  expect(box.x + box.width, `${what}: right within ${viewport.width}`).toBeLessThanOrEqual(viewport.width);
}

for (const size of [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
]) {
  test(`at ${size.width}×${size.height} a reviewer's batch shows the whole image item with Adopt and Dispute, the header in one row`, async ({ browser }) => {
    const page = await signedInPage(browser, hub, hub.accounts.reviewer1, contexts, size);
    await page.goto('/review/sub_live_streets?tasks=1001');
    // The first reviewer on a fresh hub finds the queue empty and pulls; the batch is taken then.
    await expect(page.getByRole('status', { name: 'Your batch' })).toContainText(/Batch ·|Pull brings new items in/);
    if (await page.getByText(/Pull brings new items in/).isVisible()) await page.getByRole('button', { name: 'Pull', exact: true }).click();
    await expect(page.getByRole('status', { name: 'Your batch' })).toContainText('Batch ·');
    const item = focusedItem(page);
    const image = item.getByRole('figure', { name: 'Image viewer' });
    await expect(image).toBeVisible();
    await expectInViewport(page, item, 'the item card');
    await expectInViewport(page, item.getByRole('button', { name: 'Adopt', exact: true }), 'Adopt');
    await expectInViewport(page, item.getByRole('button', { name: 'Dispute', exact: true }), 'Dispute');
    await expectInViewport(page, image, 'the image');
    expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight), 'page scroll').toBeLessThanOrEqual(0);
    // The member, the team's activity and the decisions' status share the navigation's row.
    const header = (await page.locator('header').boundingBox())!;
    expect(header.height, 'header height').toBeLessThanOrEqual(100);
    // The image has room to be judged: at least a third of the window's height.
    expect((await image.boundingBox())!.height, 'image height').toBeGreaterThanOrEqual(size.height / 3);
    // Sign out is one click away in the member's menu.
    await page.getByRole('button', { name: `Signed in as ${hub.accounts.reviewer1.email} reviewer` }).click();
    await expect(page.getByRole('button', { name: 'Sign out everywhere' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('button', { name: 'Sign out everywhere' })).toBeHidden();
    await page.screenshot({ path: test.info().outputPath(`hub-review-${size.width}.png`) });
  });
}

test('at 390 px the item comes first, above the list', async ({ browser }) => {
  const page = await signedInPage(browser, hub, hub.accounts.reviewer2, contexts, { width: 390, height: 844 });
  await page.goto('/review/sub_live_streets?tasks=1001');
  await expect(page.getByRole('status', { name: 'Your batch' })).toContainText('Batch ·');
  const item = focusedItem(page);
  await expect(item.getByRole('figure', { name: 'Image viewer' })).toBeVisible();
  const list = page.getByRole('listbox', { name: 'Items on this page' });
  expect((await item.boundingBox())!.y).toBeLessThan((await list.boundingBox())!.y);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 'sideways scroll').toBeLessThanOrEqual(0);
  await page.screenshot({ path: test.info().outputPath('hub-review-390.png'), fullPage: true });
});
