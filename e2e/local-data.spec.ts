import { expect, test, type Page } from '@playwright/test';
import { connectDemo, navTo } from './support/console';
import { storedRows } from './support/idb';

/*
 * What this device keeps for an organization can be seen and deleted: per subscription, all of
 * it, or on Disconnect. Kept, it comes back with the next connection of the same organization.
 */

const storedCount = async (page: Page, table: 'items' | 'pages' | 'counts' | 'decisions' | 'pulls' | 'lots') => (await storedRows(page, table)).length;

async function pullFive(page: Page, subscription: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Review' }).click();
  await page
    .getByRole('listitem')
    .filter({ hasText: subscription })
    .getByRole('link', { name: /^Review / })
    .click();
  const size = page.getByRole('spinbutton', { name: 'Page size' });
  await size.fill('5');
  await size.press('Enter');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByText('5 items kept on this device')).toBeVisible();
}

const localRow = (page: Page, subscription: string) =>
  page.getByRole('table', { name: 'Local items per subscription' }).getByRole('row').filter({ hasText: subscription });

test('the connection page shows what this device keeps, and deletes one subscription’s items', async ({ page }) => {
  await connectDemo(page);
  await pullFive(page, 'sub_live_support');
  await pullFive(page, 'sub_sim_product');
  await navTo(page, 'Connection');
  // Items and undecided items, per subscription.
  for (const subscription of ['sub_live_support', 'sub_sim_product']) {
    await expect(localRow(page, subscription).getByRole('cell').nth(1)).toHaveText('5');
    await expect(localRow(page, subscription).getByRole('cell').nth(2)).toHaveText('5');
  }
  await expect(page.getByLabel('Storage used')).toContainText('10 items in all');

  await page.getByRole('button', { name: 'Delete the local items of sub_live_support' }).click();
  await page.getByRole('alertdialog', { name: 'Delete the local items of sub_live_support?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The local items of sub_live_support were deleted' })).toBeVisible();
  await expect(page.getByLabel('Storage used')).toContainText('5 items in all');
  expect(await storedCount(page, 'items')).toBe(5);
  // The other subscription's one page of records stays.
  expect(await storedCount(page, 'pages')).toBe(1);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Review' }).click();
  await page
    .getByRole('listitem')
    .filter({ hasText: 'sub_live_support' })
    .getByRole('link', { name: /^Review / })
    .click();
  await expect(page.getByText('0 items kept on this device')).toBeVisible();
});

test('Disconnect keeps the local data for the next connection, or deletes all of it when asked', async ({ page }) => {
  await connectDemo(page);
  await pullFive(page, 'sub_live_streets');
  await navTo(page, 'Connection');

  await page.getByRole('button', { name: 'Disconnect Local demo' }).click();
  let dialog = page.getByRole('alertdialog', { name: 'Disconnect Local demo?' });
  await expect(dialog).toContainText('5 delivered items');
  await dialog.getByRole('button', { name: 'Disconnect and keep local data' }).click();
  await expect(page.getByRole('button', { name: 'Reconnect Local demo' })).toBeVisible();
  expect(await storedCount(page, 'items')).toBe(5);

  await connectDemo(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Review' }).click();
  await page
    .getByRole('listitem')
    .filter({ hasText: 'sub_live_streets' })
    .getByRole('link', { name: /^Review / })
    .click();
  await expect(page.getByText('5 items kept on this device')).toBeVisible();

  await navTo(page, 'Connection');
  await page.getByRole('button', { name: 'Disconnect Local demo' }).click();
  dialog = page.getByRole('alertdialog', { name: 'Disconnect Local demo?' });
  await dialog.getByRole('checkbox', { name: /Also delete them from this device/ }).check();
  await dialog.getByRole('button', { name: 'Disconnect and delete local data' }).click();
  await expect(dialog).toBeHidden();
  for (const table of ['items', 'pages', 'counts', 'decisions', 'pulls', 'lots'] as const) expect(await storedCount(page, table), table).toBe(0);

  await connectDemo(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Review' }).click();
  await page
    .getByRole('listitem')
    .filter({ hasText: 'sub_live_streets' })
    .getByRole('link', { name: /^Review / })
    .click();
  await expect(page.getByText('0 items kept on this device')).toBeVisible();
});
