import { expect, test, type Page } from '@playwright/test';
import { hubContext, signInThroughForm, startE2eHub, vendorAdoptReceipts, type E2eHub } from './support/hub';

/*
 * The reviewer learns what became of an adopt the team's budget held (issue 25, item 6), in the
 * console served by a hub (`--demo --static dist`), without reloading: an admin in another browser
 * releases it on /team/holds → the reviewer's console shows it adopted, and the vendor charged it
 * once; an admin drops one → the reviewer's console says it was dropped and by whom, and the item
 * can be adopted again once the admin raised the limit → one adopt at the vendor.
 */
test.describe.configure({ mode: 'serial' });

const SUBSCRIPTION = 'sub_sim_retail';

let hub: E2eHub;
test.beforeAll(async () => {
  hub = await startE2eHub('hub-holds');
});
test.afterAll(async () => {
  await hub?.stop();
});

/** How many adopt receipts the vendor wrote for an item (its own database). */
const adoptReceiptsOf = (itemId: string) => vendorAdoptReceipts(hub).get(itemId)?.length ?? 0;

const options = (page: Page) => page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option');
const option = (page: Page, itemId: string) => page.locator(`[role="option"][id$="-${itemId}"]`);
const itemIdOf = async (page: Page, index: number) => (await options(page).nth(index).getAttribute('id'))!.replace(/^review-option-[a-z]+-/, '');

async function setDailyLimit(admin: Page, dollars: string) {
  await admin.goto('/team/budgets');
  await admin.getByRole('textbox', { name: 'Organization daily limit (USD)' }).fill(dollars);
  await admin.getByRole('button', { name: 'Save budgets' }).click();
  await expect(admin.getByRole('status').filter({ hasText: /^Saved: / })).toBeVisible();
}

/** The reviewer adopts an item as a person does: a click on it, then `a`; the hub holds it. */
async function adoptHeld(page: Page, itemId: string) {
  await option(page, itemId).click();
  await page.keyboard.press('a');
  await expect(option(page, itemId)).toHaveAttribute('data-state', 'held-team');
}

async function resolveOnHoldsPage(admin: Page, itemId: string, kind: 'Release' | 'Drop') {
  await admin.goto('/team/holds');
  await admin.getByRole('button', { name: `${kind} ${itemId}` }).click();
  await admin
    .getByRole('alertdialog')
    .getByRole('button', { name: kind === 'Release' ? 'Release and charge' : 'Drop adopt' })
    .click();
  await expect(admin.getByText(kind === 'Release' ? `Released: the adopt of ${itemId}` : `Dropped: the adopt of ${itemId}`)).toBeVisible();
}

let reviewer: Page;
let admin: Page;

test.beforeAll(async ({ browser }) => {
  const [adminContext, reviewerContext] = await Promise.all([hubContext(browser, hub), hubContext(browser, hub, { width: 1280, height: 720 })]);
  [admin, reviewer] = await Promise.all([adminContext.newPage(), reviewerContext.newPage()]);
  await signInThroughForm(admin, hub.accounts.admin);
  await signInThroughForm(reviewer, hub.accounts.reviewer1);
  // Nothing passes a zero daily limit: every priced adopt is held.
  await setDailyLimit(admin, '0');
  await reviewer.goto(`/review/${SUBSCRIPTION}?limit=10&queue=all`);
  await expect(reviewer.getByRole('button', { name: 'Pull', exact: true })).toBeVisible();
  await reviewer.keyboard.press('n');
  await expect(options(reviewer)).toHaveCount(10);
});
test.afterAll(async () => {
  await Promise.all([admin?.context().close(), reviewer?.context().close()]);
});

test('an admin releases a held adopt in another browser: the reviewer’s console shows it adopted without a reload, and the vendor charged it once', async () => {
  const itemId = await itemIdOf(reviewer, 0);
  await adoptHeld(reviewer, itemId);
  await expect(option(reviewer, itemId)).toHaveAccessibleName(/held by the team’s budget/);
  const notice = reviewer.getByRole('region', { name: 'Held by the team’s budget' });
  await expect(notice).toContainText('1 adopt held by the team’s budget');
  await expect(notice.getByRole('link', { name: 'See the holds' })).toHaveAttribute('href', '/team/holds');
  // Deciding moved on to the next item: back to the held one.
  await option(reviewer, itemId).click();
  await expect(reviewer.getByRole('region', { name: 'Focused item' })).toContainText('held by the team’s budget: an admin of the hub releases it');
  await reviewer.screenshot({ path: test.info().outputPath('held-1280x720.png') });
  await reviewer.setViewportSize({ width: 390, height: 844 });
  await reviewer.screenshot({ path: test.info().outputPath('held-390.png'), fullPage: true });
  await reviewer.setViewportSize({ width: 1280, height: 720 });
  expect(adoptReceiptsOf(itemId)).toBe(0);
  // A second tab of the reviewer's shows the hold too (the decisions are the member's, in IndexedDB).
  const secondTab = await reviewer.context().newPage();
  await secondTab.goto(`/review/${SUBSCRIPTION}?limit=10&queue=all`);
  await expect(option(secondTab, itemId)).toHaveAttribute('data-state', 'held-team');

  await resolveOnHoldsPage(admin, itemId, 'Release');

  // The reviewer's console learns it from the hub, in every tab: no reload, no click.
  await expect(option(reviewer, itemId)).toHaveAttribute('data-state', 'adopted');
  await expect(option(secondTab, itemId)).toHaveAttribute('data-state', 'adopted');
  await expect(notice).toBeHidden();
  await secondTab.close();
  expect(adoptReceiptsOf(itemId)).toBe(1);
  // Nothing is sent again from the browser: the item stays adopted, charged once.
  await reviewer.reload();
  await expect(option(reviewer, itemId)).toHaveAttribute('data-state', 'adopted');
  expect(adoptReceiptsOf(itemId)).toBe(1);
});

test('an admin drops a held adopt: the reviewer sees it dropped (and by whom) and adopts it again once the limit is raised; one adopt at the vendor', async () => {
  const itemId = await itemIdOf(reviewer, 1);
  await adoptHeld(reviewer, itemId);

  await resolveOnHoldsPage(admin, itemId, 'Drop');

  await expect(option(reviewer, itemId)).toHaveAttribute('data-state', 'new');
  await option(reviewer, itemId).click();
  const card = reviewer.getByRole('region', { name: 'Focused item' });
  await expect(card).toContainText(`your adopt was dropped on the hub by ${hub.accounts.admin.email}: decide it again`);
  await expect(reviewer.getByText('1 adopt dropped on the hub')).toBeVisible();
  await reviewer.screenshot({ path: test.info().outputPath('dropped-1280x720.png') });
  await reviewer.setViewportSize({ width: 390, height: 844 });
  await reviewer.screenshot({ path: test.info().outputPath('dropped-390.png') });
  await reviewer.setViewportSize({ width: 1280, height: 720 });
  expect(adoptReceiptsOf(itemId)).toBe(0);

  await setDailyLimit(admin, '');
  await option(reviewer, itemId).click();
  await reviewer.keyboard.press('a');
  await expect(option(reviewer, itemId)).toHaveAttribute('data-state', 'adopted');
  expect(adoptReceiptsOf(itemId)).toBe(1);
});
