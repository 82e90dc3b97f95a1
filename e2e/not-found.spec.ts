import { expect, test } from '@playwright/test';
import { connectDemo } from './support/console';

/*
 * A stale or mistyped link to something the service does not have (404) shows what is missing
 * and the way back, not a failure whose Retry asks the same question again.
 */

test('an unknown frontier, task or delivery offers the way back, not a Retry', async ({ page }) => {
  await connectDemo(page);

  await page.goto('/frontiers/999');
  await expect(page.getByRole('heading', { name: 'Frontier 999 was not found' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Back to frontiers' }).click();
  await expect(page.getByRole('heading', { name: 'Frontiers', level: 1 })).toBeVisible();

  await page.goto('/frontiers/101/tasks/424242/preview');
  await expect(page.getByRole('heading', { name: 'Task 424242 of frontier 101 was not found' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Back to the tasks of frontier 101' }).click();
  await expect(page.getByRole('table', { name: /^Tasks of / })).toBeVisible();

  await page.goto('/deliveries/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { name: 'Delivery 00000000-0000-4000-8000-000000000000 was not found' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Back to deliveries' }).click();
  await expect(page.getByRole('table', { name: 'Deliveries' })).toBeVisible();
});
