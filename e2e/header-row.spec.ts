import { expect, test, type Page } from '@playwright/test';
import { connectDemo, navTo } from './support/console';

/** From 1024 px the name, the navigation and the status share one header row, so a page starts high. */

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

for (const size of [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
  { width: 1024, height: 768 },
]) {
  test(`at ${size.width}×${size.height} the header is one row and every link is reachable`, async ({ page }) => {
    await page.setViewportSize(size);
    await connectDemo(page);
    const banner = page.getByRole('banner');
    const name = banner.getByRole('link', { name: 'Data Delivery Console' });
    const connection = banner.getByRole('combobox', { name: 'Active connection' });
    const links = nav(page).locator('[role=group]:not([aria-labelledby$=settings]) a');
    await expect(links).toHaveCount(10);
    // One row: the name, every group's links, Settings and the connection sit side by side, none below another.
    const settings = nav(page).getByRole('button', { name: /^Settings/ });
    const boxes = [
      await name.boundingBox(),
      ...(await Promise.all((await links.all()).map((l) => l.boundingBox()))),
      await settings.boundingBox(),
      await connection.boundingBox(),
    ];
    for (const [i, box] of boxes.entries()) expect(box, `item ${i} is laid out`).not.toBeNull();
    for (let i = 1; i < boxes.length; i++) {
      expect(boxes[i]!.x, `item ${i} right of item ${i - 1}`).toBeGreaterThanOrEqual(boxes[i - 1]!.x + boxes[i - 1]!.width - 1);
    }
    const header = (await banner.boundingBox())!;
    for (const box of boxes) expect(box!.y + box!.height).toBeLessThanOrEqual(header.y + header.height);
    expect(header.height, 'one row: no taller than a labelled link and two status lines').toBeLessThanOrEqual(80);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);

    await navTo(page, 'Reconciliation');
    await expect(page.getByRole('heading', { name: 'Reconciliation', level: 1 })).toBeVisible();
    await navTo(page, 'Dispute reasons');
    await expect(page).toHaveURL(/\/dispute-reasons/);
  });
}

test('at 390 px the Menu button opens every group, Settings included', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await connectDemo(page);
  await expect(nav(page).getByRole('link', { name: 'Usage', exact: true })).toBeHidden();
  await nav(page).getByRole('button', { name: 'Menu' }).click();
  for (const name of ['Review', 'Usage', 'Frontiers', 'Keys']) await expect(nav(page).getByRole('link', { name, exact: true })).toBeVisible();
  await nav(page).getByRole('link', { name: 'Usage', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Usage', level: 1 })).toBeVisible();
  await expect(nav(page).getByRole('link', { name: 'Keys', exact: true })).toBeHidden();
});
