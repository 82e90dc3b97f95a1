import { expect, test, type Page } from '@playwright/test';
import { micros, serviceApi } from './support/api';
import { connectDemo } from './support/console';
import { demoCredentials } from './support/service';

/** What a new user hit in the review workspace (issue 10). */

const list = (page: Page) => page.getByRole('listbox', { name: 'Items on this page' });
const focusedItem = (page: Page) => page.getByRole('region', { name: 'Focused item' });
const focusedTitle = async (page: Page) => (await focusedItem(page).getByRole('heading').textContent())!;
const saved = (page: Page) => expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();

async function pull(page: Page, address: string) {
  await page.goto(address);
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(list(page).getByRole('option').first()).toBeVisible();
}

test('an invalid page size is explained next to the field, kept until corrected, and never pulled', async ({ page }) => {
  await connectDemo(page);
  const pulls: string[] = [];
  page.on('request', (r) => r.url().includes('/v1/data/pull') && pulls.push(r.url()));
  const size = page.getByRole('spinbutton', { name: 'Page size' });
  const message = page.getByText('Page size must be a whole number from 1 to 200.', { exact: true });

  // From the URL: said, not silently swapped for 50.
  await page.goto('/review/sub_sim_retail?limit=500&run=true');
  await expect(message).toBeVisible();
  await expect(size).toHaveValue('500');
  await expect(page.getByRole('button', { name: 'Pull', exact: true })).toBeDisabled();
  await page.keyboard.press('n');
  await expect(page.getByText('Not pulled: Page size must be a whole number from 1 to 200.')).toBeVisible();
  expect(pulls).toEqual([]);

  // Typed: each invalid value stays in the field with the message.
  for (const typed of ['201', '0', '2.5']) {
    await size.fill(typed);
    await size.press('Tab');
    await expect(size).toHaveValue(typed);
    await expect(message).toBeVisible();
  }
  await size.fill('7');
  await size.press('Enter');
  await expect(message).toBeHidden();
  await expect(page).toHaveURL(/limit=7/);
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(list(page).getByRole('option')).toHaveCount(7);
  expect(pulls.every((url) => url.includes('limit=7'))).toBe(true);
});

test('a charged decision from an earlier visit, sent with "Send and pay", counts as spent this visit', async ({ page, request }) => {
  await connectDemo(page);
  await page.goto('/review/sub_sim_support?limit=3');
  await page.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('30');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(list(page).getByRole('option').first()).toBeVisible();
  const [item] = await serviceApi(request).pending('sub_sim_support', 1);
  await page.keyboard.press('a');
  page.on('dialog', (dialog) => void dialog.accept());
  await page.reload();

  const notice = page.getByRole('alert', { name: 'Charged decisions waiting' });
  await notice.getByRole('button', { name: /Send and pay \$/ }).click();
  await saved(page);
  expect((await serviceApi(request).usage()).filter((r) => r.item_id === item!.id)).toHaveLength(1);
  // The visit's spend reads to the cent; its exact amount is the hover. It counts the decision once
  // its answer is in, which may paint a frame after the status says saved: awaited, not read once.
  const exact = page.getByText(/Spent this visit/).locator('strong [title]');
  await expect.poll(async () => micros(Number((await exact.getAttribute('title'))?.replace('$', '')))).toBe(micros(item!.unit_price_usd));
});

test('the review URL never shows limit=NaN: not after a limit in the address that is no number, nor after bad page sizes typed', async ({ page }) => {
  await connectDemo(page);
  const size = page.getByRole('spinbutton', { name: 'Page size' });
  const message = page.getByText('Page size must be a whole number from 1 to 200.', { exact: true });
  // A limit that is no number at all reads as the default, and the address says so at once.
  await page.goto('/review/sub_live_streets?limit=abc');
  await expect(page).toHaveURL(/limit=50/);
  await expect(size).toHaveValue('50');
  expect(page.url()).not.toContain('NaN');
  await page.getByRole('button', { name: 'Re-read', exact: true }).click();
  await expect(page).toHaveURL(/mode=reread/);
  expect(page.url()).not.toContain('NaN');
  for (const typed of ['', '2.5', '-1', '0']) {
    await size.fill(typed);
    await size.press('Tab');
    await expect(message).toBeVisible();
    expect(page.url()).not.toContain('NaN');
  }
  await page.getByRole('button', { name: 'New items', exact: true }).click();
  await expect(page).toHaveURL(/mode=new/);
  expect(page.url()).not.toContain('NaN');
  await size.fill('9');
  await size.press('Enter');
  await expect(page).toHaveURL(/limit=9/);
  await expect(message).toBeHidden();
});

test('a decision refused with 409 shows the state the service recorded', async ({ page, request }) => {
  await connectDemo(page);
  await pull(page, '/review/sub_sim_product?limit=3');
  const title = await focusedTitle(page);
  const id = title.replace('Item ', '');
  // Someone else adopts it first.
  const adopted = await request.post(`/v1/data/items/${id}/adopt`, { headers: { Authorization: `Bearer ${demoCredentials().api_key}` } });
  expect(adopted.ok()).toBe(true);
  await page.keyboard.press('d');
  await expect(page.getByRole('radio', { name: 'No code' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText(/Not saved: the service already holds/)).toBeVisible();
  await expect(list(page).getByRole('option', { name: new RegExp(`^${title}, adopted`) })).toBeVisible();
  await page.keyboard.press('k');
  await expect(focusedItem(page).getByText('adopted', { exact: true })).toBeVisible();
});

test('a decision made in another tab shows in this tab’s list without a reload', async ({ context }) => {
  const a = await context.newPage();
  await connectDemo(a, { remember: true });
  await pull(a, '/review/sub_sim_retail?limit=3');
  const b = await context.newPage();
  await pull(b, '/review/sub_sim_retail?limit=3');
  const title = await focusedTitle(a);
  expect(await focusedTitle(b)).toBe(title);
  await expect(list(b).getByRole('option', { name: new RegExp(`^${title}, new`) })).toBeVisible();

  await a.bringToFront();
  await a.keyboard.press('a');
  await expect(list(b).getByRole('option', { name: new RegExp(`^${title}, (waiting to send|adopted)`) })).toBeVisible();
  await saved(a);
  await expect(list(b).getByRole('option', { name: new RegExp(`^${title}, adopted`) })).toBeVisible();
  // B cannot decide it again.
  await b.bringToFront();
  await expect(focusedItem(b).getByRole('button', { name: 'Adopt' })).toBeDisabled();
});

test('at 1440×900 the focused item’s image is in view without scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await connectDemo(page);
  await pull(page, '/review/sub_live_streets?mode=reread&limit=20');
  const image = focusedItem(page)
    .getByRole('img', { name: /Delivered image/ })
    .first();
  await expect(image).toBeVisible();
  await expect.poll(async () => (await image.boundingBox())!.height).toBeGreaterThan(100);
  const box = (await image.boundingBox())!;
  expect(box.y + box.height, 'image bottom above the fold').toBeLessThanOrEqual(900);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});

test('rows tell items apart, and the detail header shows the whole ID', async ({ page, request }) => {
  await connectDemo(page);
  await pull(page, '/review/sub_sim_retail?limit=3');
  const [item] = await serviceApi(request).pending('sub_sim_retail', 1);
  const first = list(page).getByRole('option').first();
  await expect(first).toContainText('quality');
  await expect(first).toContainText(/\$\d/);
  await expect(focusedItem(page).getByRole('heading')).toHaveText(`Item ${item!.id}`);

  await pull(page, '/review/sub_live_support?mode=reread&limit=3');
  // Rows name the task (Intent labels or Location entities, the subscription's two), not its ID.
  await expect(list(page).getByRole('option').first()).toContainText(/(Intent labels|Location entities) · grade/);
  await expect(list(page).getByRole('option').first()).not.toContainText(/Task 100[45]/);
});

test('a decision is confirmed visibly with an Undo button that works like Z, wherever the focus is', async ({ page }) => {
  await connectDemo(page);
  await pull(page, '/review/sub_live_support?limit=4');
  await page.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('30');
  await list(page).focus();
  const title = await focusedTitle(page);
  await page.keyboard.press('a');
  await expect(page.getByText(`Adopted ${title}. Press Z to undo.`)).toBeVisible();
  // Focus moved on to the next item: Undo still undoes, as Z would.
  expect(await focusedTitle(page)).not.toBe(title);
  const undo = page.getByRole('button', { name: 'Undo', exact: true });
  await expect(undo).toBeEnabled();
  await undo.click();
  await expect(list(page).getByRole('option', { name: new RegExp(`^${title}, new`) })).toBeVisible();
  await expect(page.getByText(/^Undid adopt of submission/)).toBeVisible();
});

test('a disputed item shows its reason afterwards', async ({ page }) => {
  await connectDemo(page);
  await pull(page, '/review/sub_live_support?limit=3');
  await list(page).focus();
  await page.keyboard.press('d');
  await page.getByRole('textbox', { name: /Reason/ }).fill('labels do not match the text');
  await page.keyboard.press('Enter');
  await page.keyboard.press('k');
  await expect(focusedItem(page).getByText('Dispute reason: labels do not match the text')).toBeVisible();
  await saved(page);
  await expect(focusedItem(page).getByText('Dispute reason: labels do not match the text')).toBeVisible();
});

test('keys right after a dispute’s Enter: j moves on, as it would a moment later, and a second Enter disputes nothing', async ({ page, request }) => {
  await connectDemo(page);
  await pull(page, '/review/sub_live_support?limit=5');
  const ids = (await list(page).getByRole('option').allTextContents()).slice(0, 4).map((text) => /Submission (\d+)/i.exec(text)?.[1]);
  expect(ids.every((id) => id !== undefined)).toBe(true);
  await list(page).focus();
  expect(await focusedTitle(page)).toContain(ids[0]);
  const picker = page.getByRole('form', { name: 'Dispute reason', includeHidden: true });
  // Each pair sent back to back: the second key comes before the frame after the Enter, while the
  // closed reason picker still holds the focus.
  await page.keyboard.press('d');
  await page.keyboard.press('2');
  await Promise.all([page.keyboard.press('Enter'), page.keyboard.press('j')]);
  await expect(focusedItem(page).getByRole('heading')).toContainText(ids[2]!);
  await expect(picker).toHaveCount(0);
  await page.keyboard.press('d');
  await Promise.all([page.keyboard.press('Enter'), page.keyboard.press('Enter')]);
  await expect(focusedItem(page).getByRole('heading')).toContainText(ids[3]!);
  await expect(picker).toHaveCount(0);
  await saved(page);
  // The service's record: the first and third disputed; the second (passed by j) and the fourth
  // (shown when the second Enter came) undecided.
  const feedback = new Map((await serviceApi(request).reread('sub_live_support')).map((s) => [s.submission_id, s.consumer_feedback]));
  expect(ids.map((id) => feedback.get(id!))).toEqual(['dispute', null, 'dispute', null]);
});

test('select by mouse (box, Shift-click, Ctrl-click), dispute them with one reason, undo them with one Z', async ({ page, request }) => {
  await connectDemo(page);
  await pull(page, '/review/sub_live_streets?limit=5');
  await page.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('30');
  const options = list(page).getByRole('option');
  const names = await options.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')!.split(',')[0]!));
  await page.getByRole('checkbox', { name: `Select ${names[0]}` }).click();
  await options.nth(3).click({ modifiers: ['Shift'] });
  await expect(page.getByText('4 selected')).toBeVisible();
  await options.nth(2).click({ modifiers: ['ControlOrMeta'] });
  await expect(page.getByText('3 selected')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: `Select ${names[2]}` })).not.toBeChecked();

  await page.getByRole('button', { name: 'Dispute selected' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Dispute 3 items?' });
  await dialog.getByRole('textbox', { name: /Reason/ }).fill('wrong street');
  await dialog.getByRole('button', { name: 'Dispute them' }).click();
  await expect(options.filter({ hasText: 'waiting to send' })).toHaveCount(3);

  await page.keyboard.press('z');
  await expect(options.filter({ hasText: 'waiting to send' })).toHaveCount(0);
  await expect(page.getByText('Undid dispute of 3 items.')).toBeVisible();

  // Again, sent this time: the reason goes with each.
  const disputes: string[] = [];
  page.on('request', (r) => r.url().includes('/dispute') && disputes.push(r.postData() ?? ''));
  await page.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('0');
  for (const i of [0, 1]) await page.getByRole('checkbox', { name: `Select ${names[i]}` }).click();
  await page.getByRole('button', { name: 'Dispute selected' }).click();
  const again = page.getByRole('alertdialog', { name: 'Dispute 2 items?' });
  await again.getByRole('textbox', { name: /Reason/ }).fill('wrong street');
  await again.getByRole('textbox', { name: /Reason/ }).press('Enter');
  await saved(page);
  expect(disputes).toHaveLength(2);
  for (const body of disputes) expect(body).toContain('wrong street');
  const recorded = new Map((await serviceApi(request).reread('sub_live_streets')).map((s) => [s.submission_id, s.consumer_feedback]));
  for (const i of [0, 1]) expect(recorded.get(names[i]!.replace('Submission ', ''))).toBe('dispute');
});

test('the next re-read page loads and fails beside the current page, not instead of it', async ({ page }) => {
  await connectDemo(page);
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/v1/live/pull?*cursor=*', async (route) => {
    await held;
    await route.abort('connectionrefused');
  });
  await pull(page, '/review/sub_live_streets?mode=reread&limit=5');
  const title = await focusedTitle(page);
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByText('Pulling…')).toBeVisible();
  await expect(list(page).getByRole('option')).toHaveCount(5);
  await expect(focusedItem(page).getByRole('heading')).toHaveText(title);
  release();
  await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect(list(page).getByRole('option')).toHaveCount(5);
  await expect(focusedItem(page).getByRole('heading')).toHaveText(title);
});

test('at 390 px the focused item comes before a short list, with no horizontal scroll', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await connectDemo(page);
  await pull(page, '/review/sub_sim_retail?limit=50');
  const heading = focusedItem(page).getByRole('heading');
  // The list's scrolling frame (the listbox inside it is as tall as all its rows).
  const listBox = (await list(page).locator('xpath=../..').boundingBox())!;
  const headingBox = (await heading.boundingBox())!;
  expect(headingBox.y, 'the item before the list').toBeLessThan(listBox.y);
  expect(listBox.height).toBeLessThanOrEqual(844 / 2);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('an unknown subscription is named, with the way to the connection’s subscriptions and to Review', async ({ page }) => {
  await connectDemo(page);
  await page.goto('/review/sub_nowhere');
  await expect(page.getByText('This connection lists no subscription sub_nowhere.')).toBeVisible();
  await page.getByRole('link', { name: 'See the connection’s subscriptions' }).click();
  await expect(page).toHaveURL(/\/connection/);
  await page.goto('/review/sub_nowhere');
  await page.getByRole('link', { name: 'Back to Review' }).click();
  await expect(page.getByRole('heading', { name: 'Review', exact: true })).toBeVisible();
});
