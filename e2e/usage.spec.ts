import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { formatExact, formatTotal } from '../src/lib/money';
import { micros, serviceApi } from './support/api';
import { connectDemo, connectWith } from './support/console';
import { createKey, demoCredentials, E2E_DATA } from './support/service';

test.describe.configure({ mode: 'serial' });

const today = () => new Date().toISOString().slice(0, 10);

test('after adopting 5 items: 5 receipts with the exact total, the day in the chart, the CSV, and no mismatch', async ({ page, request }) => {
  await connectDemo(page);
  const chosen = await serviceApi(request).pending('sub_sim_retail', 5);
  const expected = chosen.reduce((sum, i) => sum + micros(i.unit_price_usd), 0);
  await page.goto('/review/sub_sim_retail?limit=5');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option')).toHaveCount(5);
  for (let i = 0; i < 5; i++) await page.keyboard.press('a');
  await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();

  // Other tests of the run adopt items of this subscription today too: the service's own receipts are the witness.
  const todays = (await serviceApi(request).usage()).filter(
    (r) => r.subscription_id === 'sub_sim_retail' && r.kind === 'adopt' && r.created_at.startsWith(today()),
  );
  for (const item of chosen) expect(todays.filter((r) => r.item_id === item.id)).toHaveLength(1);
  const todaysTotal = todays.reduce((sum, r) => sum + micros(r.amount_usd), 0);
  await page.goto(`/usage?limit=200&sub=sub_sim_retail&kind=adopt&from=${today()}`);
  // Totals read to the cent; the exact micro-dollars are the hover.
  const shownTotal = page.getByText(`${todays.length} receipts shown, total ${formatTotal(todaysTotal)}`);
  await expect(shownTotal).toBeVisible();
  await expect(shownTotal.getByTitle(formatExact(todaysTotal))).toHaveText(formatTotal(todaysTotal));
  const table = page.getByRole('table', { name: 'Receipts' });
  for (const item of chosen) await expect(table.getByRole('row').filter({ hasText: item.id })).toHaveCount(1);
  await expect(page.getByRole('img', { name: /Spend per day/ })).toHaveAttribute('aria-label', new RegExp(`${today()}: \\${formatTotal(todaysTotal)}`));
  // Subscriptions read as their names, with the ID on hover; the files keep IDs.
  const totalsRow = page.getByRole('table', { name: 'Totals per subscription' }).getByRole('row', { name: /Retail shelf audits/ });
  await expect(totalsRow).toContainText(formatTotal(todaysTotal));
  await expect(totalsRow.getByTitle('Subscription sub_sim_retail')).toHaveText('Retail shelf audits');
  await expect(page.getByRole('combobox', { name: 'Subscription' }).locator('option:checked')).toHaveText('Retail shelf audits');
  for (const item of chosen) {
    const row = table.getByRole('row').filter({ hasText: item.id });
    await expect(row.getByTitle('Subscription sub_sim_retail')).toHaveText('Retail shelf audits');
    await expect(row).not.toContainText('sub_sim_retail');
  }

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await (await download).path();
  const rows = Papa.parse<Record<string, string>>(readFileSync(file, 'utf8'), { header: true, skipEmptyLines: true }).data;
  expect(rows).toHaveLength(todays.length);
  for (const item of chosen) expect(rows.filter((r) => r.item_id === item.id && r.subscription_id === 'sub_sim_retail')).toHaveLength(1);
  expect(rows.reduce((sum, r) => sum + micros(Number(r.amount_usd)), 0)).toBe(todaysTotal);
  // The five adopted here were charged exactly their prices.
  expect(todays.filter((r) => chosen.some((c) => c.id === r.item_id)).reduce((sum, r) => sum + micros(r.amount_usd), 0)).toBe(expected);

  const json = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON' }).click();
  expect(JSON.parse(readFileSync(await (await json).path(), 'utf8'))).toHaveLength(todays.length);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reconciliation' }).click();
  await expect(page.getByRole('status', { name: 'Reconciliation result' })).toHaveText('No mismatch');
  const books = page.getByRole('table', { name: 'Expected and charged per subscription and day' });
  const todaysBooks = books.getByRole('row', { name: new RegExp(`^${today()}`) }).filter({ has: page.getByTitle('Subscription sub_sim_retail') });
  await expect(todaysBooks.getByTitle('Subscription sub_sim_retail')).toHaveText('Retail shelf audits');
  await expect(books).not.toContainText('sub_sim_');
  await expect(page.getByText('A per-item unit price is not proof of a charge').first()).toBeVisible();
});

test('deliveries list their items, which expand into the payload viewer and can be disputed', async ({ page, request }) => {
  await connectDemo(page);
  // The service's own list is the witness (other tests' fixtures may add deliveries).
  const listed = await request.get('/v1/data/deliveries?limit=50', { headers: { Authorization: `Bearer ${demoCredentials().api_key}` } });
  const deliveries = (await listed.json()).data as { subscription_id: string; item_count: number; status_counts: { pending: number } }[];
  expect(deliveries.length).toBeGreaterThan(0);
  expect(deliveries.length).toBeLessThan(50);
  await page.goto('/deliveries');
  await expect(page.getByText(`All ${deliveries.length} deliveries of your organization, newest first.`)).toBeVisible();
  const table = page.getByRole('table', { name: 'Deliveries' });
  // One row per delivery, newest first, each with its subscription, item count and pending count.
  const rows = table.getByRole('row').filter({ has: page.getByRole('link', { name: /^Open delivery of / }) });
  await expect(rows).toHaveCount(deliveries.length);
  // The subscription by name, its ID on hover.
  await expect(rows).toContainText(deliveries.map((d) => `${d.item_count}${d.status_counts.pending} pending`));
  for (const [i, d] of deliveries.entries()) await expect(rows.nth(i).getByRole('cell').nth(1)).toHaveAttribute('title', `Subscription ${d.subscription_id}`);
  await table
    .getByRole('link', { name: /Open delivery of .* \(Retail shelf audits\)/ })
    .last()
    .click();
  const first = page.getByRole('list', { name: 'Items of this delivery' }).getByRole('listitem').filter({ hasText: 'new' }).first();
  // The row shows a short ID; the whole title is its hover.
  const title = (await first.locator('summary span[title]').first().getAttribute('title'))!;
  await first.locator('summary').first().click();
  await expect(first.getByRole('region', { name: 'Delivered content' })).toBeVisible();
  await first.getByRole('button', { name: `Dispute ${title}` }).click();
  await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();
  const pending = await serviceApi(request).pending('sub_sim_retail', 200);
  expect(pending.some((p) => title.includes(p.id.slice(0, 8)))).toBe(false);
});

test('a receipt without a matching adoption is listed as a mismatch', async ({ page, request }) => {
  const [victim] = await serviceApi(request).pending('sub_sim_retail', 1);
  const dir = mkdtempSync(join(tmpdir(), 'dds-receipt-'));
  const file = join(dir, 'receipt.json');
  writeFileSync(
    file,
    JSON.stringify({ receipts: [{ subscription_id: 'sub_sim_retail', kind: 'adopt', item_id: victim!.id, quantity: 1, amount_usd: victim!.unit_price_usd }] }),
  );
  execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/fixtures.ts', 'import', file, '--data', E2E_DATA]);

  await connectDemo(page);
  await page.goto('/reconciliation');
  await expect(page.getByRole('status', { name: 'Reconciliation result' })).toHaveText('1 mismatch');
  const row = page.getByRole('table', { name: 'Mismatches item by item' }).getByRole('row').filter({ hasText: victim!.id });
  await expect(row).toContainText('Charged, not adopted');
  await expect(row).toContainText('charged, but the item is pending');
});

test('a key that covers only some subscriptions reconciles what it can read and names the deliveries it cannot', async ({ page }) => {
  // The deliveries list is organization-wide; reading a delivery's items needs its subscription in the key's scope.
  const key = createKey('Narrow books', ['sub_sim_retail']);
  await connectWith(page, 'Narrow books', key.key, [{ id: 'sub_sim_retail', kind: 'Simulated' }]);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reconciliation', exact: true }).click();
  await expect(page.getByRole('status', { name: 'Reconciliation result' })).toBeVisible();
  const warnings = page.getByRole('region', { name: 'Warnings about cost' });
  await expect(warnings).toContainText(/deliver(y is|ies are) left out: this key does not cover/);
  await expect(warnings).not.toContainText('sub_sim_retail');
});
