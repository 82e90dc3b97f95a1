import { expect, type Locator, type Page } from '@playwright/test';

/** Presses Tab until the locator has focus (as a keyboard user would), then checks focus is visible. */
export async function tabTo(page: Page, target: Locator, maxPresses = 80) {
  for (let i = 0; i < maxPresses; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) {
      const outline = await target.evaluate((el) => {
        const style = getComputedStyle(el);
        return style.outlineStyle !== 'none' && style.outlineWidth !== '0px' ? style.outlineStyle : style.boxShadow;
      });
      expect(outline, 'focus must be visible').not.toMatch(/^(none|)$/);
      return;
    }
    await page.keyboard.press('Tab');
  }
  throw new Error(`could not reach ${target} with Tab`);
}
