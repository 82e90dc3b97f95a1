import { expect, test, type Page } from '@playwright/test';
import { serviceApi } from './support/api';
import { connectWith } from './support/console';
import { createKey, importFixture, pricedItemsFixture } from './support/service';

/**
 * Budget periods from trusted time: the page's clock set back 26 hours (Playwright's clock) opens
 * no new day. Against a $0.05 daily limit (items at 1.7¢: 2 fit), nothing beyond the limit is
 * charged, in the same visit and after a reload. The service's receipts are the witness.
 */
test.describe.configure({ mode: 'serial' });

const SUB = 'sub_e2e_budget_clock';
const HOUR = 3_600_000;
let key: string;

test.beforeAll(() => {
  importFixture('budget-clock', pricedItemsFixture('budget-clock', { subscription: SUB, label: 'Clock budget', count: 12, priceUsd: 0.017 }));
  key = createKey('Clock budget', [SUB]).key;
});

const focused = (page: Page) => page.getByRole('region', { name: 'Focused item' });

async function adopt(page: Page, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    ids.push((await focused(page).getByRole('heading').textContent())!.replace(/^Item /, ''));
    await page.keyboard.press('a');
    await expect(focused(page).getByRole('heading')).not.toHaveText(new RegExp(`${ids.at(-1)}$`));
  }
  return ids;
}

async function openReview(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Review' }).click();
  await page.getByRole('link', { name: `Review ${SUB}` }).click();
  await page.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('0');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option').first()).toBeVisible();
  await page.getByRole('listbox', { name: 'Items on this page' }).focus();
}

test('a clock set back 26 hours opens no new daily limit: nothing past $0.05 is charged, with or without a reload', async ({ page, request }) => {
  test.setTimeout(120_000);
  const charged = async () => (await serviceApi(request, key).usage()).filter((r) => r.subscription_id === SUB && r.kind === 'adopt');
  await page.clock.install();
  await connectWith(page, 'Clock budget', key, [{ id: SUB, kind: 'Simulated' }]);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Budgets' }).click();
  await page.getByRole('textbox', { name: `${SUB} daily limit (USD)` }).fill('0.05');
  await page.getByRole('button', { name: `Save ${SUB} limits` }).click();
  await expect(page.getByRole('status').filter({ hasText: `Saved ${SUB}’s limits.` })).toBeVisible();

  await openReview(page);
  const paid = await adopt(page, 2);
  await expect.poll(async () => (await charged()).map((r) => r.item_id).sort()).toEqual([...paid].sort());

  // The clock goes back 26 hours: by the device's calendar it is yesterday, when nothing was spent.
  await page.clock.setSystemTime(Date.now() - 26 * HOUR);
  expect(await page.evaluate(() => Date.now())).toBeLessThan(Date.now() - 25 * HOUR);
  const sameVisit = await adopt(page, 2);
  const held = page.getByRole('region', { name: 'Held by budget' });
  await expect(held).toContainText('2 charged adopts held by budget, $0.034 in all');
  await expect(held).toContainText('$0.034 in all (the time is in doubt: this device’s clock is 26 h behind');
  await expect(held.getByTitle(`Item ${sameVisit[0]}`)).toBeAttached();

  // A reload: the time the console trusted is kept on this device, the clock is still back.
  await page.reload();
  await expect(held).toContainText('2 charged adopts held by budget');
  await page.getByRole('listbox', { name: 'Items on this page' }).focus();
  await adopt(page, 1);
  await expect(held).toContainText('3 charged adopts held by budget, $0.051 in all');

  // The Budgets page counts today in the service's time and says why charges are held.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Budgets' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The time is in doubt' })).toContainText('26 h behind');
  await expect(page.getByRole('textbox', { name: `${SUB} daily limit (USD)` })).toHaveAccessibleDescription(
    /Spent today \(your time\): \$0\.03 \(exactly \$0\.034000\) of \$0\.05/,
  );
  expect((await charged()).map((r) => r.item_id).sort()).toEqual([...paid].sort());
});

test('a hold of yesterday says so after midnight: its spend is dated, today’s limit starts empty, and nothing held was sent', async ({ page, request }) => {
  test.setTimeout(120_000);
  const sub = `${SUB}_midnight`;
  importFixture('budget-midnight', pricedItemsFixture('budget-midnight', { subscription: sub, label: 'Midnight budget', count: 8, priceUsd: 0.017 }));
  const midnightKey = createKey('Midnight budget', [sub]).key;
  const charged = async () => (await serviceApi(request, midnightKey).usage()).filter((r) => r.subscription_id === sub && r.kind === 'adopt');
  // Three minutes before the device's midnight (its own zone), ahead of the service's time: a clock ahead is not in doubt.
  const now = new Date();
  const beforeMidnight = new Date(now.getFullYear(), now.getMonth(), now.getDate(), 23, 57);
  await page.clock.install({ time: beforeMidnight });
  await connectWith(page, 'Midnight budget', midnightKey, [{ id: sub, kind: 'Simulated' }]);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Budgets' }).click();
  await page.getByRole('textbox', { name: 'Organization daily limit (USD)' }).fill('0.05');
  await page.getByRole('button', { name: 'Save organization limits' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved the organization’s limits.' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Review' }).click();
  await page.getByRole('link', { name: `Review ${sub}` }).click();
  await page.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('0');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await page.getByRole('listbox', { name: 'Items on this page' }).focus();
  const paid = await adopt(page, 2);
  await expect.poll(async () => (await charged()).map((r) => r.item_id).sort()).toEqual([...paid].sort());
  await adopt(page, 1);
  const held = page.getByRole('region', { name: 'Held by budget' });
  await expect(held).toContainText('1 charged adopt held by budget, $0.017 in all (organization daily limit $0.05 (spent $0.034)),');

  // Midnight passes while the page stays open and nobody decides anything.
  await page.clock.runFor(4 * 60_000);
  const day = beforeMidnight.toLocaleDateString('en-US', { day: 'numeric', month: 'short' });
  await expect(held).toContainText(`(organization daily limit $0.05 (spent $0.034 on ${day})),`);
  // Held stays held: only the two paid adopts reached the service.
  expect((await charged()).map((r) => r.item_id).sort()).toEqual([...paid].sort());
  // Today's limit starts empty: the next adopt is charged, and yesterday's hold stays held.
  const today = await adopt(page, 1);
  await expect.poll(async () => (await charged()).map((r) => r.item_id).sort()).toEqual([...paid, ...today].sort());
  await expect(held).toContainText('1 charged adopt held by budget, $0.017 in all');
});
