import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { connectDemo } from './support/console';

/** The review fits the window (issue 22): the whole item and its actions, beside the list, without scrolling. */

const list = (page: Page) => page.getByRole('listbox', { name: 'Items on this page' });
const focusedItem = (page: Page) => page.getByRole('region', { name: 'Focused item' });
const title = (page: Page) => focusedItem(page).getByRole('heading', { level: 2 });

/** Each kind of item in the demo: where it is delivered, and the part of it the reviewer judges. */
const KINDS = [
  {
    kind: 'image with annotations',
    address: '/review/sub_live_streets?mode=reread&tasks=1001&limit=20',
    part: (item: Locator) => item.getByRole('figure', { name: 'Image viewer' }),
  },
  {
    kind: 'text with spans',
    address: '/review/sub_live_support?mode=reread&tasks=1005&limit=20',
    part: (item: Locator) => item.getByRole('region', { name: /^Text with \d+ labelled span/ }),
  },
  { kind: 'dialogue', address: '/review/sub_sim_support?limit=20', part: (item: Locator) => item.getByRole('region', { name: 'Dialogue' }) },
  {
    kind: 'image classification',
    address: '/review/sub_live_streets?mode=reread&tasks=1003&limit=20',
    part: (item: Locator) => item.getByRole('region', { name: 'Labels' }),
  },
] as const;

/** Opens the subscription and pulls a page by clicking Pull, as a reviewer does. */
async function pull(page: Page, address: string) {
  await page.goto(address);
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(list(page).getByRole('option').first()).toBeVisible();
}

async function expectInViewport(page: Page, locator: Locator, what: string) {
  const viewport = page.viewportSize()!;
  const box = (await locator.boundingBox())!;
  expect(box, `${what} is laid out`).not.toBeNull();
  expect(box.y, `${what}: top`).toBeGreaterThanOrEqual(0);
  expect(box.x, `${what}: left`).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, `${what}: bottom within ${viewport.height}`).toBeLessThanOrEqual(viewport.height);
  expect(box.x + box.width, `${what}: right within ${viewport.width}`).toBeLessThanOrEqual(viewport.width);
}

/** The whole item is seen: the card, both actions and the judged part in the window, nothing of it scrolled away. */
async function expectWholeItem(page: Page, part: Locator, what: string) {
  const item = focusedItem(page);
  await expectInViewport(page, item, `${what}: the item card`);
  await expectInViewport(page, item.getByRole('button', { name: 'Adopt', exact: true }), `${what}: Adopt`);
  await expectInViewport(page, item.getByRole('button', { name: 'Dispute', exact: true }), `${what}: Dispute`);
  await expectInViewport(page, part, `${what}: the content judged`);
  // Nothing of the content is hidden below the card's fold, and the page itself does not scroll.
  const content = item.locator('[data-item-content]:not([hidden])');
  expect(await content.evaluate((el) => el.scrollHeight - el.clientHeight), `${what}: content hidden in the card`).toBeLessThanOrEqual(1);
  expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight), `${what}: page scroll`).toBeLessThanOrEqual(0);
  // The list is beside it.
  await expectInViewport(page, list(page).getByRole('option').first(), `${what}: the list's first row`);
}

test('at 1024×768 a title cut to one line is shown whole from the keyboard, and the undo hint is never cut', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await connectDemo(page);
  await pull(page, '/review/sub_sim_retail?limit=20');
  const cutWidth = () => title(page).evaluate((h) => h.scrollWidth - h.clientWidth);
  // "Item <uuid>" is wider than the title's column here: cut at its end, with a way to read it all.
  await expect.poll(cutWidth, { message: 'the title is cut' }).toBeGreaterThan(0);
  const whole = focusedItem(page).getByRole('button', { name: 'Show all of the title' });
  await whole.focus();
  await page.keyboard.press('Enter');
  await expect(focusedItem(page).getByRole('button', { name: 'Show less of the title' })).toHaveAttribute('aria-expanded', 'true');
  expect(await cutWidth(), 'the whole title is shown').toBeLessThanOrEqual(0);
  const less = focusedItem(page).getByRole('button', { name: 'Show less of the title' });
  await expect(less, 'the toggle keeps the focus').toBeFocused();
  await page.keyboard.press('Enter');
  await expect(whole).toHaveAttribute('aria-expanded', 'false');
  await expect.poll(cutWidth).toBeGreaterThan(0);
  // The toggle never left the page under the keyboard: focus is still on it, not dropped to the body.
  await expect(whole, 'the toggle keeps the focus').toBeFocused();

  // After a decision: what it did is cut (the item's name), its hint is whole, beside the Undo.
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.press('a');
  const status = focusedItem(page)
    .getByRole('status')
    .filter({ hasText: /^Adopted Item .*\. Press Z to undo\.$/ });
  const hint = status.getByText('Press Z to undo.');
  await expect(hint).toBeVisible();
  const [hintBox, statusBox] = [(await hint.boundingBox())!, (await status.boundingBox())!];
  expect(hintBox.x + hintBox.width, 'the hint ends inside its line').toBeLessThanOrEqual(statusBox.x + statusBox.width + 0.5);
  expect(await hint.evaluate((e) => e.scrollWidth - e.clientWidth), 'the hint is not cut').toBeLessThanOrEqual(0);
  // The whole sentence on hover, on the row (not the live region, whose name it would be).
  await expect(status.locator('..')).toHaveAttribute('title', /^Adopted Item .*\. Press Z to undo\.$/);
  await expect(status).not.toHaveAttribute('title');
});

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
]) {
  test(`at ${viewport.width}×${viewport.height} each kind of item is seen whole with its actions and the list, moving on with j`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await connectDemo(page);
    for (const { kind, address, part } of KINDS) {
      await pull(page, address);
      for (const step of [0, 1]) {
        if (step === 1) {
          const before = await title(page).textContent();
          await page.keyboard.press('j');
          await expect(title(page)).not.toHaveText(before!);
        }
        const judged = part(focusedItem(page)).filter({ visible: true }).first();
        await expect(judged).toBeVisible();
        await expectWholeItem(page, judged, `${kind}, item ${step + 1}`);
      }
      if (kind.startsWith('image')) {
        // The image is fitted to the room it has: shown at a useful size, not a thumbnail.
        const shown = focusedItem(page)
          .getByRole('img', { name: /^Delivered image/ })
          .filter({ visible: true })
          .first();
        await expect.poll(async () => (await shown.boundingBox())?.height ?? 0, { message: `${kind}: image height` }).toBeGreaterThan(180);
        await expectInViewport(page, shown, `${kind}: the image`);
      }
    }
  });
}

test('at 1024×768 the title keeps its column beside the actions and what the last decision did', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await connectDemo(page);
  await pull(page, '/review/sub_sim_retail?limit=20');
  await page.keyboard.press('a');
  await expect(focusedItem(page).getByText(/Press Z to undo/)).toBeVisible();
  // The actions' column took the row and left the title one character a line (12 px wide).
  const box = (await title(page).boundingBox())!;
  expect(box.width, 'the title column').toBeGreaterThanOrEqual(200);
  await expectInViewport(page, focusedItem(page).getByRole('button', { name: 'Dispute', exact: true }), 'Dispute');
});

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
  { width: 1024, height: 768 },
]) {
  test(`at ${viewport.width}×${viewport.height} a decision leaves the image its room: the viewer keeps its place and size`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await connectDemo(page);
    await pull(page, '/review/sub_sim_retail?limit=20');
    // The room the image is fitted to: the viewer's frame, whichever item is shown (their images differ).
    const viewer = () => focusedItem(page).getByRole('figure', { name: 'Image viewer' }).filter({ visible: true }).first();
    const room = async () => {
      const box = (await viewer().boundingBox())!;
      return [box.x, box.y, box.width, box.height].map(Math.round);
    };
    await expect(viewer()).toBeVisible();
    const first = await room();
    const said = (text: RegExp) => focusedItem(page).getByRole('status').filter({ hasText: text });
    const undo = focusedItem(page).getByRole('button', { name: 'Undo', exact: true });

    // An adopt: what it did and its Undo are shown beside the next item (the card's header grew by
    // a line or two here, and the image shrank: 421 → 390 px high at 1440×900).
    let shown = await title(page).textContent();
    await page.keyboard.press('a');
    await expect(title(page)).not.toHaveText(shown!);
    await expect(said(/^Adopted Item .*\. Press Z to undo\.$/)).toBeVisible();
    await expect(undo).toBeVisible();
    // What the visit has on its way is told too, in the controls above the card.
    await expect(page.getByText(/on its way/)).toBeVisible();
    expect(await room(), 'after an adopt, in its undo window').toEqual(first);
    await expect(undo).toBeHidden();
    expect(await room(), 'after its undo window').toEqual(first);

    // A dispute by keyboard: d opens the reasons over the content, Enter disputes without one.
    shown = await title(page).textContent();
    await page.keyboard.press('d');
    await expect(page.getByRole('form', { name: 'Dispute reason' })).toBeVisible();
    expect(await room(), 'with the reasons open').toEqual(first);
    await page.keyboard.press('Enter');
    await expect(title(page)).not.toHaveText(shown!);
    await expect(said(/^Disputed Item /)).toBeVisible();
    await expect(undo).toBeVisible();
    expect(await room(), 'after a dispute').toEqual(first);

    // A long title stays on one line there: whole on hover (and with "Show all") where it is cut.
    const heading = title(page);
    const line = await heading.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    expect((await heading.boundingBox())!.height, 'the title: one line').toBeLessThanOrEqual(line + 1);
    if (await heading.evaluate((h) => h.scrollWidth > h.clientWidth + 1)) {
      await expect(heading).toHaveAttribute('title', /^Item [0-9a-f-]{36}$/);
      await expect(focusedItem(page).getByRole('button', { name: 'Show all of the title' })).toBeVisible();
    } else await expect(heading).not.toHaveAttribute('title');
  });
}

test('the navigation keeps its place while the header’s statuses arrive', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  // From a page's first frame, where the Settings menu's button sits in each frame (a person may be aiming at it).
  await page.addInitScript(() => {
    const w = window as unknown as { __xs: number[] };
    w.__xs = [];
    const sample = () => {
      const button = [...document.querySelectorAll('nav[aria-label="Main"] button')].find((b) => b.textContent?.startsWith('Settings'));
      // Only the navigation of a connected console (its Review group): the one a page shows after Connect.
      if (button && document.querySelector('nav[aria-label="Main"] a[href="/review"]')) w.__xs.push(Math.round(button.getBoundingClientRect().x));
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
  await connectDemo(page, { remember: true });
  await page.reload();
  await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();
  await expect(page.getByRole('status', { name: 'Connection status: verified' })).toBeVisible();
  const xs = await page.evaluate(() => (window as unknown as { __xs: number[] }).__xs);
  expect(xs.length, 'frames sampled').toBeGreaterThan(0);
  // The decisions' status came in after the first paint and moved the navigation 27 px to the left.
  expect([...new Set(xs)], "the Settings button's left edge, frame by frame").toHaveLength(1);
});

test('the pull controls show their whole values', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await connectDemo(page);
  await page.goto('/review/sub_sim_product?limit=200');
  await page.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('30');
  for (const [name, value] of [
    ['Page size', '200'],
    ['Undo window (s)', '30'],
  ]) {
    const field = page.getByRole('spinbutton', { name });
    await expect(field).toHaveValue(value!);
    // Text wider than the field scrolls inside it: "200" read "20".
    const { text, room } = await field.evaluate((input) => ({ text: input.scrollWidth, room: input.clientWidth }));
    expect(text, `${name}: its value fits the field`).toBeLessThanOrEqual(room);
  }
});

test('the list collapses and expands, and stays collapsed after a reload', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await connectDemo(page);
  await pull(page, '/review/sub_sim_retail?limit=20');
  const width = (await focusedItem(page).boundingBox())!.width;

  await page.getByRole('button', { name: 'Hide list' }).click();
  await expect(list(page)).toBeHidden();
  await expect(page.getByRole('button', { name: 'Show list' })).toHaveAttribute('aria-expanded', 'false');
  expect((await focusedItem(page).boundingBox())!.width, 'the item takes the list’s room').toBeGreaterThan(width + 200);
  // Keys still move through the (hidden) list.
  const first = await title(page).textContent();
  await page.keyboard.press('j');
  await expect(title(page)).not.toHaveText(first!);

  await page.reload();
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(focusedItem(page)).toBeVisible();
  await expect(list(page)).toBeHidden();

  await page.getByRole('button', { name: 'Show list' }).click();
  await expect(list(page).getByRole('option').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Hide list' })).toHaveAttribute('aria-expanded', 'true');
  await page.reload();
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(list(page).getByRole('option').first()).toBeVisible();
});

test('focus mode (f) shows only the item card; f again brings the workspace back', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await connectDemo(page);
  await pull(page, '/review/sub_live_streets?mode=reread&tasks=1003&limit=20');
  const chrome = [
    list(page),
    page.getByRole('region', { name: 'Pull controls' }),
    page.getByRole('heading', { level: 1 }),
    page.getByRole('button', { name: 'Keyboard shortcuts' }),
    page.getByRole('button', { name: 'Adopt selected' }),
  ];
  await expect(page.getByRole('button', { name: 'Focus mode' })).toHaveAttribute('aria-keyshortcuts', 'F');

  await page.keyboard.press('f');
  for (const hidden of chrome) await expect(hidden).toBeHidden();
  await expect(focusedItem(page)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Exit focus mode' })).toBeVisible();
  const card = focusedItem(page);
  await expectInViewport(page, card, 'the card in focus mode');
  // Deciding and moving on still work from the keyboard.
  const first = await title(page).textContent();
  await page.keyboard.press('j');
  await expect(title(page)).not.toHaveText(first!);

  await page.keyboard.press('f');
  for (const shown of chrome) await expect(shown).toBeVisible();
  await expect(page.getByRole('button', { name: 'Exit focus mode' })).toBeHidden();

  // The button does the same as the key.
  await page.getByRole('button', { name: 'Focus mode' }).click();
  await expect(list(page)).toBeHidden();
  await page.getByRole('button', { name: 'Exit focus mode' }).click();
  await expect(list(page)).toBeVisible();
});

test('the help on demand explains the mode and the controls without moving the item', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await connectDemo(page);
  await pull(page, '/review/sub_sim_product?limit=5');
  const before = (await focusedItem(page).boundingBox())!;
  await page.getByRole('button', { name: 'About this page' }).click();
  const about = page.getByRole('note', { name: 'About this page' });
  await expect(about).toContainText('Pending simulated items');
  await expect(about).toContainText('Page size: 1–200 items');
  expect((await focusedItem(page).boundingBox())!.y).toBe(before.y);
  await page.keyboard.press('Escape');
  await expect(about).toBeHidden();
});

test('at 390 px the item still comes first, with no sideways scroll', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await connectDemo(page);
  for (const { address } of KINDS) {
    await pull(page, address);
    const heading = (await title(page).boundingBox())!;
    const listFrame = (await list(page).locator('xpath=../..').boundingBox())!;
    expect(heading.y, 'the item before the list').toBeLessThan(listFrame.y);
    expect(heading.y, 'the item starts in the first screen').toBeLessThan(844);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  }
});

test('at 390 px the next item is shown from its title after a decision made scrolled down', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await connectDemo(page);
  await pull(page, '/review/sub_sim_retail?limit=20');
  const first = await title(page).textContent();
  // The reason picker opens inside the card and takes the focus, scrolling the page down to it.
  await page.keyboard.press('d');
  await expect(page.getByRole('form', { name: 'Dispute reason' })).toBeVisible();
  await page.mouse.wheel(0, 600);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  await page.keyboard.press('2');
  await page.keyboard.press('Enter');
  await expect(title(page)).not.toHaveText(first!);
  await expect.poll(async () => (await title(page).boundingBox())!.y, { message: 'the next title is in view' }).toBeGreaterThanOrEqual(0);
  await expectInViewport(page, title(page), 'the next item’s title');
  // The same after an adopt made with the image in view, below the card's top.
  const second = await title(page).textContent();
  await page.mouse.wheel(0, 500);
  await expect.poll(async () => (await title(page).boundingBox())!.y).toBeLessThan(0);
  await page.keyboard.press('a');
  await expect(title(page)).not.toHaveText(second!);
  await expect.poll(async () => (await title(page).boundingBox())!.y, { message: 'the next title is in view' }).toBeGreaterThanOrEqual(0);
  await expectInViewport(page, title(page), 'the next item’s title');
  // Moving with j while reading the list below the card does not scroll the page back up.
  await list(page).scrollIntoViewIfNeeded();
  const scrolled = await page.evaluate(() => window.scrollY);
  const third = (await title(page).textContent())!;
  const active = await list(page).getAttribute('aria-activedescendant');
  await page.keyboard.press('j');
  await expect(title(page)).not.toHaveText(third);
  // The list has followed the move (its active row), and the page stayed where it was.
  await expect(list(page)).not.toHaveAttribute('aria-activedescendant', active!);
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
});

test('the shortcuts dialog opens at its top, listing focus mode', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await connectDemo(page);
  await pull(page, '/review/sub_sim_product?limit=5');
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  // Taller than the window: it scrolls within itself, and opens at its title.
  expect(await dialog.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  expect(await dialog.evaluate((el) => el.scrollTop)).toBe(0);
  await expectInViewport(page, dialog.getByRole('heading', { name: 'Keyboard shortcuts' }), 'the dialog’s title');
  await expect(dialog.getByText('focus mode: only the item card (again: the whole workspace)')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('the fitted review, its help and focus mode stay clean under axe', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await connectDemo(page);
  await pull(page, '/review/sub_sim_support?limit=5');
  const serious = async () =>
    (await new AxeBuilder({ page }).analyze()).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.id}: ${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 3)
            .join(' | ')}`,
      );
  await page.getByRole('button', { name: 'About this page' }).click();
  expect(await serious()).toEqual([]);
  await page.getByRole('button', { name: 'Hide list' }).click();
  await page.keyboard.press('f');
  await expect(page.getByRole('button', { name: 'Exit focus mode' })).toBeVisible();
  expect(await serious()).toEqual([]);
});
