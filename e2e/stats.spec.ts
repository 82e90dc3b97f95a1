import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { formatExact, formatTotal } from '../src/lib/money';
import { micros, serviceApi } from './support/api';
import { connectDemo } from './support/console';
import { demoCredentials } from './support/service';

/**
 * Statistics against the service's own record: items are pulled and decided by keyboard in the
 * review, then the statistics pages (opened by address and by link) must show what the service
 * recorded for exactly those items.
 */

const saved = (page: Page) => expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible({ timeout: 45_000 });

/** The items on the review list, by ID (the list is short: every row is in the DOM). */
async function listedIds(page: Page): Promise<string[]> {
  const labels = await page
    .getByRole('listbox', { name: 'Items on this page' })
    .getByRole('option')
    .evaluateAll((options) => options.map((o) => o.getAttribute('aria-label') ?? ''));
  return labels.map((label) => label.split(',')[0]!.replace(/^(Submission|Item) /, ''));
}

/** Every live item of a subscription as the service records it now (re-read from the beginning). */
async function liveRecords(request: APIRequestContext, subscriptionId: string) {
  const headers = { Authorization: `Bearer ${demoCredentials().api_key}` };
  const items: { submission_id: string; task_id: string | null; quality_score: number | null; consumer_feedback: string | null }[] = [];
  let cursor = '';
  do {
    const response = await request.get(
      `/v1/live/pull?subscription_id=${subscriptionId}&from=beginning&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { headers },
    );
    const body = await response.json();
    items.push(...body.data.items);
    cursor = body.data.next_cursor;
  } while (cursor);
  return items;
}

/** adopted / decided as the page writes it: at most one decimal, no trailing ".0". */
const rate = (adopted: number, disputed: number) => (adopted + disputed === 0 ? '—' : `${Math.round((adopted * 1000) / (adopted + disputed)) / 10}%`);

const summaryValue = (page: Page, term: string) =>
  page
    .getByRole('region', { name: 'Summary' })
    .getByRole('term')
    .filter({ hasText: new RegExp(`^${term}$`) })
    .locator('xpath=following-sibling::dd[1]');

async function expectSummary(page: Page, expected: { items: number; undecided: number; adopted: number; disputed: number }) {
  await expect(summaryValue(page, 'Items')).toHaveText(String(expected.items));
  await expect(summaryValue(page, 'Undecided')).toHaveText(String(expected.undecided));
  await expect(summaryValue(page, 'Adopted')).toHaveText(String(expected.adopted));
  await expect(summaryValue(page, 'Disputed')).toHaveText(String(expected.disputed));
  await expect(summaryValue(page, 'Acceptance rate')).toHaveText(rate(expected.adopted, expected.disputed));
}

const cells = async (row: Locator) => (await row.locator('th, td').allTextContents()).map((t) => t.trim());

test('live: acceptance by task and the quality histogram match what the service recorded', async ({ page, request }) => {
  await connectDemo(page);
  await page.goto('/review/sub_live_support?limit=10');
  await expect(page.getByRole('button', { name: 'Pull', exact: true })).toBeVisible();
  await page.keyboard.press('n');
  await expect(page.getByText('10 items kept on this device')).toBeVisible();
  const pulled = await listedIds(page);
  expect(pulled).toHaveLength(10);

  // Three adopted, two disputed (one with a reason), five left undecided.
  await expect(page.getByRole('region', { name: 'Focused item' })).toBeVisible();
  for (const key of ['a', 'd', 'a', 'd', 'a']) {
    await page.keyboard.press(key);
    if (key === 'd') {
      // The reason opens on its codes (keys 1–9); Tab reaches its text.
      await expect(page.getByRole('radio', { name: 'No code' })).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(page.getByRole('textbox', { name: /Reason/ })).toBeFocused();
      await page.keyboard.type('not usable');
      await page.keyboard.press('Enter');
    }
  }
  await expect(page.getByText('5 of 10 decided')).toBeVisible();
  await saved(page);

  // The service's record of exactly these ten items is the witness.
  const records = new Map((await liveRecords(request, 'sub_live_support')).map((r) => [r.submission_id, r]));
  const mine = pulled.map((id) => records.get(id)!);
  expect(mine.every(Boolean)).toBe(true);
  const adopted = mine.filter((r) => r.consumer_feedback === 'adopt').length;
  const disputed = mine.filter((r) => r.consumer_feedback === 'dispute').length;
  expect(adopted + disputed).toBe(5);

  // Typed address: the organization's page, then this subscription's by its link.
  await page.goto('/stats');
  const bySubscription = page.getByRole('table', { name: 'By subscription' });
  const row = bySubscription.getByRole('row', { name: /sub_live_support/ });
  await expect(row).toBeVisible();
  expect((await cells(row)).slice(-7)).toEqual(['10', String(10 - adopted - disputed), String(adopted), String(disputed), rate(adopted, disputed), '—', '—']);
  await row.getByRole('link').click();
  await expect(page).toHaveURL(/\/stats\/sub_live_support$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Statistics:');
  await expectSummary(page, { items: 10, undecided: 10 - adopted - disputed, adopted, disputed });

  // Acceptance by task: one row per task among the ten, with the service's counts.
  const byTask = page.getByRole('table', { name: 'Acceptance by task' });
  const tasks = new Map<string, { items: number; adopted: number; disputed: number }>();
  for (const r of mine) {
    const key = r.task_id ?? '(none)';
    const t = tasks.get(key) ?? { items: 0, adopted: 0, disputed: 0 };
    t.items++;
    if (r.consumer_feedback === 'adopt') t.adopted++;
    if (r.consumer_feedback === 'dispute') t.disputed++;
    tasks.set(key, t);
  }
  await expect(byTask.getByRole('row')).toHaveCount(tasks.size + 1);
  for (const [task, t] of tasks) {
    expect(await cells(byTask.getByRole('row', { name: new RegExp(`^${task} `) }))).toEqual([
      task,
      String(t.items),
      String(t.adopted),
      String(t.disputed),
      rate(t.adopted, t.disputed),
    ]);
  }

  // The histogram has a name, and its text alternative holds the service's numbers per bin.
  await expect(page.getByRole('img', { name: /^Quality score histogram by decision/ })).toBeVisible();
  await page.getByText('Quality scores as a table').click();
  const histogram = page.getByRole('table', { name: 'Items per quality score and decision' });
  await expect(histogram).toBeVisible();
  const bins = Array.from({ length: 10 }, () => ({ undecided: 0, adopted: 0, disputed: 0 }));
  for (const r of mine) {
    expect(r.quality_score).not.toBeNull();
    const bin = r.quality_score === 1 ? 9 : Math.floor(r.quality_score! * 10);
    const group = r.consumer_feedback === 'adopt' ? 'adopted' : r.consumer_feedback === 'dispute' ? 'disputed' : 'undecided';
    bins[bin]![group]++;
  }
  for (const [index, bin] of bins.entries()) {
    const label = `${(index / 10).toFixed(1)}–${((index + 1) / 10).toFixed(1)}`;
    expect(await cells(histogram.getByRole('row', { name: new RegExp(`^${label} `) })), label).toEqual([
      label,
      String(bin.undecided),
      String(bin.adopted),
      String(bin.disputed),
      '0',
      String(bin.undecided + bin.adopted + bin.disputed),
    ]);
  }

  // A reload starts a new visit: the pace counts nothing decided before it.
  await expect(page.getByRole('region', { name: 'Review pace this visit' })).toContainText('0 items decided in');
});

test('simulated: spend so far and the projection match the receipts and the prices, at 390 px', async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await connectDemo(page);
  await page.goto('/review/sub_sim_support?limit=8');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option')).toHaveCount(8);
  const pulled = await listedIds(page);
  const prices = new Map((await serviceApi(request).pending('sub_sim_support', 200)).map((i) => [i.id, micros(i.unit_price_usd)]));
  expect(pulled.every((id) => prices.has(id))).toBe(true);

  // Adopt, dispute, adopt, adopt by keyboard; the other four stay undecided.
  await page.getByRole('listbox', { name: 'Items on this page' }).focus();
  for (const key of ['a', 'd', 'a', 'a']) {
    await page.keyboard.press(key);
    // D opens the reason picker; Enter alone disputes without a reason.
    if (key === 'd') {
      await expect(page.getByRole('radio', { name: 'No code' })).toBeFocused();
      await page.keyboard.press('Enter');
    }
  }
  await expect(page.getByText('4 of 8 decided')).toBeVisible();
  await saved(page);

  // The service's record: a receipt for each adopt, and the decided items no longer pending.
  const receipts = (await serviceApi(request).usage()).filter((r) => r.item_id && pulled.includes(r.item_id) && r.kind === 'adopt');
  const stillPending = new Set((await serviceApi(request).pending('sub_sim_support', 200)).map((i) => i.id));
  const decided = pulled.filter((id) => !stillPending.has(id));
  expect(decided).toHaveLength(4);
  const adopted = receipts.length;
  const disputed = decided.length - adopted;
  expect(adopted).toBe(3);
  const spent = receipts.reduce((sum, r) => sum + BigInt(micros(r.amount_usd)), 0n);
  const undecided = pulled.filter((id) => stillPending.has(id));
  const undecidedTotal = undecided.reduce((sum, id) => sum + BigInt(prices.get(id)!), 0n);
  // Projected: the undecided prices' total × adopted ÷ decided, rounded half up to the micro-dollar.
  const projected = (undecidedTotal * BigInt(adopted) * 2n + BigInt(decided.length)) / (BigInt(decided.length) * 2n);

  await page.goto('/stats/sub_sim_support');
  await expectSummary(page, { items: 8, undecided: 4, adopted, disputed });
  const spend = page.getByRole('region', { name: 'Spend (simulated items)' });
  // Totals read to the cent; the exact micro-dollars are the hover.
  for (const [term, amount] of [
    ['Spend so far', Number(spent)],
    ['Projected spend of the undecided items', Number(projected)],
  ] as const) {
    const total = spend.getByRole('term').filter({ hasText: term }).locator('xpath=following-sibling::dd[1]').getByTitle(formatExact(amount), { exact: true });
    await expect(total).toHaveText(formatTotal(amount));
  }
  await expect(spend).toContainText(`Undecided 4 × ${rate(adopted, disputed)} accepted (${adopted} adopted of ${decided.length} decided)`);

  // At 390 px nothing but the tables' own frames scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expect(page.getByRole('img', { name: /^Items received per day/ })).toBeVisible();
});

test('a subscription with nothing kept says what to do', async ({ page }) => {
  await connectDemo(page);
  await page.goto('/stats/sub_sim_retail');
  await expect(page.getByText(/Pull items to see statistics/)).toBeVisible();
  await page.getByRole('link', { name: 'Pull items in Review' }).click();
  await expect(page).toHaveURL(/\/review\/sub_sim_retail/);
});
