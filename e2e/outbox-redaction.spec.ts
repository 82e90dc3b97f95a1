import { expect, test } from '@playwright/test';
import { connectWith } from './support/console';
import { storedRows } from './support/idb';
import { createKey } from './support/service';

/**
 * Redaction knows the keys: a service that echoes the key's body without its `dds_live_sk_` prefix
 * (no key shape to find) has it removed from the decision's stored error, the page and the console.
 */
const SUB = 'sub_live_streets';

test('an error echoing the bare body of the key is redacted where it is stored, shown and logged', async ({ page }) => {
  const key = createKey('Bare echo', [SUB]).key;
  const body = key.slice(key.indexOf('_sk_') + 4);
  const logged: string[] = [];
  page.on('console', (message) => logged.push(message.text()));
  page.on('pageerror', (error) => logged.push(`${error.message}\n${error.stack ?? ''}`));
  await connectWith(page, 'Bare echo', key, [{ id: SUB, kind: 'Live' }]);
  // The local service never echoes a secret; this answer is a service that does.
  await page.route(/\/v1\/live\/items\/[^/]+\/adopt$/, (route) =>
    route.fulfill({
      status: 422,
      contentType: 'application/json',
      body: JSON.stringify({ success: false, errorCode: 'INVALID_BODY', errorMessage: `cannot adopt for account ${body} (token ${body})` }),
    }),
  );
  await page.goto(`/review/${SUB}?limit=5`);
  await page.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('0');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  const list = page.getByRole('listbox', { name: 'Items on this page' });
  await expect(list.getByRole('option').first()).toBeVisible();
  await list.focus();
  await page.keyboard.press('a');

  await expect(page.getByText(/Could not adopt .*cannot adopt for account \[redacted key\]/).first()).toBeVisible();
  const rows = await storedRows<{ state: string; lastError?: string }>(page, 'decisions');
  const failed = rows.filter((r) => r.state === 'failed');
  expect(failed).toHaveLength(1);
  expect(failed[0]!.lastError).toContain('[redacted key]');
  for (const row of rows) expect(JSON.stringify(row)).not.toContain(body);
  expect(await page.evaluate(() => document.documentElement.outerHTML)).not.toContain(body);
  for (const text of logged) expect(text, 'a console message').not.toContain(body);
});
