import { expect, test, type Page } from '@playwright/test';
import { serviceApi } from './support/api';
import { connectWith } from './support/console';
import { createKey, importFixture, pricedItemsFixture } from './support/service';

/*
 * A page reloaded in the middle of a bulk adopt: what was answered stays adopted and is never
 * offered for payment again; what never left asks once, for exactly its price; nothing is charged
 * twice. A simulated subscription of its own (10 items at 1.7¢): the service's receipts are the witness.
 */
const SUB = 'sub_e2e_reload_run';
const PRICE_MICROS = 17_000;
let key: string;

test.beforeAll(() => {
  importFixture('reload-run', pricedItemsFixture('reload-run', { subscription: SUB, label: 'Reloaded run', count: 10, priceUsd: 0.017 }));
  key = createKey('Reloaded run', [SUB]).key;
});

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });

test('a reload mid-run: answered adopts stay adopted and are never asked for again; the rest ask once, for exactly their price; each is charged once', async ({
  page,
  request,
}) => {
  const charged = async () => (await serviceApi(request, key).usage()).filter((r) => r.subscription_id === SUB && r.kind === 'adopt');
  const posts = new Map<string, number>();
  page.on('request', (r) => {
    const id = r.method() === 'POST' ? /\/v1\/data\/items\/([^/]+)\/adopt$/.exec(r.url())?.[1] : undefined;
    if (id) posts.set(id, (posts.get(id) ?? 0) + 1);
  });
  // The first three adopts are answered; those after them are held on the wire until the page goes.
  let answered = 0;
  let holding = true;
  await page.route('**/v1/data/items/*/adopt', async (route) => {
    if (!holding || answered < 3) {
      answered++;
      await route.continue();
    }
  });
  page.on('dialog', (dialog) => void dialog.accept());

  await connectWith(page, 'Reloaded run', key, [{ id: SUB, kind: 'Simulated' }]);
  await nav(page, 'Review').click();
  await page.getByRole('link', { name: `Review ${SUB}` }).click();
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByText('10 items kept on this device')).toBeVisible();
  await nav(page, 'Items').click();
  await page.getByRole('link', { name: `Items of ${SUB}`, exact: true }).click();
  await page.getByRole('button', { name: 'Adopt all 10 matching' }).click();
  await page
    .getByRole('alertdialog', { name: 'Adopt 10 items?' })
    .getByRole('button', { name: /^Adopt 10 and pay/ })
    .click();
  const run = page.getByRole('region', { name: 'Bulk decisions sent' });
  await expect(run).toContainText('3 of 10 confirmed');
  const first = new Set((await charged()).flatMap((r) => (r.item_id ? [r.item_id] : [])));
  expect(first.size).toBe(3);

  await page.reload();
  holding = false;
  // The answered three stay confirmed. Those the page knew had not left (or had failed) ask at
  // once; those on the wire when it went wait out their in-flight mark, then ask. Each ask names
  // exactly the price of what it sends, and nothing is paid twice.
  await expect(run).toContainText('3 of 10 confirmed');
  const notice = page.getByRole('alert', { name: 'Charged decisions waiting' });
  let paid = 3;
  while (paid < 10) {
    const button = notice.getByRole('button', { name: /^Send and pay \$/ });
    await expect(button).toBeVisible({ timeout: 60_000 });
    const asked = Math.round(Number((await button.textContent())!.replace(/^Send and pay \$/, '')) * 1e6);
    expect(asked % PRICE_MICROS).toBe(0);
    expect(asked / PRICE_MICROS).toBeGreaterThan(0);
    expect(asked / PRICE_MICROS).toBeLessThanOrEqual(10 - paid);
    await button.click();
    paid += asked / PRICE_MICROS;
    await expect.poll(async () => (await charged()).length).toBe(paid);
  }
  await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();
  const receipts = await charged();
  expect(new Set(receipts.map((r) => r.item_id)).size).toBe(10);
  // The three answered before the reload were never sent again.
  for (const id of first) expect(posts.get(id)).toBe(1);
});
