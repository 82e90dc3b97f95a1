import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { serviceApi } from './support/api';
import { connectWith } from './support/console';
import { createKey, importFixture, pricedItemsFixture } from './support/service';

/**
 * Budgets stop charges before they leave the console. A simulated subscription of its own
 * (items at 1.7¢) with a daily limit of $0.05 set through the page: 2 adopts (3.4¢) fit, the 3rd
 * (5.1¢) would pass the limit, so it and every later one are held. The service's receipts are the
 * witness. The limit is the subscription's: the organization's receipts of today include other
 * specs' charges.
 */
test.describe.configure({ mode: 'serial' });

const SUB = 'sub_e2e_budget';
let key: string;

test.beforeAll(() => {
  importFixture('budget', pricedItemsFixture('budget', { subscription: SUB, label: 'Budget lots', count: 10, priceUsd: 0.017 }));
  key = createKey('Budget', [SUB]).key;
});

const focused = (page: Page) => page.getByRole('region', { name: 'Focused item' });
const focusedId = async (page: Page) => (await focused(page).getByRole('heading').textContent())!.replace(/^Item /, '');

/** Adopts the focused item with `a`, `n` times (each moves on to the next); returns the ids decided. */
async function adopt(page: Page, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    ids.push(await focusedId(page));
    await page.keyboard.press('a');
    await expect(focused(page).getByRole('heading')).not.toHaveText(new RegExp(`${ids.at(-1)}$`));
  }
  return ids;
}

async function openReview(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Review' }).click();
  await page.getByRole('link', { name: `Review ${SUB}` }).click();
  await page.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('0');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option').first()).toBeVisible();
  await page.getByRole('listbox', { name: 'Items on this page' }).focus();
}

/** Every adopt request any tab of the context sends, by item id. */
function countAdopts(context: BrowserContext) {
  const counts = new Map<string, number>();
  context.on('request', (r) => {
    const id = r.method() === 'POST' ? /\/v1\/data\/items\/([^/]+)\/adopt$/.exec(r.url())?.[1] : undefined;
    if (id) counts.set(decodeURIComponent(id), (counts.get(decodeURIComponent(id)) ?? 0) + 1);
  });
  return counts;
}

test('a $0.05 daily limit holds the 3rd and 4th 1.7¢ adopt in this tab and in another, durably, and releasing them charges each exactly once', async ({
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const adopts = countAdopts(context);
  const charged = async () => (await serviceApi(request, key).usage()).filter((r) => r.subscription_id === SUB && r.kind === 'adopt');
  const a = await context.newPage();
  await connectWith(a, 'Budget', key, [{ id: SUB, kind: 'Simulated' }]);

  // The limit, typed as text: a bad amount is named and nothing is saved.
  await a.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Budgets' }).click();
  const field = a.getByRole('textbox', { name: `${SUB} daily limit (USD)` });
  await field.fill('0.05.1');
  await a.getByRole('button', { name: `Save ${SUB} limits` }).click();
  await expect(field).toHaveAccessibleDescription(/Enter an amount in USD/);
  await field.fill('0.05');
  await a.getByRole('button', { name: `Save ${SUB} limits` }).click();
  await expect(a.getByRole('status').filter({ hasText: `Saved ${SUB}’s limits.` })).toBeVisible();
  await expect(field).toHaveAccessibleDescription(/Spent today \(your time\): \$0\.00 of \$0\.05/);
  // The header meter shows today's spend against the organization's daily limit, once one is set.
  const meter = a.getByRole('link', { name: /^Budget: \$[\d.,]+( \(exactly \$[\d.,]+\))? of \$1,000\.00 daily limit spent today$/ });
  await expect(meter).toHaveCount(0);
  await a.getByRole('textbox', { name: 'Organization daily limit (USD)' }).fill('1000');
  await a.getByRole('button', { name: 'Save organization limits' }).click();
  await expect(meter).toBeVisible();

  await openReview(a);
  const ids = await adopt(a, 4);
  const held = a.getByRole('region', { name: 'Held by budget' });
  await expect(held).toContainText('2 charged adopts held by budget, $0.034 in all');
  await expect(held).toContainText(`$0.034 in all (${SUB} daily limit $0.05 (spent $0.034))`);
  // The items behind a disclosure, by short ID with the whole ID on hover.
  await held.getByText('Show the 2 held items').click();
  await expect(held.getByTitle(`Item ${ids[2]}`)).toBeVisible();
  // The review shows the held item as such, with its amount.
  await a.keyboard.press('k');
  await expect(focused(a).getByRole('heading')).toHaveText(new RegExp(`${ids[3]}$`));
  await expect(focused(a)).toContainText('held by budget');
  await expect(focused(a)).toContainText(`$0.017 not sent: ${SUB} daily limit $0.05 (spent $0.034)`);
  await expect(a.getByRole('status', { name: /Decisions: 0 unsent · 2 held by budget/ })).toBeVisible();
  await expect.poll(async () => (await charged()).map((r) => r.item_id).sort()).toEqual(ids.slice(0, 2).sort());
  const notice = (page: Page, percent: number) => page.getByRole('status').filter({ hasText: `Budget: ${percent}% of the ${SUB} daily limit reached` });
  await expect(notice(a, 50)).toContainText('$0.034 of $0.05 today (your time)');

  // Durable: a reload keeps them held and sends nothing.
  await a.reload();
  await expect(held).toContainText('2 charged adopts held by budget, $0.034 in all');
  await expect(a.getByRole('status', { name: /Decisions: 0 unsent · 2 held by budget/ })).toBeVisible();

  // A second tab of the same organization cannot spend past the limit either.
  const b = await context.newPage();
  await connectWith(b, 'Budget', key, [{ id: SUB, kind: 'Simulated' }]);
  await openReview(b);
  const undecided = b.getByRole('listbox', { name: 'Items on this page' }).getByRole('option');
  await expect(undecided.first()).toBeVisible();
  // Held and adopted items are decided here too: the tab moves on to one not decided anywhere.
  let fifth = await focusedId(b);
  while (ids.includes(fifth)) {
    await b.keyboard.press('j');
    await expect(focused(b).getByRole('heading')).not.toHaveText(new RegExp(`${fifth}$`));
    fifth = await focusedId(b);
  }
  await adopt(b, 1);
  await expect(b.getByRole('region', { name: 'Held by budget' })).toContainText(`1 charged adopt held by budget, $0.017 in all`);
  expect((await charged()).length).toBe(2);

  // Release in the tab that holds them: one confirmation naming the count and the total.
  await a.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Budgets' }).click();
  await a.getByRole('button', { name: 'Release 2 held decisions ($0.034)' }).click();
  const confirm = a.getByRole('alertdialog', { name: 'Release 2 held decisions?' });
  await expect(confirm).toContainText('will charge $0.034');
  await confirm.getByRole('button', { name: 'Send and pay $0.034' }).click();
  await expect.poll(async () => (await charged()).map((r) => r.item_id).sort()).toEqual(ids.sort());
  // All of A's are sent; the one B holds is not called saved.
  await expect(a.getByRole('status', { name: 'Decisions: 1 unsent in another tab' })).toBeVisible();

  await expect(notice(a, 100)).toContainText('$0.068 of $0.05 today (your time)');

  // Charged exactly once each, and no second charge after another reload; the other tab's stays held.
  await a.reload();
  await expect(a.getByRole('status', { name: 'Decisions: 1 unsent in another tab' })).toBeVisible();
  // A notice is given once per threshold per period: not again after the reload.
  await expect(meter).toBeVisible();
  await expect(a.getByRole('textbox', { name: `${SUB} daily limit (USD)` })).toHaveAccessibleDescription(
    /Spent today \(your time\): \$0\.07 \(exactly \$0\.068000\) of \$0\.05/,
  );
  // To the cent on screen, exact to the micro-dollar on hover, in the form and in the header's meter.
  await expect(a.getByTitle('$0.068000', { exact: true }).first()).toHaveText('$0.07');
  await expect(meter).toHaveAccessibleName('Budget: $0.07 (exactly $0.068000) of $1,000.00 daily limit spent today');
  await expect(meter.getByTitle('$0.068000', { exact: true })).toHaveText('$0.07');
  await expect(meter.getByTitle('$1,000.000000', { exact: true })).toHaveText('$1,000.00');
  await expect(notice(a, 100)).toHaveCount(0);
  await expect(b.getByRole('region', { name: 'Held by budget' })).toContainText('1 charged adopt held by budget');
  const receipts = await charged();
  expect(receipts.map((r) => r.item_id).sort()).toEqual([...ids].sort());
  for (const id of ids) expect(adopts.get(id), `adopt requests for ${id}`).toBe(1);
  expect(adopts.get(fifth)).toBeUndefined();

  // On a phone the meter stays in the header, compact: it shows today's spend only (nothing is laid
  // out past it; the limit stays in its name), and the page does not scroll sideways.
  await a.setViewportSize({ width: 390, height: 844 });
  await expect(meter).toBeVisible();
  await expect(meter).toHaveAccessibleName('Budget: $0.07 (exactly $0.068000) of $1,000.00 daily limit spent today');
  const [link, spend] = await Promise.all([meter.boundingBox(), meter.getByTitle('$0.068000', { exact: true }).boundingBox()]);
  expect(link!.x + link!.width - (spend!.x + spend!.width)).toBeLessThanOrEqual(8);
  expect(await a.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
