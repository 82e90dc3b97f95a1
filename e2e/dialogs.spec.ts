import { expect, test, type Locator, type Page } from '@playwright/test';
import { connectDemo } from './support/console';

/*
 * Modal dialogs sit in the middle of the window over a dimmed page, in both themes and on a
 * phone. (Tailwind's preflight zeroes the margins that centre a <dialog>: they opened at the
 * top-left corner.)
 */

async function expectCentredModal(page: Page, dialog: Locator) {
  await expect(dialog).toBeVisible();
  const box = (await dialog.boundingBox())!;
  const viewport = page.viewportSize()!;
  const left = box.x;
  const right = viewport.width - (box.x + box.width);
  const top = box.y;
  const bottom = viewport.height - (box.y + box.height);
  expect(Math.abs(left - right), `left ${left} vs right ${right}`).toBeLessThanOrEqual(2);
  expect(Math.abs(top - bottom), `top ${top} vs bottom ${bottom}`).toBeLessThanOrEqual(2);
  expect(box.width).toBeLessThanOrEqual(viewport.width);
  // The page behind is dimmed, and the dialog is modal (the page is inert).
  const backdrop = await dialog.evaluate((el) => getComputedStyle(el, '::backdrop').backgroundColor);
  expect(backdrop).not.toMatch(/^rgba\(0, 0, 0, 0\)$|^transparent$/);
  expect(await dialog.evaluate((el) => el.matches(':modal'))).toBe(true);
}

for (const { name, viewport, colorScheme } of [
  { name: 'light, desktop', viewport: { width: 1440, height: 900 }, colorScheme: 'light' as const },
  { name: 'dark, desktop', viewport: { width: 1280, height: 800 }, colorScheme: 'dark' as const },
  { name: 'phone, 390 px', viewport: { width: 390, height: 844 }, colorScheme: 'light' as const },
]) {
  test.describe(name, () => {
    test.use({ viewport, colorScheme });

    test('the shortcuts dialog and the charged confirmation open centred and modal', async ({ page }) => {
      await connectDemo(page);
      await page.goto('/review/sub_sim_product?limit=5');
      await page.getByRole('button', { name: 'Pull', exact: true }).click();
      await expect(page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option')).toHaveCount(5);

      await page.keyboard.press('?');
      const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await expectCentredModal(page, shortcuts);
      await page.keyboard.press('Escape');
      await expect(shortcuts).toBeHidden();

      for (let i = 0; i < 3; i++) {
        await page.keyboard.press('x');
        await page.keyboard.press('j');
      }
      await page.keyboard.press('Shift+A');
      const confirm = page.getByRole('alertdialog', { name: 'Adopt 3 items?' });
      await expectCentredModal(page, confirm);
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(confirm).toBeHidden();
      await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();
    });
  });
}
