import { expect, test, type Page } from '@playwright/test';
import { serviceApi } from './support/api';
import { connectWith } from './support/console';
import { createKey, importFixture, pricedItemsFixture } from './support/service';

/**
 * A bulk adopt meets the budgets in its confirmation, not only afterwards: the dialog says how
 * many the limit lets through and what that costs, the run's progress says how many are held and
 * where to release them, and raising the limit sends the rest. A simulated subscription of its
 * own (8 items at 1.7¢, a daily limit of $0.05 on it: 2 fit). The service's receipts are the witness.
 */
const SUB = 'sub_e2e_budget_bulk';
let key: string;

test.beforeAll(() => {
  importFixture('budget-bulk', pricedItemsFixture('budget-bulk', { subscription: SUB, label: 'Bulk under budget', count: 8, priceUsd: 0.017 }));
  key = createKey('Bulk budget', [SUB]).key;
});

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });
const dailyField = (page: Page) => page.getByRole('textbox', { name: `${SUB} daily limit (USD)` });

async function saveDaily(page: Page, amount: string) {
  await dailyField(page).fill(amount);
  await page.getByRole('button', { name: `Save ${SUB} limits` }).click();
  await expect(page.getByRole('status').filter({ hasText: `Saved ${SUB}’s limits.` })).toBeVisible();
}

test('a bulk adopt past a limit says before it is confirmed what is paid and what is held; raising the limit sends the rest, each charged once', async ({
  page,
  request,
}) => {
  const adopts = new Map<string, number>();
  page.on('request', (r) => {
    const id = r.method() === 'POST' ? /\/v1\/data\/items\/([^/]+)\/adopt$/.exec(r.url())?.[1] : undefined;
    if (id) adopts.set(decodeURIComponent(id), (adopts.get(decodeURIComponent(id)) ?? 0) + 1);
  });
  const charged = async () => (await serviceApi(request, key).usage()).filter((r) => r.subscription_id === SUB && r.kind === 'adopt');
  await connectWith(page, 'Bulk budget', key, [{ id: SUB, kind: 'Simulated' }]);
  await nav(page, 'Budgets').click();
  await saveDaily(page, '0.05');

  // Pull the delivery, then adopt every item from the Items view.
  await nav(page, 'Review').click();
  await page.getByRole('link', { name: `Review ${SUB}` }).click();
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByText('8 items kept on this device')).toBeVisible();
  await nav(page, 'Items').click();
  await page.getByRole('link', { name: `Items of ${SUB}`, exact: true }).click();
  await page.getByRole('button', { name: 'Adopt all 8 matching' }).click();

  const dialog = page.getByRole('alertdialog', { name: 'Adopt 8 items?' });
  await expect(dialog).toContainText('Adopting them charges $0.136 in total');
  await expect(dialog).toContainText('Your budgets allow 2 of them now ($0.034). The other 6 ($0.102) would be held by budget');
  await expect(dialog).toContainText(`The limit: ${SUB} daily limit $0.05 (spent $0.034).`);
  await dialog.getByRole('button', { name: 'Adopt 8: pay $0.034, hold 6' }).click();

  // The run says what the limit holds, and where to act on it.
  const run = page.getByRole('region', { name: 'Bulk decisions sent' });
  await expect(run).toContainText('2 of 8 confirmed');
  await expect(run.getByLabel('8 recorded')).toContainText('held by budget6');
  await expect.poll(async () => (await charged()).length).toBe(2);
  await run.getByRole('link', { name: 'Raise the limit or release them on Budgets' }).click();
  await expect(page.getByRole('heading', { name: 'Budgets', level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Decisions held by budget' }).getByRole('button', { name: 'Release 6 held decisions ($0.102)' })).toBeVisible();

  // Raised so that all fit: the held ones are weighed again and sent, each once.
  await saveDaily(page, '0.20');
  await expect.poll(async () => (await charged()).length).toBe(8);
  await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();
  const receipts = await charged();
  expect(new Set(receipts.map((r) => r.item_id)).size).toBe(8);
  expect([...adopts.values()]).toEqual(Array<number>(8).fill(1));
  await nav(page, 'Items').click();
  await page.getByRole('link', { name: `Items of ${SUB}`, exact: true }).click();
  await expect(page.getByText('None of the 8 matching items is undecided.')).toBeVisible();
});
