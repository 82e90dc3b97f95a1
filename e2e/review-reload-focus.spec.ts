import { expect, test, type Page } from '@playwright/test';
import { serviceApi } from './support/api';
import { connectWith } from './support/console';
import { createKey, importFixture, pricedItemsFixture } from './support/service';

/*
 * A reload that comes before the list's order is written. The store lists undecided items first by
 * a flag it writes after the paint; a tab closed or reloaded right after two keys can leave the
 * decided items listed first. The page must still start at the first item with no decision: on a
 * loaded CI machine it started on one already adopted, and every A after the reload went nowhere.
 * The service's records are the witness that each item is adopted once.
 */
const SUB = 'sub_e2e_reload_focus';
let key: string;

test.beforeAll(() => {
  importFixture('reload-focus', pricedItemsFixture('reload-focus', { subscription: SUB, label: 'Reload focus', count: 6, priceUsd: 0.01 }));
  key = createKey('Reload focus', [SUB]).key;
});

const focusedTitle = (page: Page) => page.getByRole('region', { name: 'Focused item' }).getByRole('heading');

/** What a reload before the flags' write leaves: these items listed as undecided again (their decisions are the outbox's). */
async function unwriteOrder(page: Page, itemIds: string[]) {
  await page.evaluate(async (ids) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('dds-console');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const tx = db.transaction('items', 'readwrite');
    const cursor = tx.objectStore('items').openCursor();
    cursor.onsuccess = () => {
      const at = cursor.result;
      if (!at) return;
      const row = at.value as { itemId: string; open: number };
      if (ids.includes(row.itemId)) at.update({ ...row, open: 1 });
      at.continue();
    };
    await new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  }, itemIds);
}

test('after a reload that came before the list was reordered, the review starts at the first item with no decision', async ({ page, request }) => {
  await connectWith(page, 'Reload focus', key, [{ id: SUB, kind: 'Simulated' }]);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Review' }).click();
  await page.getByRole('link', { name: `Review ${SUB}` }).click();
  // An undo window: the two adopts are likely still unsent when the page reloads (sent or not, they are decided).
  await page.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('10');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  const list = page.getByRole('listbox', { name: 'Items on this page' });
  await expect(list.getByRole('option')).toHaveCount(6);
  await list.focus();
  await expect(focusedTitle(page)).toHaveText('Item reload-focus-00');
  await page.keyboard.press('a');
  await expect(focusedTitle(page)).toHaveText('Item reload-focus-01');
  await page.keyboard.press('a');
  await expect(focusedTitle(page)).toHaveText('Item reload-focus-02');

  await unwriteOrder(page, ['reload-focus-00', 'reload-focus-01']);
  await page.reload();
  // The store may list the two adopted items first (the load's repair closes them soon after, and
  // may win the race to the list); either way the focus skips them.
  await expect(focusedTitle(page)).toHaveText('Item reload-focus-02');
  await list.focus();
  await page.keyboard.press('a');
  await expect(focusedTitle(page)).toHaveText('Item reload-focus-03');

  // Charged adopts from before the reload wait for the reviewer's word; once given, and once the
  // undo window ends, each of the three is adopted once, and nothing else.
  await page.getByRole('alert', { name: 'Charged decisions waiting' }).getByRole('button', { name: 'Send and pay $0.02' }).click();
  await expect
    .poll(async () =>
      (await serviceApi(request, key).usage())
        .filter((r) => r.subscription_id === SUB && r.kind === 'adopt')
        .map((r) => r.item_id)
        .sort(),
    )
    .toEqual(['reload-focus-00', 'reload-focus-01', 'reload-focus-02']);
  await expect(list.getByRole('option', { name: /reload-focus-03/ })).not.toContainText(/adopted|waiting/i);
});
