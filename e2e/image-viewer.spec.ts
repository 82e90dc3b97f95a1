import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { connectDemo } from './support/console';
import { tabTo } from './support/keyboard';

/** The one transform of the layer that holds the image and its overlay, as numbers. */
async function transformOf(viewer: Locator): Promise<{ x: number; y: number; scale: number }> {
  const style = (await viewer.locator('[data-view-layer]').getAttribute('style')) ?? '';
  // translate3d when zoomed in (composited), translate when fitted (painted with the page).
  const match = /translate(?:3d)?\((-?[\d.]+)px, (-?[\d.]+)px(?:, 0px)?\) scale\(([\d.]+)\)/.exec(style);
  if (!match) throw new Error(`no transform in "${style}"`);
  return { x: Number(match[1]), y: Number(match[2]), scale: Number(match[3]) };
}

/** The shapes the browser draws (visibility: hidden on all of them or a label's group hides them). */
const drawn = (viewer: Locator) => viewer.getByRole('img', { name: / at \d+, \d+, \d+ × \d+$/ }).filter({ visible: true });

/**
 * Opens the demo's street scenes and moves, by keyboard, to the first item whose image carries
 * at least two annotations of two labels.
 */
async function openAnnotatedItem(page: Page) {
  await connectDemo(page);
  await page.goto('/review/sub_live_streets?mode=reread&limit=60');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option').first()).toBeVisible();
  const focused = page.getByRole('region', { name: 'Focused item' });
  const viewer = focused.getByRole('figure', { name: 'Image viewer' }).filter({ visible: true });
  const legend = viewer.getByRole('list', { name: 'Labels' }).getByRole('button');
  for (let i = 0; i < 60; i++) {
    if ((await viewer.count()) === 1 && (await legend.count()) >= 2) return { focused, viewer, legend };
    const title = await focused.getByRole('heading', { level: 2 }).textContent();
    await page.keyboard.press('j');
    await expect(focused.getByRole('heading', { level: 2 })).not.toHaveText(title!);
  }
  throw new Error('no demo item with two labels in the first 60');
}

test('zoom, pan, hide all and the legend change what is drawn; the keyboard alone does it all', async ({ page }) => {
  const { focused, viewer, legend } = await openAnnotatedItem(page);
  const total = await drawn(viewer).count();
  expect(total).toBeGreaterThanOrEqual(2);
  await expect(viewer.getByText(`${total} of ${total} annotations shown`)).toBeVisible();

  // Fitted: the whole image in view.
  const fitted = await transformOf(viewer);
  expect(fitted.scale).toBeGreaterThan(0);
  expect(fitted.scale).toBeLessThanOrEqual(1);

  // 100%, then three steps in of 1.25 (the 640-pixel scene is then wider than the viewport).
  await page.keyboard.press('1');
  await expect.poll(async () => (await transformOf(viewer)).scale).toBe(1);
  await page.keyboard.press('+');
  await expect.poll(async () => (await transformOf(viewer)).scale).toBe(1.25);
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  await expect.poll(async () => (await transformOf(viewer)).scale).toBeCloseTo(1.953, 3);
  await expect(viewer.getByRole('status', { name: 'Zoom' })).toHaveText('195%');

  // Shift+→ shows more of the right: the image moves left. Shift+↓ shows more below.
  const before = await transformOf(viewer);
  await page.keyboard.press('Shift+ArrowRight');
  await expect.poll(async () => (await transformOf(viewer)).x).toBeLessThan(before.x);
  await page.keyboard.press('Shift+ArrowDown');
  await expect.poll(async () => (await transformOf(viewer)).y).toBeLessThan(before.y);

  // A drag pans by what the pointer moved. (Retried whole: on a loaded machine the first press can
  // land before the layer settles from the key pans; each attempt measures from where it starts.)
  await expect(async () => {
    const panned = await transformOf(viewer);
    const box = (await viewer.locator('[data-view-layer]').locator('..').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2 + 30, { steps: 4 });
    await page.mouse.up();
    await expect.poll(async () => transformOf(viewer), { timeout: 2_000 }).toEqual({ x: panned.x + 40, y: panned.y + 30, scale: panned.scale });
  }).toPass({ timeout: 60_000 });

  // - steps out; 0 fits again.
  await page.keyboard.press('-');
  await expect.poll(async () => (await transformOf(viewer)).scale).toBe(1.5625);
  await page.keyboard.press('0');
  await expect.poll(async () => transformOf(viewer)).toEqual(fitted);

  // h hides every annotation, and shows them again.
  await page.keyboard.press('h');
  await expect(drawn(viewer)).toHaveCount(0);
  await expect(viewer.getByText(`0 of ${total} annotations shown`)).toBeVisible();
  await page.keyboard.press('h');
  await expect(drawn(viewer)).toHaveCount(total);

  // The legend: each label with its count; toggling one hides exactly its shapes.
  const first = legend.first();
  const [label, count] = ((await first.textContent()) ?? '').trim().split(/\s+(?=\d+$)/) as [string, string];
  await expect(drawn(viewer).filter({ has: page.locator(`xpath=self::*[starts-with(@aria-label, "${label}, ")]`) })).toHaveCount(Number(count));
  // By keyboard: Tab to the label's button, Space toggles it.
  await tabTo(page, first);
  await page.keyboard.press('Space');
  await expect(first).toHaveAttribute('aria-pressed', 'false');
  await expect(drawn(viewer)).toHaveCount(total - Number(count));
  for (const name of await drawn(viewer).evaluateAll((shapes) => shapes.map((s) => s.getAttribute('aria-label')!)))
    expect(name.startsWith(`${label}, `)).toBe(false);
  await page.keyboard.press('Space');
  await expect(drawn(viewer)).toHaveCount(total);

  // Each shape by keyboard: Tab to the overlay, → from shape to shape, each named, its details shown.
  await tabTo(page, viewer.getByRole('group', { name: /^Annotations/ }));
  await page.keyboard.press('ArrowRight');
  const shape = drawn(viewer).first();
  await expect(shape).toBeFocused();
  const name = (await shape.getAttribute('aria-label'))!;
  await expect(viewer.getByRole('tooltip')).toHaveText(new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  await page.keyboard.press('ArrowRight');
  await expect(drawn(viewer).nth(1)).toBeFocused();

  // Plain arrows still move between items.
  const title = await focused.getByRole('heading', { level: 2 }).textContent();
  await page.keyboard.press('ArrowDown');
  await expect(focused.getByRole('heading', { level: 2 })).not.toHaveText(title!);
});

test('the review page with the viewer stays clean under axe', async ({ page }) => {
  const { viewer } = await openAnnotatedItem(page);
  await page.keyboard.press('+');
  await viewer.getByRole('group', { name: /^Annotations/ }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(viewer.getByRole('tooltip')).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')}`,
    );
  expect(serious).toEqual([]);
});
