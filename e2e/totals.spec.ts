import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { formatExact, formatTotal } from '../src/lib/money';
import { micros, serviceApi } from './support/api';
import { connectDemo, navTo } from './support/console';

/**
 * Issue 22, point 7: totals read to the cent, with the exact micro-dollar amount on hover (and, when
 * the cents are rounded, in the text a screen reader reads). Amounts come from the service's records.
 */

const today = () => new Date().toISOString().slice(0, 10);

/** A total as a person meets it: the cents on screen, the exact amount under the pointer, and for assistive technology. */
async function expectTotal(where: Locator, amount: number) {
  const shown = where.getByTitle(formatExact(amount), { exact: true });
  await expect(shown).toHaveText(formatTotal(amount));
  await shown.hover();
  await expect(where).toContainText(amount % 10_000 === 0 ? formatTotal(amount) : `${formatTotal(amount)} (exactly ${formatExact(amount)})`);
}

async function expectAxeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).include('main').analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('Reconciliation and Statistics show totals to the cent, the exact receipts on hover', async ({ page, request }) => {
  // A pull, three sends through the undo window and two axe runs: more than the default minute on a busy machine.
  test.setTimeout(120_000);
  await connectDemo(page);
  await page.goto('/review/sub_sim_retail?limit=6');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  const options = page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option');
  await expect(options).toHaveCount(6);
  const pulled = await options.evaluateAll((o) => o.map((e) => (e.getAttribute('aria-label') ?? '').split(',')[0]!.replace(/^(Submission|Item) /, '')));
  await page.getByRole('listbox', { name: 'Items on this page' }).focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('a');
  await expect(page.getByText('3 of 6 decided')).toBeVisible();
  await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible({ timeout: 45_000 });

  // The service's receipts are the witness: three adopts of the items pulled here.
  const receipts = await serviceApi(request).usage();
  const mine = receipts.filter((r) => r.kind === 'adopt' && r.item_id && pulled.includes(r.item_id));
  expect(mine).toHaveLength(3);
  const spent = mine.reduce((sum, r) => sum + micros(r.amount_usd), 0);

  // Reconciliation: the day's row of this subscription charges every receipt of the day (other tests' too).
  await navTo(page, 'Reconciliation');
  await expect(page.getByRole('heading', { name: 'Reconciliation', level: 1 })).toBeVisible();
  const charged = receipts
    .filter((r) => r.subscription_id === 'sub_sim_retail' && r.created_at.slice(0, 10) === today())
    .reduce((sum, r) => sum + micros(r.amount_usd), 0);
  const row = page
    .getByRole('table', { name: 'Expected and charged per subscription and day' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: today() }) })
    .filter({ has: page.getByRole('cell', { name: 'Retail shelf audits', exact: true }) })
    .filter({ has: page.getByTitle('Subscription sub_sim_retail') });
  await expect(row).toHaveCount(1);
  await expectTotal(row.getByRole('cell').nth(4), charged);
  await expectAxeClean(page);

  // Statistics: this browser keeps only the items pulled here, so the spend so far is exactly the three receipts.
  await navTo(page, 'Statistics');
  await expect(page.getByRole('heading', { name: 'Statistics', level: 1 })).toBeVisible();
  const bySubscription = page.getByRole('table', { name: 'By subscription' });
  await expectTotal(
    bySubscription
      .getByRole('row', { name: /sub_sim_retail/ })
      .getByRole('cell')
      .nth(6),
    spent,
  );
  const spend = page.getByRole('region', { name: 'Spend (simulated items)' });
  await expectTotal(spend.getByRole('definition').first(), spent);
  await expectAxeClean(page);
});
