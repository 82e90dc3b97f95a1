import type { Page } from '@playwright/test';

/** The review's list of items on the page, as a person finds it: by role and name. */
export const options = (page: Page) => page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option');

/** One item's row in that list (its id ends with the item's ID). */
export const option = (page: Page, itemId: string) => page.locator(`[role="option"][id$="-${itemId}"]`);

/** The item IDs the list shows, in its order. */
export const itemIds = async (page: Page) =>
  (await options(page).evaluateAll((nodes) => nodes.map((n) => n.id))).map((id) => id.replace(/^review-option-[a-z]+-/, ''));

/** Hub mode: the line that names the reviewer's batch. */
export const batchBar = (page: Page) => page.getByRole('status', { name: 'Your batch' });
