import { expect, test } from '@playwright/test';

test('the served console opens and lists the online frontiers', async ({ page }) => {
  await page.goto('/frontiers');
  await expect(page.getByRole('heading', { name: 'Frontiers' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Urban street scenes' })).toBeVisible();
  // The archived frontier is not online, so it is not in the default view.
  await expect(page.getByRole('link', { name: 'Retail receipts archive (2024)' })).toHaveCount(0);
});
