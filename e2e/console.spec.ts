import { expect, test } from '@playwright/test';
import { connectDemo, connectWith, navTo, watchLeaks } from './support/console';
import { createKey, demoCredentials, revokeKey } from './support/service';

test('connect with the demo key, verify it, browse frontiers and preview a task', async ({ page }) => {
  const leaks = watchLeaks(page);
  const demo = demoCredentials();
  await connectDemo(page);
  await navTo(page, 'Keys');
  await page.getByRole('button', { name: 'Verify key' }).click();
  const verified = page.getByRole('status', { name: 'Key verified' });
  await expect(verified).toContainText(demo.org_id);
  await expect(verified).toContainText('Demo key');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Frontiers' }).click();
  await expect(page.getByRole('link', { name: 'Urban street scenes' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Retail receipts archive (2024)' })).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Status' }).selectOption('all');
  await expect(page).toHaveURL(/status=all/);
  await expect(page.getByRole('link', { name: 'Retail receipts archive (2024)' })).toBeVisible();

  // Sorting by submissions, descending, puts the largest frontier first.
  await page.getByRole('button', { name: /^Submissions/ }).click();
  await page.getByRole('button', { name: /^Submissions/ }).click();
  await expect(page).toHaveURL(/sort=total_submissions/);
  await expect(page).toHaveURL(/dir=desc/);
  await expect(page.getByRole('columnheader', { name: /Submissions/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByRole('row').nth(1)).toContainText('Urban street scenes');
  await page.getByRole('searchbox', { name: 'Search titles' }).fill('archive');
  await expect(page.getByRole('row')).toHaveCount(2);
  await page.getByRole('searchbox', { name: 'Search titles' }).fill('');

  // The URL is the table's state: a reload keeps it; a bad value falls back.
  await page.reload();
  await expect(page.getByRole('link', { name: 'Retail receipts archive (2024)' })).toBeVisible();
  await page.goto('/frontiers?status=bogus');
  await expect(page.getByRole('combobox', { name: 'Status' })).toHaveValue('online');

  await page.getByRole('link', { name: 'Urban street scenes' }).click();
  await page.getByRole('link', { name: 'Preview Vehicle and pedestrian boxes' }).click();
  await expect(page.getByRole('heading', { name: 'Preview of Vehicle and pedestrian boxes' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Urban street scenes');
  await expect(page.getByRole('region', { name: /^Submission \d+$/ })).toHaveCount(5);
  await page.getByRole('combobox', { name: 'Samples' }).selectOption('2');
  await expect(page.getByRole('region', { name: /^Submission \d+$/ })).toHaveCount(2);
  await expect(page.getByRole('img', { name: /Delivered image with \d+ annotations?/ }).first()).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Verticals' }).click();
  await expect(page.getByRole('cell', { name: '$0.0125' })).toBeVisible();

  leaks.expectAbsent(demo.api_key);
  leaks.expectAbsent(demo.jwt);
  expect(await page.evaluate(() => JSON.stringify({ ...window.localStorage }))).not.toContain(demo.api_key);
  expect(await page.locator('body').innerText()).not.toContain(demo.api_key);
});

test('a preview limit out of range in the address is named, and the nearest one is shown', async ({ page }) => {
  await connectDemo(page);
  const limits: string[] = [];
  page.on('request', (r) => r.url().includes('/preview') && r.url().includes('/v1/') && limits.push(new URL(r.url()).searchParams.get('limit') ?? ''));
  const samples = page.getByRole('combobox', { name: 'Samples' });
  const submissions = page.getByRole('region', { name: /^Submission \d+$/ });
  const notice = page.getByRole('alert').filter({ hasText: /samples/ });

  await page.goto('/frontiers/101/tasks/1001/preview?limit=50');
  await expect(notice).toHaveText('The address asks for 50 samples, but a preview shows 1 to 20: showing 20.');
  await expect(samples).toHaveValue('20');
  await expect(submissions.first()).toBeVisible();
  expect(limits).toEqual(['20']);

  await page.goto('/frontiers/101/tasks/1001/preview?limit=0');
  await expect(notice).toHaveText('The address asks for 0 samples, but a preview shows 1 to 20: showing 1.');
  await expect(submissions).toHaveCount(1);

  // No number at all is the default, and the address says so (never limit=NaN).
  await page.goto('/frontiers/101/tasks/1001/preview?limit=lots');
  await expect(page).toHaveURL(/limit=5$/);
  await expect(submissions).toHaveCount(5);

  // Choosing a number fixes the address, and the notice goes.
  await samples.selectOption('3');
  await expect(page).toHaveURL(/limit=3/);
  await expect(submissions).toHaveCount(3);
  await expect(notice).toHaveCount(0);
});

test('a malformed key is refused before any request is sent', async ({ page }) => {
  await page.goto('/connection');
  const apiCalls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/v1/')) apiCalls.push(request.url());
  });
  await page.getByRole('textbox', { name: 'Name' }).fill('Broken');
  await page.getByLabel('API key', { exact: true }).fill('dds_live_sk_tooshort');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByText("An API key is dds_live_sk_ (or your service's prefix) followed by 32 URL-safe characters.")).toBeVisible();
  await expect(page.getByLabel('API key', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  expect(apiCalls).toEqual([]);

  // The same check guards the "verify another key" form.
  await page.goto('/keys');
  await page.getByLabel('Key to verify').fill('not-a-key');
  await page.getByRole('button', { name: 'Verify pasted key' }).click();
  await expect(page.getByText("An API key is dds_live_sk_ (or your service's prefix) followed by 32 URL-safe characters.")).toBeVisible();
  expect(apiCalls).toEqual([]);
});

test('a key revoked mid-session shows the banner; replacing the key clears it', async ({ page }) => {
  const leaks = watchLeaks(page);
  const key = createKey('Revoked mid-test', ['sub_live_streets']);
  await connectWith(page, 'Staging', key.key, [{ id: 'sub_live_streets', kind: 'Live' }]);
  await navTo(page, 'Keys');
  await page.getByRole('button', { name: 'Verify key' }).click();
  await expect(page.getByRole('status', { name: 'Key verified' })).toContainText('Revoked mid-test');

  revokeKey(key.key_id);
  await page.getByRole('button', { name: 'Verify key' }).click();
  const banner = page.getByRole('alert').filter({ hasText: 'This API key has been revoked.' });
  await expect(banner).toBeVisible();
  await expect(page.getByRole('status', { name: 'Connection status: key refused' })).toBeVisible();

  await banner.getByRole('link', { name: 'Replace the key' }).click();
  const fresh = createKey('Replacement', ['sub_live_streets']);
  await page.getByLabel('API key', { exact: true }).fill(fresh.key);
  await page.getByRole('button', { name: 'Save key' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'revoked' })).toHaveCount(0);
  await navTo(page, 'Keys');
  await page.getByRole('button', { name: 'Verify key' }).click();
  await expect(page.getByRole('status', { name: 'Key verified' })).toContainText('Replacement');
  leaks.expectAbsent(key.key);
  leaks.expectAbsent(fresh.key);
});

test('keys stay masked until revealed, and reach localStorage only when remembered', async ({ page }) => {
  const demo = demoCredentials();
  await connectDemo(page);
  expect(await page.locator('body').innerText()).not.toContain(demo.api_key);
  await navTo(page, 'Keys');
  await expect(page.getByLabel('Active API key')).toHaveText(`dds_live_sk_…${demo.api_key.slice(-4)}`);
  expect(await page.evaluate(() => JSON.stringify({ ...window.localStorage }))).not.toContain(demo.api_key);
  expect(await page.evaluate(() => JSON.stringify({ ...window.sessionStorage }))).toContain(demo.api_key);

  await page.getByRole('button', { name: 'Reveal' }).click();
  await expect(page.getByLabel('Active API key')).toHaveText(demo.api_key);

  // Disconnect clears the secrets everywhere.
  await page.goto('/connection');
  await page.getByRole('button', { name: 'Disconnect Local demo' }).click();
  await page.getByRole('alertdialog', { name: 'Disconnect Local demo?' }).getByRole('button', { name: 'Disconnect and keep local data' }).click();
  // Disconnecting first cleans the kept decisions' error texts in IndexedDB, then forgets the key.
  await expect(page.getByRole('button', { name: 'Reconnect Local demo' })).toBeVisible();
  const storage = await page.evaluate(() => JSON.stringify({ ...window.localStorage }) + JSON.stringify({ ...window.sessionStorage }));
  expect(storage).not.toContain(demo.api_key);
  expect(storage).not.toContain(demo.jwt);

  await connectDemo(page, { remember: true });
  expect(await page.evaluate(() => JSON.stringify({ ...window.localStorage }))).toContain(demo.api_key);
  expect(await page.evaluate(() => JSON.stringify({ ...window.sessionStorage }))).not.toContain(demo.api_key);
});

test('a preview without a JWT explains how to add one', async ({ page }) => {
  const key = createKey('No JWT', ['sub_live_streets']);
  await connectWith(page, 'No JWT', key.key, [{ id: 'sub_live_streets', kind: 'Live' }]);
  await page.goto('/frontiers/101/tasks/1001/preview');
  await expect(page.getByText('This connection has no dashboard JWT.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add a dashboard JWT' })).toBeVisible();
});

test('unknown pages and failing loads show a clear state, not a white screen', async ({ page }) => {
  await page.goto('/nowhere/at/all');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to frontiers' }).click();
  await expect(page.getByRole('heading', { name: 'Frontiers', level: 1 })).toBeVisible();
});
