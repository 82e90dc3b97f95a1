import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumLaunchOptions } from '../../scripts/chromium';
import type { Bench } from './run';

export const VIEWPORT = { width: 1400, height: 1000 };

/** tsx keeps function names with a helper (`__name`) that page.evaluate'd code does not have: pages get a stand-in. */
const TSX_NAMES = 'window.__name = (fn) => fn;';

/** A context of `browser` whose pages run code from the benchmark's page.evaluate. */
export async function newContext(browser: Browser, options?: BrowserContextOptions): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await context.addInitScript(TSX_NAMES);
  return context;
}

/**
 * The E2E tests' Chromium (scripts/chromium.ts; or `executablePath`), with the same flags, and a
 * context in it. Playwright's contexts keep IndexedDB in memory; `onDisk` opens a profile on disk
 * instead, as a person's browser (a persistent context: `context.browser()` is then null).
 */
export async function openContext(
  bench: Bench,
  { onDisk = false, executablePath, ...options }: BrowserContextOptions & { onDisk?: boolean; executablePath?: string } = {},
): Promise<BrowserContext> {
  if (!onDisk) {
    const browser = await chromium.launch(chromiumLaunchOptions(executablePath));
    bench.defer(() => browser.close());
    return newContext(browser, options);
  }
  const profile = mkdtempSync(join(tmpdir(), 'dds-bench-profile-'));
  bench.defer(() => rmSync(profile, { recursive: true, force: true }));
  const context = await chromium.launchPersistentContext(profile, { ...chromiumLaunchOptions(executablePath), ...options });
  bench.defer(() => context.close());
  await context.addInitScript(TSX_NAMES);
  return context;
}

/**
 * Connects through the UI, as a user does, with the local demo's connection, remembered so that
 * fresh contexts start connected; with `key`, that key and one more subscription (no endpoint lists
 * subscriptions) instead of the demo's key.
 */
export async function connect(page: Page, url: string, key?: { key: string; subscriptionId: string }) {
  await page.goto(`${url}/connection`);
  await page.getByRole('button', { name: 'Use the local demo' }).click();
  if (key) {
    const added = await page.getByRole('textbox', { name: /^Subscription \d+ ID$/ }).count();
    await page.getByRole('button', { name: 'Add subscription' }).click();
    await page.getByRole('textbox', { name: `Subscription ${added + 1} ID` }).fill(key.subscriptionId);
    await page.getByLabel('API key', { exact: true }).fill(key.key);
  }
  await page.getByRole('checkbox', { name: /Remember on this device/ }).check();
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  // Connecting lands on the review.
  await page.getByRole('heading', { name: 'Review', level: 1 }).waitFor();
}
