import { expect, test, type Locator, type Page } from '@playwright/test';
import { serviceApi } from './support/api';
import { connectDemo, connectWith, navTo } from './support/console';
import { createKey, importFixture, pricedItemsFixture } from './support/service';

/**
 * Issue 22, points 2 and 3 as a person reads them: names where IDs were (the IDs one hover away),
 * a budget-held adopt called "held by budget" wherever it shows, and a bulk run whose counts add up.
 * The service's own lists (tasks, deliveries) are the witness of what the names and IDs are.
 */
const BUDGET_SUB = 'sub_e2e_names_budget';
const BULK_SUB = 'sub_e2e_names_bulk';
let budgetKey: string;
let bulkKey: string;

test.beforeAll(() => {
  importFixture('names-budget', pricedItemsFixture('names-budget', { subscription: BUDGET_SUB, label: 'Held lots', count: 4, priceUsd: 0.017 }));
  importFixture('names-bulk', pricedItemsFixture('names-bulk', { subscription: BULK_SUB, label: 'Bulk lots', count: 6, priceUsd: 0.001 }));
  budgetKey = createKey('Names budget', [BUDGET_SUB]).key;
  bulkKey = createKey('Names bulk', [BULK_SUB]).key;
});

const focused = (page: Page) => page.getByRole('region', { name: 'Focused item' });
const sortedByName = (values: string[]) => [...values].sort(new Intl.Collator('en', { numeric: true, sensitivity: 'base' }).compare);

test('review rows, the item view and the Items facets show task names, sorted; the task IDs are only in the hover', async ({ page, request }) => {
  const tasks = ((await (await request.get('/v1/frontiers/101/tasks')).json()) as { data: { task_id: string; name: string }[] }).data;
  expect(tasks.length).toBeGreaterThan(1);
  const nameOf = new Map(tasks.map((t) => [t.task_id, t.name]));

  await connectDemo(page);
  await page.goto('/review/sub_live_streets?mode=reread&limit=50');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  const list = page.getByRole('listbox', { name: 'Items on this page' });
  await expect(list.getByRole('option').first()).toBeVisible();

  // Each row in view: its second line names the task; the ID is its hover, never its text.
  const rows = list.getByRole('option');
  const shown = Math.min(await rows.count(), 8);
  for (let i = 0; i < shown; i++) {
    const summary = rows.nth(i).getByTitle(/^Task /);
    const id = (await summary.getAttribute('title'))!.replace(/^Task /, '');
    expect(nameOf.has(id), `task ${id} is one of the frontier's`).toBe(true);
    await expect(summary).toHaveText(new RegExp(`^${escape(nameOf.get(id)!)} · grade [A-E]`));
    await expect(rows.nth(i)).not.toContainText(id);
  }

  // The item view: the Task line reads the name (and its frontier), the ID is the hover.
  // The next item is laid out, transparent, beforehand (for speed): the one read is the focused item's content.
  const taskLine = focused(page)
    .locator('[data-item-content]')
    .getByTitle(/^Task /);
  const focusedTask = (await taskLine.getAttribute('title'))!.replace(/^Task /, '');
  await expect(taskLine).toContainText(nameOf.get(focusedTask)!);
  await expect(taskLine).not.toContainText(focusedTask);

  // The Items view: the task facet lists names alphabetically, grades run A→E.
  await navTo(page, 'Items');
  await page
    .getByRole('link', { name: /^Items of .*sub_live_streets|^Items of Street scenes/ })
    .first()
    .click();
  const taskFacet = page.getByRole('group', { name: 'Task' });
  await expect(taskFacet.getByRole('checkbox').first()).toBeVisible();
  const taskLabels = await facetLabels(taskFacet, 'Task');
  expect(taskLabels.length).toBeGreaterThan(1);
  for (const label of taskLabels) {
    expect([...nameOf.values()], `facet value ${label}`).toContain(label);
    expect(nameOf.has(label), `facet value ${label} is not an ID`).toBe(false);
  }
  expect(taskLabels).toEqual(sortedByName(taskLabels));
  const firstTask = [...nameOf].find(([, name]) => name === taskLabels[0])![0];
  await expect(taskFacet.getByTitle(new RegExp(`^Task ${firstTask}( |$)`))).toContainText(taskLabels[0]!);
  const grades = await facetLabels(page.getByRole('group', { name: 'Grade' }), 'Grade');
  expect(grades.length).toBeGreaterThan(1);
  expect(grades).toEqual([...grades].sort());
});

test('an adopt past a small daily limit says "held by budget" in the row, the item view (with the limit) and the header; deliveries read by date and name', async ({
  page,
  request,
}) => {
  await connectWith(page, 'Names budget', budgetKey, [{ id: BUDGET_SUB, kind: 'Simulated' }]);
  await navTo(page, 'Budgets');
  await page.getByRole('textbox', { name: `${BUDGET_SUB} daily limit (USD)` }).fill('0.03');
  await page.getByRole('button', { name: `Save ${BUDGET_SUB} limits` }).click();
  await expect(page.getByRole('status').filter({ hasText: `Saved ${BUDGET_SUB}’s limits.` })).toBeVisible();

  await navTo(page, 'Review');
  await page.getByRole('link', { name: `Review ${BUDGET_SUB}` }).click();
  await page.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('0');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  const list = page.getByRole('listbox', { name: 'Items on this page' });
  await expect(list.getByRole('option').first()).toBeVisible();
  await list.focus();
  // The first 1.7¢ adopt fits $0.03; the second would pass it.
  const ids: string[] = [];
  for (let i = 0; i < 2; i++) {
    ids.push((await focused(page).getByRole('heading').textContent())!.replace(/^Item /, ''));
    await page.keyboard.press('a');
    await expect(focused(page).getByRole('heading')).not.toHaveText(new RegExp(`${ids.at(-1)}$`));
  }
  await expect.poll(async () => (await serviceApi(request, budgetKey).usage()).filter((r) => r.subscription_id === BUDGET_SUB).length).toBe(1);

  await expect(page.getByRole('status', { name: /Decisions: .*1 held by budget/ })).toBeVisible();
  // The notice names the count, the amount and the limit; the items are behind a disclosure, short, whole on hover.
  const notice = page.getByRole('region', { name: 'Held by budget' });
  await expect(notice).toContainText(`1 charged adopt held by budget, $0.017 in all (${BUDGET_SUB} daily limit $0.03 (spent $0.017))`);
  await expect(notice.getByTitle(`Item ${ids[1]}`)).toBeHidden();
  await notice.getByText('Show the 1 held item').click();
  await expect(notice.getByTitle(`Item ${ids[1]}`)).toBeVisible();
  await expect(list.getByRole('option', { name: new RegExp(`^Item ${ids[1]}, held by budget`) })).toBeVisible();
  await expect(list.getByRole('option', { name: new RegExp(`^Item ${ids[0]}, adopted`) })).toBeVisible();
  await page.keyboard.press('k');
  await expect(focused(page).getByRole('heading')).toHaveText(new RegExp(`${ids[1]}$`));
  await expect(focused(page)).toContainText('held by budget');
  await expect(focused(page)).toContainText(`$0.017 not sent: ${BUDGET_SUB} daily limit $0.03 (spent $0.017)`);

  // Deliveries: date, subscription name, item count and state; the delivery's UUID only on hover.
  const deliveries = (
    (await (await request.get('/v1/data/deliveries', { headers: { Authorization: `Bearer ${budgetKey}` } })).json()) as {
      data: { delivery_id: string; subscription_id: string; item_count: number }[];
    }
  ).data.filter((d) => d.subscription_id === BUDGET_SUB);
  expect(deliveries.length).toBeGreaterThan(0);
  await navTo(page, 'Deliveries');
  const table = page.getByRole('table', { name: 'Deliveries' });
  for (const d of deliveries) {
    const link = table.getByTitle(`Delivery ${d.delivery_id}`);
    await expect(link).toHaveAccessibleName(/^Open delivery of \d{4}-\d\d-\d\d/);
    const row = table.getByRole('row').filter({ has: page.getByTitle(`Delivery ${d.delivery_id}`) });
    await expect(row.getByRole('cell').nth(1)).toHaveAttribute('title', `Subscription ${d.subscription_id}`);
    await expect(row.getByRole('cell').nth(2)).toHaveText(String(d.item_count));
    await expect(row.getByRole('cell').nth(3)).toContainText(/pending/);
    await expect(row).not.toContainText(d.delivery_id);
  }
});

test('a bulk run’s counts add up to what was recorded in the undo window and once confirmed, then fold into one line', async ({ page, request }) => {
  await connectWith(page, 'Names bulk', bulkKey, [{ id: BULK_SUB, kind: 'Simulated' }]);
  await navTo(page, 'Review');
  await page.getByRole('link', { name: `Review ${BULK_SUB}` }).click();
  await page.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('6');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByText('6 items kept on this device')).toBeVisible();
  await navTo(page, 'Items');
  await page.getByRole('link', { name: `Items of ${BULK_SUB}`, exact: true }).click();
  await page.getByRole('button', { name: 'Adopt all 6 matching' }).click();
  await page
    .getByRole('alertdialog', { name: 'Adopt 6 items?' })
    .getByRole('button', { name: /^Adopt 6/ })
    .click();

  const run = page.getByRole('region', { name: 'Bulk decisions sent' });
  const parts = run.getByLabel('6 recorded');
  // In the undo window: every one of the 6 is there, and the parts add up to them.
  await expect(run).toContainText('0 of 6 confirmed');
  const early = await readParts(parts);
  expect(early.get('recorded')).toBe(6);
  expect(early.get('in the undo window')).toBe(6);
  expect(sumOfParts(early)).toBe(6);
  // Once the service confirmed them: still one set of counts adding up to 6.
  await expect(run).toContainText('Bulk run done: 6 of 6 confirmed');
  await expect(parts).toHaveCount(0);
  await expect(run.getByTitle(/confirmed/)).toHaveAttribute('title', /^(\d+ [^·]+)( · \d+ [^·]+)*$/);
  const folded = new Map(
    (await run.getByTitle(/confirmed/).getAttribute('title'))!.split(' · ').map((part) => {
      const [, n, label] = /^(\d+) (.+)$/.exec(part)!;
      return [label!, Number(n)] as const;
    }),
  );
  expect(folded.get('confirmed')).toBe(6);
  expect([...folded.values()].reduce((a, b) => a + b, 0)).toBe(6);
  await expect.poll(async () => (await serviceApi(request, bulkKey).usage()).filter((r) => r.subscription_id === BULK_SUB).length).toBe(6);
});

async function facetLabels(group: Locator, prefix: string) {
  const names = await group.getByRole('checkbox').evaluateAll((boxes) => boxes.map((b) => b.getAttribute('aria-label') ?? ''));
  return names.map((n) => n.replace(new RegExp(`^${prefix} `), ''));
}

async function readParts(list: Locator) {
  const terms = await list.getByRole('term').allInnerTexts();
  const values = await list.getByRole('definition').allInnerTexts();
  return new Map(terms.map((t, i) => [t.trim(), Number(values[i]!.replace(/,/g, ''))]));
}

const sumOfParts = (parts: Map<string, number>) => [...parts].filter(([label]) => label !== 'recorded').reduce((sum, [, n]) => sum + n, 0);

function escape(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

test('Budgets reads each subscription by its name: the limits’ fields, their headings and what they hold; the ID is the heading’s hover', async ({ page }) => {
  await connectDemo(page);
  await navTo(page, 'Budgets');
  const retail = page.getByRole('region', { name: 'Limits of Retail shelf audits' });
  await expect(retail.getByRole('heading', { name: 'Subscription Retail shelf audits' })).toBeVisible();
  await expect(retail.getByTitle('Subscription sub_sim_retail')).toHaveText('Retail shelf audits');
  await retail.getByRole('textbox', { name: 'Retail shelf audits daily limit (USD)' }).fill('5');
  await retail.getByRole('button', { name: 'Save Retail shelf audits limits' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved Retail shelf audits’s limits.' })).toBeVisible();
  // No subscription ID is text a person reads on the page.
  expect(await page.getByRole('main').innerText()).not.toContain('sub_sim_');
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Retail shelf audits daily limit (USD)' })).toHaveValue('5');
});
