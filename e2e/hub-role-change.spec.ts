import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { signedInPage, startE2eHub, vendorItemStatuses, type E2eHub } from './support/hub';

/*
 * A role an admin changes reaches the member's open console without a reload (issue 25: a role
 * change takes effect on the member's next request): demoted while an adopt waits in its undo
 * window, the reviewer's page turns read-only and the hub refuses the adopt, which waits on their
 * device under words about the team hub (not a key); made a reviewer again, it is sent, and the
 * vendor records it once.
 */
test.describe.configure({ mode: 'serial' });

const SUB = 'sub_sim_retail';
let hub: E2eHub;
const contexts: BrowserContext[] = [];
test.beforeAll(async () => {
  hub = await startE2eHub('hub-role-change');
});
test.afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
  await hub?.stop();
});

async function setRole(admin: Page, email: string, role: 'viewer' | 'reviewer') {
  await admin.getByRole('combobox', { name: `Role of ${email}` }).selectOption(role);
  await admin
    .getByRole('alertdialog', { name: `Change the role of ${email}?` })
    .getByRole('button', { name: `Make ${role === 'viewer' ? 'Viewer' : 'Reviewer'}` })
    .click();
  await expect(admin.getByRole('combobox', { name: `Role of ${email}` })).toHaveValue(role);
}

test('a reviewer demoted mid-undo keeps the adopt on their device, told it is the hub’s refusal; made a reviewer again, it is sent once', async ({
  browser,
}) => {
  const email = hub.accounts.reviewer1.email;
  const admin = await signedInPage(browser, hub, hub.accounts.admin, contexts);
  const reviewer = await signedInPage(browser, hub, hub.accounts.reviewer1, contexts);
  await reviewer.goto(`/review/${SUB}`);
  const bar = reviewer.getByRole('status', { name: 'Your batch' });
  await expect(bar).toContainText(/Batch ·|Pull brings new items in/);
  if (await reviewer.getByText(/Pull brings new items in/).isVisible()) await reviewer.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(bar).toContainText('Batch ·');
  // An undo window long enough for the admin to demote the reviewer before the adopt leaves the page.
  await reviewer.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('15');
  const focused = await reviewer.getByRole('listbox', { name: 'Items on this page' }).getAttribute('aria-activedescendant');
  const itemId = focused!.replace(/^review-option-[a-z]+-/, '');
  // The undo window keeps the adopt from leaving before the demotion. On a loaded machine the admin's
  // change outlasted it (CI's run at load 14-19): the adopt was saved and nothing was refused. Until
  // the reviewer's page knows it is a viewer, an adopt that leaves is dropped as a network failure,
  // so the outbox tries it again later (it never reaches the hub before).
  let demoted = false;
  await reviewer.route('**/v1/data/items/*/adopt', (route) => (demoted ? route.fallback() : route.abort('internetdisconnected')));
  // Back to the item (the field kept the keys), then adopt it.
  await reviewer.locator(`[id="${focused}"]`).click();
  await reviewer.keyboard.press('a');
  await expect(reviewer.getByRole('status', { name: /^Decisions:/ })).not.toContainText('All decisions saved');

  await admin.goto('/team/members');
  await setRole(admin, email, 'viewer');
  // The reviewer's page learns it from the change stream: no reload, no key pressed.
  await expect(reviewer.getByText('You are a viewer on this team hub').first()).toBeVisible();
  await expect(reviewer.getByRole('button', { name: `Signed in as ${email} viewer` })).toBeVisible();
  demoted = true;

  // The adopt leaves its undo window and the hub refuses it: it waits, and the words are about the hub.
  const paused = reviewer.getByRole('alert').filter({ hasText: 'the team hub refused them' });
  await expect(paused).toBeVisible({ timeout: 40_000 });
  await expect(paused).not.toContainText('key');
  expect(vendorItemStatuses(hub, [itemId])).toEqual(['pending']);

  await setRole(admin, email, 'reviewer');
  await expect(paused).toBeHidden();
  await expect(reviewer.getByRole('button', { name: `Signed in as ${email} reviewer` })).toBeVisible();
  await expect(reviewer.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();
  await expect.poll(() => vendorItemStatuses(hub, [itemId])).toEqual(['adopted']);
});
