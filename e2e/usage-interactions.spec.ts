import { expect, test, type Page } from '@playwright/test';
import { connectDemo, navTo } from './support/console';

/*
 * The Usage page as a person uses it: header clicks, dates typed into the date fields, arrow
 * keys in them. Each of these froze the tab once (a render loop), while the same state set
 * through the URL worked, so every step here goes through the controls.
 */

async function openUsage(page: Page) {
  await connectDemo(page);
  // At 390 px the nav opens from its Menu button first.
  await navTo(page, 'Usage');
  await expect(page.getByRole('heading', { name: 'Usage', level: 1 })).toBeVisible();
}

/** The page still answers: a frozen renderer would never evaluate this. */
async function expectResponsive(page: Page) {
  expect(await page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(1))))).toBe(1);
}

test('sorting by every header of the receipts table keeps the tab responsive and sorts', async ({ page }) => {
  await openUsage(page);
  const table = page.getByRole('table', { name: 'Receipts' });
  const headers = table.getByRole('columnheader');
  const count = await headers.count();
  expect(count).toBeGreaterThanOrEqual(7);
  // The rows follow the header, not only its arrow: the amounts are read back in each order.
  const amount = headers.filter({ hasText: 'Amount' });
  const amounts = () =>
    table
      .getByRole('row')
      .filter({ has: page.getByRole('cell') })
      .evaluateAll((rows) => rows.map((row) => Number(row.children[5]!.textContent!.replace(/[^0-9.]/g, ''))));
  let order: string | null = null;
  for (let click = 0; click < 2; click++) {
    await amount.getByRole('button').click();
    await expect(amount).toHaveAttribute('aria-sort', order === null ? /ascending|descending/ : order === 'ascending' ? 'descending' : 'ascending');
    order = await amount.getAttribute('aria-sort');
    const values = await amounts();
    expect(new Set(values).size, 'distinct amounts to sort').toBeGreaterThan(1);
    expect(values).toEqual([...values].sort((a, b) => (order === 'ascending' ? a - b : b - a)));
  }
  for (let i = 0; i < count; i++) {
    const header = headers.nth(i);
    const button = header.getByRole('button');
    await button.click();
    await expect(header).toHaveAttribute('aria-sort', /ascending|descending/);
    const first = await header.getAttribute('aria-sort');
    await button.click();
    await expect(header).toHaveAttribute('aria-sort', first === 'ascending' ? 'descending' : 'ascending');
    await expectResponsive(page);
  }
  // The sort is in the URL and survives a reload.
  await page.reload();
  await expect(headers.nth(count - 1)).toHaveAttribute('aria-sort', /ascending|descending/);
});

test('typing dates into From and To, and arrow keys in them, filter without freezing', async ({ page }) => {
  await openUsage(page);
  const from = page.getByLabel('From', { exact: true });
  const to = page.getByLabel('To', { exact: true });
  await from.focus();
  await page.keyboard.type('01022026');
  await expect(page).toHaveURL(/from=2026-01-02/);
  await expectResponsive(page);
  await to.focus();
  await page.keyboard.type('12312030');
  await expect(page).toHaveURL(/to=2030-12-31/);
  await expectResponsive(page);
  // ArrowUp on the focused segment (the year, after typing it) steps it.
  await page.keyboard.press('ArrowUp');
  await expect(page).toHaveURL(/to=2031-12-31/);
  await expectResponsive(page);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(page).toHaveURL(/to=2029-12-31/);
  await expect(page.getByText(/receipts shown, total/)).toBeVisible();
  await expectResponsive(page);
});

const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const typedDay = (day: string) => `${day.slice(5, 7)}${day.slice(8, 10)}${day.slice(0, 4)}`;

test('the spend chart has one slot per calendar day and a colour per subscription that filters do not change', async ({ page }) => {
  await openUsage(page);
  const chart = page.getByRole('img', { name: /Spend per day/ });
  const legendColor = (subscription: string) =>
    page.locator('.recharts-legend-item').filter({ hasText: subscription }).locator('path').first().getAttribute('fill');
  // The legend names the subscriptions.
  await expect(page.locator('.recharts-legend-item').filter({ hasText: 'Retail shelf audits' })).toBeVisible();
  await expect(page.locator('.recharts-legend-wrapper')).not.toContainText('sub_sim_');
  const retail = await legendColor('Retail shelf audits');
  const support = await legendColor('Support dialogues');
  expect(retail).not.toBe(support);

  // Typing a range gives the chart every day of it, empty days included.
  const from = isoDay(-70);
  const to = isoDay(0);
  await page.getByLabel('From', { exact: true }).focus();
  await page.keyboard.type(typedDay(from));
  await page.getByLabel('To', { exact: true }).focus();
  await page.keyboard.type(typedDay(to));
  await expect(chart).toHaveAttribute('aria-label', new RegExp(`From ${from} to ${to}\\.`));
  await expect(chart).toHaveAttribute('data-days', '71');

  // One subscription alone keeps its colour.
  await page.getByRole('combobox', { name: 'Subscription' }).selectOption({ label: 'Retail shelf audits' });
  await expect(page.locator('.recharts-legend-item')).toHaveCount(1);
  expect(await legendColor('Retail shelf audits')).toBe(retail);
  await page.getByRole('combobox', { name: 'Subscription' }).selectOption({ label: 'Support dialogues' });
  await expect(page.locator('.recharts-legend-item')).toHaveCount(1);
  expect(await legendColor('Support dialogues')).toBe(support);
});

test.describe('in Tokyo', () => {
  test.use({ timezoneId: 'Asia/Tokyo', locale: 'en-US' });

  test('receipt and delivery times are local, with UTC on hover', async ({ page }) => {
    await openUsage(page);
    const format = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'Asia/Tokyo' });
    const normal = (text: string) => text.replace(/\s+/g, ' ').trim();
    const firstTime = page.getByRole('table', { name: 'Receipts' }).locator('tbody time').first();
    const instant = new Date((await firstTime.getAttribute('datetime'))!);
    expect(Number.isNaN(instant.getTime())).toBe(false);
    expect(normal((await firstTime.textContent())!)).toBe(normal(format.format(instant)));
    await expect(firstTime).toHaveAttribute('title', `${instant.toISOString().slice(0, 19).replace('T', ' ')} UTC`);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Deliveries' }).click();
    const delivered = page.getByRole('table', { name: 'Deliveries' }).locator('tbody time').first();
    const when = new Date((await delivered.getAttribute('datetime'))!);
    expect(normal((await delivered.textContent())!)).toBe(normal(format.format(when)));
    await expect(delivered).toHaveAttribute('title', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('Usage and Deliveries fit 390 px without sideways scrolling, and a delivery opens', async ({ page }) => {
    await openUsage(page);
    await page.getByText('Spend per day as a table').click();
    await expect(page.getByRole('img', { name: /Spend per day/ })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await navTo(page, 'Deliveries');
    // A delivery of the demo's own subscriptions (other tests import deliveries the demo key does not cover):
    // the row names the subscription, with its ID on hover.
    const open = page
      .getByRole('table', { name: 'Deliveries' })
      .getByRole('row')
      .filter({ has: page.locator('td[title^="Subscription sub_sim_"]') })
      .getByRole('link', { name: /^Open delivery of / })
      .first();
    await expect(open).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await open.click();
    await expect(page.getByRole('heading', { level: 1, name: /^Delivery / })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
