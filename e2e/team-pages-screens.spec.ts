import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type BrowserContext } from '@playwright/test';
import { startE2eHub, signedInPage, type E2eHub, type HubAccount } from './support/hub';

/*
 * Screenshots of the team pages (team-pages.spec.ts tests what they do), on a hub of their own so
 * they run beside that file's tests in another worker instead of after them in the same one.
 */

let hub: E2eHub;
const contexts: BrowserContext[] = [];

test.beforeAll(async () => {
  hub = await startE2eHub('team-screens');
});
test.afterAll(async () => {
  for (const context of contexts) await context.close();
  await hub?.stop();
});

const signedIn = (browser: Browser, account: Pick<HubAccount, 'email' | 'password'>, viewport?: { width: number; height: number }) =>
  signedInPage(browser, hub, account, contexts, viewport);

const sizes = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
];

// One test per size: each signs in afresh anyway, and a failure names its size. As one test, fifteen
// pages with axe ran past four minutes on a loaded CI machine.
for (const size of sizes) {
  test(`screenshots of every team page at ${size.width}x${size.height}`, async ({ browser }) => {
    const admin = await signedIn(browser, hub.accounts.admin, size);
    for (const path of ['members', 'vendor-keys', 'tokens', 'audit', 'settings']) {
      await admin.goto(`/team/${path}`);
      await expect(admin.getByRole('heading', { level: 1 })).toBeVisible();
      // Nothing runs off the side at any width.
      expect(await admin.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await admin.screenshot({ path: `test-results/team-screens/${path}-${size.width}.png`, fullPage: true });
      if (size.width === 1280) expect((await new AxeBuilder({ page: admin }).analyze()).violations, path).toEqual([]);
    }
    await admin.goto('/team/members');
    await admin.getByRole('button', { name: `Remove ${hub.accounts.viewer.email}` }).click();
    const dialog = admin.getByRole('alertdialog');
    const box = (await dialog.boundingBox())!;
    // Centred.
    expect(Math.abs(box.x + box.width / 2 - size.width / 2)).toBeLessThanOrEqual(2);
    await admin.screenshot({ path: `test-results/team-screens/remove-dialog-${size.width}.png` });
    if (size.width === 1280) expect((await new AxeBuilder({ page: admin }).include('dialog').analyze()).violations).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });
}
