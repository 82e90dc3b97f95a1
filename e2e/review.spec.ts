import { expect, test } from '@playwright/test';
import { serviceApi, micros } from './support/api';
import { connectDemo } from './support/console';
import { formatExact, formatTotal } from '../src/lib/money';

test('review 50 live items by keyboard alone; the service records every decision', async ({ page, request }) => {
  await connectDemo(page);
  await page.goto('/review/sub_live_support?limit=50');
  // Keys work once the workspace is on screen.
  await expect(page.getByRole('button', { name: 'Pull', exact: true })).toBeVisible();
  await page.keyboard.press('n');
  const list = page.getByRole('listbox', { name: 'Items on this page' });
  await expect(list.getByRole('option').first()).toBeVisible();

  const decided: { id: string; decision: 'adopt' | 'dispute' }[] = [];
  for (let i = 0; i < 50; i++) {
    const title = await page.getByRole('region', { name: 'Focused item' }).getByRole('heading').textContent();
    const id = title!.replace('Submission ', '');
    if (i % 3 === 2) {
      await page.keyboard.press('d');
      // The reason opens on its codes (keys 1–9); Tab reaches its text.
      await expect(page.getByRole('radio', { name: 'No code' })).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(page.getByRole('textbox', { name: /Reason/ })).toBeFocused();
      await page.keyboard.type(`reason ${i}`);
      await page.keyboard.press('Enter');
      decided.push({ id, decision: 'dispute' });
    } else {
      await page.keyboard.press('a');
      decided.push({ id, decision: 'adopt' });
    }
  }
  expect(new Set(decided.map((d) => d.id)).size).toBe(50);
  await expect(page.getByText('50 of 50 decided')).toBeVisible();
  await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();

  const recorded = new Map((await serviceApi(request).reread('sub_live_support')).map((s) => [s.submission_id, s.consumer_feedback]));
  for (const { id, decision } of decided) expect(recorded.get(id), id).toBe(decision);
});

test('a 200-item page keeps only the rows in view in the DOM; End brings the last in and the first out', async ({ page }) => {
  await connectDemo(page);
  await page.goto('/review/sub_live_streets?mode=reread&limit=200');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  // Other tests of the run decide items of this subscription too: what counts is the 200.
  await expect(page.getByText(/^\d+ of 200 decided/)).toBeVisible();
  const list = page.getByRole('listbox', { name: 'Items on this page' });
  const options = list.getByRole('option');
  const focusedTitle = page.getByRole('region', { name: 'Focused item' }).getByRole('heading');
  const row = (title: string) => list.getByRole('option', { name: new RegExp(`^${title}, `) });
  const first = (await focusedTitle.textContent())!;
  await expect(row(first)).toHaveCount(1);
  // The page is 200 rows of 56 px: a list that rendered them all would hold 200 options. The
  // virtual list holds the rows in view plus its overscan (about 30, see docs/architecture.md).
  expect(await options.count()).toBeGreaterThan(5);
  expect(await options.count()).toBeLessThanOrEqual(40);

  await page.keyboard.press('End');
  await expect(focusedTitle).not.toHaveText(first);
  const last = (await focusedTitle.textContent())!;
  await expect(row(last)).toHaveCount(1);
  await expect(row(first)).toHaveCount(0);
  expect(await options.count()).toBeLessThanOrEqual(40);
});

test('moving on with j through a page: the focused row stays in the list’s view, and each image shows whole, fitted to its viewer', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await connectDemo(page);
  // The retail shelves: images whose size the payload does not give (the viewer reads it from the image).
  await page.goto('/review/sub_sim_retail?limit=60');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  const list = page.getByRole('listbox', { name: 'Items on this page' });
  await expect(list.getByRole('option').first()).toBeVisible();
  const focused = page.getByRole('region', { name: 'Focused item' });
  const heading = focused.getByRole('heading', { level: 2 });
  const viewer = focused.getByRole('figure', { name: 'Image viewer' }).filter({ visible: true });
  for (let i = 0; i < 30; i++) {
    const title = (await heading.textContent())!;
    // Keys as fast as they come, checked every few (the list brings its row along by a stretch).
    await page.keyboard.press('j');
    await expect(heading).not.toHaveText(title);
    if (i % 5 !== 4) continue;
    const shown = (await heading.textContent())!;
    await expect(list.getByRole('option', { name: new RegExp(`^${shown}, `) })).toBeInViewport({ ratio: 1 });
    // The whole image inside its viewer: fitted to the room it has, not cropped or at its natural size.
    const image = viewer.getByRole('img', { name: /^Delivered image/ });
    await expect(image).toHaveAttribute('width', /^\d+$/);
    await expect
      .poll(
        async () => {
          const [box, frame] = [await image.boundingBox(), await viewer.locator('[data-view-layer]').locator('..').boundingBox()];
          return (
            !!box &&
            !!frame &&
            box.width > 0 &&
            box.x >= frame.x - 0.5 &&
            box.y >= frame.y - 0.5 &&
            box.x + box.width <= frame.x + frame.width + 0.5 &&
            box.y + box.height <= frame.y + frame.height + 0.5
          );
        },
        { message: `the image of ${shown} lies whole in its viewer` },
      )
      .toBe(true);
  }
});

test('after a page is decided, N pulls the next and the keys go on with its first new item', async ({ page, request }) => {
  await connectDemo(page);
  await page.goto('/review/sub_live_streets?limit=3');
  await expect(page.getByRole('button', { name: 'Pull', exact: true })).toBeVisible();
  const focusedTitle = page.getByRole('region', { name: 'Focused item' }).getByRole('heading');
  const decided: string[] = [];
  for (let pull = 1; pull <= 2; pull++) {
    await page.keyboard.press('n');
    await expect(page.getByText(`${pull * 3} items kept on this device`)).toBeVisible();
    for (let i = 0; i < 3; i++) {
      decided.push((await focusedTitle.textContent())!.replace('Submission ', ''));
      await page.keyboard.press('a');
    }
  }
  expect(new Set(decided).size).toBe(6);
  await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();
  const recorded = new Map((await serviceApi(request).reread('sub_live_streets')).map((s) => [s.submission_id, s.consumer_feedback]));
  for (const id of decided) expect(recorded.get(id), id).toBe('adopt');
});

test('re-read pages with the cursor in the URL: the next page is fetched before the end, a reload reopens the page, filters narrow it', async ({ page }) => {
  await connectDemo(page);
  const pulls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/v1/live/pull')) pulls.push(r.url());
  });
  await page.goto('/review/sub_live_streets?mode=reread&limit=10');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  const list = page.getByRole('listbox', { name: 'Items on this page' });
  await expect(list.getByRole('option')).toHaveCount(10);
  const focusedTitle = page.getByRole('region', { name: 'Focused item' }).getByRole('heading');
  const firstOfPage1 = await focusedTitle.textContent();
  expect(pulls).toHaveLength(1);
  expect(pulls[0]).toContain('from=beginning');

  // Six items in (60 %), the next page is already on its way.
  for (let i = 0; i < 6; i++) await page.keyboard.press('j');
  await expect.poll(() => pulls.length).toBe(2);
  expect(pulls[1]).toContain('cursor=');
  await page.keyboard.press('n');
  await expect(page).toHaveURL(/cursor=/);
  // Page 2 is on screen once its first row is another item; focus is then on that row.
  await expect(list.getByRole('option').first()).not.toHaveAccessibleName(new RegExp(`^${firstOfPage1}, `));
  const firstOfPage2 = (await list.getByRole('option').first().getAttribute('aria-label'))!.split(',')[0]!;
  await expect(focusedTitle).toHaveText(firstOfPage2);
  expect(pulls, 'the next page came from the prefetch').toHaveLength(2);

  // The page is in the URL: a reload opens it again.
  await page.reload();
  await expect(focusedTitle).toHaveText(firstOfPage2!);
  await page.getByRole('button', { name: 'First page' }).click();
  await expect(focusedTitle).toHaveText(firstOfPage1!);

  // Filters: a bad list is refused in words; a good one narrows every item to that task.
  const filters = page.getByRole('form', { name: 'Re-read filters' });
  await filters.getByRole('textbox', { name: 'Task IDs' }).fill('10 02');
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  await expect(filters.getByText('IDs are letters, digits, - and _, separated by commas')).toBeVisible();
  await filters.getByRole('textbox', { name: 'Task IDs' }).fill('1002');
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/tasks=1002/);
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(list.getByRole('option')).toHaveCount(10);
  const meta = page.getByRole('region', { name: 'Focused item' });
  for (let i = 0; i < 3; i++) {
    // The task's name (and its frontier's title) reads where its ID used to; the ID is on hover.
    await expect(meta.getByRole('definition').nth(3)).toHaveText('Road object outlines (Urban street scenes)');
    await expect(meta.getByRole('definition').nth(3)).toHaveAttribute('title', 'Task 1002');
    await page.keyboard.press('j');
  }
});

test('adopt a selection of simulated items after confirming the exact total; receipts match', async ({ page, request }) => {
  await connectDemo(page);
  await page.goto('/review/sub_sim_support?limit=20');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  const list = page.getByRole('listbox', { name: 'Items on this page' });
  await expect(list.getByRole('option').first()).toBeVisible();
  const before = await serviceApi(request).pending('sub_sim_support', 20);
  const chosen = before.slice(0, 4);
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('x');
    await page.keyboard.press('j');
  }
  await page.keyboard.press('Shift+A');
  const expectedMicros = chosen.reduce((sum, item) => sum + micros(item.unit_price_usd), 0);
  const dialog = page.getByRole('alertdialog', { name: 'Adopt 4 items?' });
  await expect(dialog).toBeVisible();
  const label = await dialog.getByRole('button', { name: /Adopt and pay/ }).textContent();
  const shown = Number(label!.replace(/[^0-9.]/g, ''));
  expect(micros(shown)).toBe(expectedMicros);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();

  const receipts = (await serviceApi(request).usage()).filter((r) => chosen.some((c) => c.id === r.item_id));
  expect(receipts).toHaveLength(4);
  expect(receipts.every((r) => r.kind === 'adopt')).toBe(true);
  expect(receipts.reduce((sum, r) => sum + micros(r.amount_usd), 0)).toBe(expectedMicros);
  // The visit's spend reads to the cent, the exact amount the dialog named on hover.
  await expect(page.getByText(/Spent this visit/).getByTitle(formatExact(expectedMicros), { exact: true })).toHaveText(formatTotal(expectedMicros));
});

test('the shortcuts dialog opens with ? and shortcuts do nothing while typing', async ({ page }) => {
  await connectDemo(page);
  await page.goto('/review/sub_sim_retail?limit=5');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option').first()).toBeVisible();
  const list = page.getByRole('listbox', { name: 'Items on this page' });
  const focusedTitle = page.getByRole('region', { name: 'Focused item' }).getByRole('heading');
  await page.keyboard.press('End');
  await expect(list.getByRole('option').last()).toHaveAccessibleName(new RegExp(`^${await focusedTitle.textContent()}, `));
  await page.keyboard.press('Home');
  await expect(list.getByRole('option').first()).toHaveAccessibleName(new RegExp(`^${await focusedTitle.textContent()}, `));
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeHidden();
  await page.getByRole('spinbutton', { name: 'Page size' }).focus();
  await page.keyboard.press('a');
  // Keys are handled in order: once the J pressed after it has moved the focus from the first item
  // to the second, an A taken as a shortcut would have adopted the first (and moved on to the
  // second, so J would have reached the third).
  await list.focus();
  await page.keyboard.press('j');
  const second = (await list.getByRole('option').nth(1).getAttribute('aria-label'))!.split(',')[0]!;
  await expect(focusedTitle).toHaveText(second);
  await expect(list.getByRole('option', { name: /, new(,|$)/ })).toHaveCount(5);
  await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();
});
