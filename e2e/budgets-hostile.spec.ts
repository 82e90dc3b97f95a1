import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { serviceApi } from './support/api';
import { connectWith } from './support/console';
import { createKey, importFixture, pricedItemsFixture } from './support/service';

/**
 * Budgets against what can go wrong around them: a budgets document damaged on this device, and a
 * service whose receipts cannot be read as money. Either way no charged adopt may leave unchecked,
 * and the Budgets page must still answer. A simulated subscription of its own (items at 1.7¢).
 */
test.describe.configure({ mode: 'serial' });

const SUB = 'sub_e2e_budget_hostile';
let key: string;

test.beforeAll(() => {
  importFixture('budget-hostile', pricedItemsFixture('budget-hostile', { subscription: SUB, label: 'Hostile budget', count: 16, priceUsd: 0.017 }));
  key = createKey('Hostile budget', [SUB]).key;
});

/** Every adopt request any tab of the context sends. */
function countAdopts(context: BrowserContext) {
  const sent: string[] = [];
  context.on('request', (r) => {
    const id = r.method() === 'POST' ? /\/v1\/data\/items\/([^/]+)\/adopt$/.exec(r.url())?.[1] : undefined;
    if (id) sent.push(decodeURIComponent(id));
  });
  return sent;
}

/** The outbox sends this many decisions at once (outbox/instance.ts). */
const WIRE = 6;

const budgetsLink = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Budgets' });
const dailyField = (page: Page) => page.getByRole('textbox', { name: `${SUB} daily limit (USD)` });

async function saveDaily(page: Page, amount: string) {
  await dailyField(page).fill(amount);
  await page.getByRole('button', { name: `Save ${SUB} limits` }).click();
  await expect(page.getByRole('status').filter({ hasText: `Saved ${SUB}’s limits.` })).toBeVisible();
}

/** Opens the review on SUB with no undo window and adopts the focused (first undecided) item with `a`. */
async function adoptOne(page: Page): Promise<string> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Review' }).click();
  await page.getByRole('link', { name: `Review ${SUB}` }).click();
  await page.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('0');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  const list = page.getByRole('listbox', { name: 'Items on this page' });
  await expect(list.getByRole('option').first()).toBeVisible();
  await list.focus();
  const heading = page.getByRole('region', { name: 'Focused item' }).getByRole('heading');
  const id = (await heading.textContent())!.replace(/^Item /, '');
  await page.keyboard.press('a');
  await expect(heading).not.toHaveText(new RegExp(`${id}$`));
  return id;
}

test('a budgets document damaged on this device is never read as "no limit": the page says so, nothing charged leaves until the limits are saved again', async ({
  context,
}) => {
  const adopts = countAdopts(context);
  const page = await context.newPage();
  await connectWith(page, 'Hostile budget', key, [{ id: SUB, kind: 'Simulated' }]);
  await budgetsLink(page).click();
  await saveDaily(page, '1');

  // Damaged on disk (another version, a hand edit, a bad write): the limit is no longer a number.
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('dds-console');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const store = open.result.transaction('settings', 'readwrite').objectStore('settings');
          const all = store.getAll();
          all.onsuccess = () => {
            for (const row of all.result as { name: string; value: { subscriptions: Record<string, { daily?: unknown }> } }[]) {
              if (row.name !== 'budgets') continue;
              for (const limits of Object.values(row.value.subscriptions)) limits.daily = 'one dollar';
              store.put(row);
            }
            store.transaction.oncomplete = () => {
              open.result.close();
              resolve();
            };
          };
        };
      }),
  );
  await page.reload();
  await expect(page.getByRole('alert')).toContainText('The budgets kept on this device cannot be read (damaged)');

  const adopted = await adoptOne(page);
  await budgetsLink(page).click();
  await expect(page.getByRole('alert')).toContainText('No charged adopt is sent until you save the limits again');
  await expect(page.getByRole('status', { name: /Decisions: 1 unsent/ })).toBeVisible();
  expect(adopts).toEqual([]);

  // Saved again: the document is replaced whole, the held-back adopt fits $1 and goes, once.
  await saveDaily(page, '1');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();
  expect(adopts).toEqual([adopted]);
});

/** Writes (or, with null, deletes) the stored budgets document of every scope where limits were set (its marker row), in the page's IndexedDB. */
function storeBudgets(page: Page, value: unknown) {
  return page.evaluate(
    (next) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('dds-console');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const store = open.result.transaction('settings', 'readwrite').objectStore('settings');
          const all = store.getAll();
          all.onsuccess = () => {
            for (const row of all.result as { scope: string; name: string }[]) {
              if (row.name !== 'budgets-set') continue;
              if (next === null) store.delete([row.scope, 'budgets']);
              else store.put({ scope: row.scope, name: 'budgets', value: next, updatedAt: Date.now() });
            }
            store.transaction.oncomplete = () => {
              open.result.close();
              resolve();
            };
          };
        };
      }),
    value,
  );
}

test('an unknown key in the budgets, or the budgets row deleted once limits were set, is damage the page names: nothing charged leaves', async ({
  context,
}) => {
  const adopts = countAdopts(context);
  const page = await context.newPage();
  await connectWith(page, 'Hostile budget', key, [{ id: SUB, kind: 'Simulated' }]);
  await budgetsLink(page).click();
  await saveDaily(page, '1');

  // The row deleted: limits were set on this device, so a missing record is damage, not "no limit".
  await storeBudgets(page, null);
  await page.reload();
  await expect(page.getByRole('alert')).toContainText('cannot be read (damaged): the record of the limits is missing, though limits were set on this device');

  // "Daily" is not a key of the budgets: read loosely, it was "no limit" and let every adopt through.
  await storeBudgets(page, { organization: { Daily: 50_000 }, subscriptions: {} });
  await page.reload();
  await expect(page.getByRole('alert')).toContainText('cannot be read (damaged): organization: Unrecognized key: "Daily"');
  await adoptOne(page);
  await budgetsLink(page).click();
  await expect(page.getByRole('alert')).toContainText('Unrecognized key: "Daily"');
  await expect(page.getByRole('status', { name: /Decisions: 1 unsent/ })).toBeVisible();
  expect(adopts).toEqual([]);

  // Saved again: the held-back adopt fits and goes, once.
  await saveDaily(page, '1');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();
  expect(adopts).toHaveLength(1);
});

test('a receipt the service got wrong (past the exact range) leaves the Budgets page working and holds the next charged adopt', async ({ context }) => {
  const adopts = countAdopts(context);
  const page = await context.newPage();
  await page.route(/\/v1\/live\/usage\?/, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { data: unknown[]; count: number };
    const evil = {
      receipt_id: 'r-evil',
      subscription_id: SUB,
      kind: 'adopt',
      item_id: 'elsewhere',
      quantity: 1,
      amount_usd: 1e12,
      created_at: new Date().toISOString(),
    };
    await route.fulfill({ response, json: { ...body, data: [evil, ...body.data], count: body.count + 1 } });
  });
  await connectWith(page, 'Hostile budget', key, [{ id: SUB, kind: 'Simulated' }]);
  await budgetsLink(page).click();
  await expect(page.getByRole('heading', { name: 'Budgets', level: 1 })).toBeVisible();
  await saveDaily(page, '1');
  await expect(dailyField(page)).toHaveAccessibleDescription(/Spent today \(your time\): over \$9,007,199,254 of \$1\.00/);

  const adopted = await adoptOne(page);
  await budgetsLink(page).click();
  const held = page.getByRole('region', { name: 'Decisions held by budget' });
  // The item by short ID, its whole ID on hover; the subscription by name (this connection gave it none: its ID).
  await expect(held.getByTitle(`Item ${adopted}`)).toBeVisible();
  await expect(held).toContainText(`(${SUB})$0.017`);
  await expect(held).toContainText(`held by budget: ${SUB} daily limit $1.00`);
  expect(adopts).toEqual([]);
});

test('a limit lowered during a bulk run holds the rest of the run: only the adopts already on the wire are charged', async ({ context, request }) => {
  const chargedNow = async () => (await serviceApi(request, key).usage()).filter((r) => r.subscription_id === SUB && r.kind === 'adopt');
  // The earlier tests' charges.
  const before = new Set((await chargedNow()).map((r) => r.receipt_id));
  const page = await context.newPage();
  // The service answers no adopt until the limit is lowered: the run's first six (the outbox's concurrency) are on the wire, the rest wait their turn.
  let answer!: () => void;
  const lowered = new Promise<void>((resolve) => (answer = resolve));
  const adopts: string[] = [];
  await page.route(/\/v1\/data\/items\/[^/]+\/adopt$/, async (route) => {
    adopts.push(decodeURIComponent(/items\/([^/]+)\/adopt$/.exec(route.request().url())![1]!));
    await lowered;
    await route.continue();
  });
  await connectWith(page, 'Hostile budget', key, [{ id: SUB, kind: 'Simulated' }]);
  await budgetsLink(page).click();
  await saveDaily(page, '10');
  await page.goto(`/review/${SUB}?limit=50`);
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByText(/items kept on this device/)).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Items' }).click();
  await page.getByRole('link', { name: `Items of ${SUB}`, exact: true }).click();
  const adoptAll = page.getByRole('button', { name: /^Adopt all \d+ matching$/ });
  const n = Number(/\d+/.exec((await adoptAll.textContent())!)![0]);
  expect(n).toBeGreaterThan(WIRE + 2);
  await adoptAll.click();
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: /^Adopt \d+ and pay/ })
    .click();
  await expect.poll(() => adopts.length).toBe(WIRE);

  // Lowered to nothing while the run goes on: what is not on the wire yet is held, not sent.
  await budgetsLink(page).click();
  await saveDaily(page, '0');
  const held = page.getByRole('region', { name: 'Decisions held by budget' });
  await expect(held.getByRole('button', { name: `Release ${n - WIRE} held decisions ($${((n - WIRE) * 0.017).toFixed(3).replace(/0+$/, '')})` })).toBeVisible();
  answer();
  await expect(page.getByRole('status', { name: `Decisions: 0 unsent · ${n - WIRE} held by budget` })).toBeVisible();
  const charged = (await chargedNow()).filter((r) => !before.has(r.receipt_id));
  expect(charged.map((r) => r.item_id).sort()).toEqual([...adopts].sort());
  expect(adopts).toHaveLength(WIRE);
});
