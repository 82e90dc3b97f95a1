import { expect, type Page } from '@playwright/test';

/** Records everything a page could leak through: request URLs, console messages, visited URLs. */
export function watchLeaks(page: Page) {
  const urls: string[] = [];
  const messages: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  page.on('framenavigated', (frame) => urls.push(frame.url()));
  page.on('console', (message) => messages.push(message.text()));
  page.on('pageerror', (error) => messages.push(error.message));
  return {
    urls,
    messages,
    expectAbsent(secret: string) {
      for (const url of urls) expect(url, 'a URL').not.toContain(secret);
      for (const message of messages) expect(message, 'a console message').not.toContain(secret);
    },
  };
}

/** Connects through the UI with the local demo's connection. */
export async function connectDemo(page: Page, options: { remember?: boolean } = {}) {
  await page.goto('/connection');
  await page.getByRole('button', { name: 'Use the local demo' }).click();
  if (options.remember) await page.getByRole('checkbox', { name: /Remember on this device/ }).check();
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Review', level: 1 })).toBeVisible();
}

/** Connects through the UI with a given key and subscriptions. */
export async function connectWith(page: Page, name: string, key: string, subscriptions: { id: string; kind: 'Live' | 'Simulated' }[]) {
  await page.goto('/connection');
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByLabel('API key', { exact: true }).fill(key);
  for (const [index, sub] of subscriptions.entries()) {
    if (index > 0) await page.getByRole('button', { name: 'Add subscription' }).click();
    await page.getByRole('textbox', { name: `Subscription ${index + 1} ID` }).fill(sub.id);
    await page.getByRole('combobox', { name: `Subscription ${index + 1} kind` }).selectOption({ label: sub.kind });
  }
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Review', level: 1 })).toBeVisible();
}

/**
 * Follows a main-navigation link as a person does: the settings pages sit behind "Settings" on a
 * wide window, and every page behind "Menu" on a phone.
 */
export async function navTo(page: Page, name: string) {
  const nav = page.getByRole('navigation', { name: 'Main' });
  const link = nav.getByRole('link', { name, exact: true });
  if (!(await link.isVisible())) {
    const menu = nav.getByRole('button', { name: 'Menu' });
    if (await menu.isVisible()) await menu.click();
    else await nav.getByRole('button', { name: /^Settings/ }).click();
  }
  await link.click();
}
