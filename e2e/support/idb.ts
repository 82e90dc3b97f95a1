import type { Page } from '@playwright/test';

/** Every row of one object store of the console's IndexedDB database, read directly in the page. */
export function storedRows<T = Record<string, unknown>>(page: Page, table: 'items' | 'pages' | 'counts' | 'decisions' | 'pulls' | 'lots'): Promise<T[]> {
  return page.evaluate(
    (name) =>
      new Promise<T[]>((resolve, reject) => {
        const open = indexedDB.open('dds-console');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          try {
            const request = open.result.transaction(name).objectStore(name).getAll();
            request.onsuccess = () => {
              open.result.close();
              resolve(request.result as T[]);
            };
            request.onerror = () => reject(request.error);
          } catch (error) {
            // An unknown table throws here: fail at once rather than at the test's timeout.
            open.result.close();
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        };
      }),
    table,
  );
}

/** The IDs the console's local store holds for a subscription. */
export async function storedIds(page: Page, subscriptionId: string): Promise<string[]> {
  const rows = await storedRows<{ subscriptionId: string; itemId: string }>(page, 'items');
  return rows.filter((i) => i.subscriptionId === subscriptionId).map((i) => i.itemId);
}
