import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { chargedOnce, signedInPage, startE2eHub, type E2eHub, vendorItemStatuses } from './support/hub';
import { itemIds, option, options } from './support/review-list';

/*
 * Overlap 2 (issue 26, item 8, second bullet), in the console served by a hub (`--demo --static
 * dist`): an admin sets two reviewers per item; two reviewers in their own browsers decide the same
 * items by keys; where they agree the team's decision goes to the vendor at once, where they split
 * the item reaches the lead's queue, and the admin settles it there. The simulator's own records
 * are the judge: one decision per item, each adopt charged once.
 */
test.describe.configure({ mode: 'serial' });

const SUBSCRIPTION = 'sub_sim_retail';

let hub: E2eHub;
const contexts: BrowserContext[] = [];
test.beforeAll(async () => {
  hub = await startE2eHub('hub-overlap');
});
test.afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  await hub?.stop();
});

const vendorStatuses = (ids: readonly string[]) => vendorItemStatuses(hub, ids);

async function openReview(page: Page, count: number) {
  await page.goto(`/review/${SUBSCRIPTION}?limit=${count}&queue=all`);
  await expect(page.getByRole('button', { name: 'Pull', exact: true })).toBeVisible();
  // Votes are what this spec judges, not the undo window (outbox specs do): each is sent at once.
  await page.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('0');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(options(page)).toHaveCount(count);
}

/** Decides an item as a person does: a click on it, then `a`, or `d` and Enter (no reason); waits until the hub took it. */
async function decide(page: Page, itemId: string, kind: 'adopt' | 'dispute') {
  await option(page, itemId).click();
  await page.keyboard.press(kind === 'adopt' ? 'a' : 'd');
  if (kind === 'dispute') {
    await expect(page.getByRole('form', { name: 'Dispute reason' }).getByRole('radio', { name: 'No code' })).toBeFocused();
    await page.keyboard.press('Enter');
  }
  await expect(option(page, itemId)).toHaveAttribute('data-state', kind === 'adopt' ? 'adopted' : 'disputed');
}

test('overlap 2: two reviewers decide the same items; agreements go to the vendor, splits reach the lead who settles them; one decision per item, each adopt charged once', async ({
  browser,
}) => {
  // Three browsers and a hub on a shared 2-core machine: a hang guard, not a speed limit.
  test.setTimeout(240_000);
  const admin = await signedInPage(browser, hub, hub.accounts.admin, contexts, { width: 1440, height: 900 });
  const one = await signedInPage(browser, hub, hub.accounts.reviewer1, contexts);
  const two = await signedInPage(browser, hub, hub.accounts.reviewer2, contexts);

  await admin.goto('/team/overlap');
  await admin.getByRole('spinbutton', { name: `Reviewers per item for ${SUBSCRIPTION}` }).fill('2');
  await admin.getByRole('combobox', { name: `Rule for ${SUBSCRIPTION}` }).selectOption('unanimous');
  await admin.getByRole('button', { name: 'Save overlap' }).click();
  await expect(admin.getByRole('status').filter({ hasText: /^Saved\./ })).toBeVisible();
  // The admin waits on another team page: the team navigation counts the lead's queue, live.
  await admin.goto('/team/members');
  const overlapTab = admin.getByRole('navigation', { name: 'Team' }).getByRole('link', { name: /^Overlap/ });
  await expect(overlapTab).toHaveAccessibleName('Overlap');
  // A mark on the page's window: still there later, the page was never loaded again.
  await admin.evaluate(() => Object.assign(window, { stayedOnPage: true }));

  await openReview(one, 4);
  await openReview(two, 4);
  const ids = await itemIds(one);
  // Both reviewers see the same items (the simulator's pull starts at the undecided ones).
  expect(new Set(await itemIds(two))).toEqual(new Set(ids));
  const [agreedAdopt, splitA, agreedDispute, splitB] = ids as [string, string, string, string];
  const before = vendorStatuses(ids);

  await decide(one, agreedAdopt, 'adopt');
  await decide(one, splitA, 'adopt');
  await decide(one, agreedDispute, 'dispute');
  await decide(one, splitB, 'dispute');
  // One vote of two on each: nothing reached the vendor, and the console says where the vote stands.
  expect(vendorStatuses(ids)).toEqual(before);
  await option(one, agreedAdopt).click();
  await expect(one.getByText('1 of 2 votes: the team decides when 2 are in')).toBeVisible();

  await decide(two, agreedAdopt, 'adopt');
  await decide(two, splitA, 'dispute');
  await decide(two, agreedDispute, 'dispute');
  await decide(two, splitB, 'adopt');
  await expect.poll(() => vendorStatuses([agreedAdopt, agreedDispute])).toEqual(['adopted', 'disputed']);
  expect(vendorStatuses([splitA, splitB])).toEqual([before[1], before[3]]);
  await option(two, splitB).click();
  await expect(two.getByText('2 of 2 votes, split: the lead settles it')).toBeVisible();

  // The lead's queue: counted in the admin's navigation without a reload, then opened from it.
  await expect(overlapTab).toHaveAccessibleName('Overlap 2 waiting for the lead');
  expect(await admin.evaluate(() => 'stayedOnPage' in window)).toBe(true);
  await overlapTab.click();
  await expect(admin).toHaveURL(/\/team\/overlap$/);
  // The two split items, each with who voted what.
  await expect(admin.getByRole('heading', { name: /Lead’s queue \(2\)/ })).toBeVisible();
  for (const [itemId, first, second] of [
    [splitA, 'adopt', 'dispute'],
    [splitB, 'dispute', 'adopt'],
  ] as const) {
    const votes = admin.getByRole('table', { name: `Votes on ${itemId}` });
    await expect(votes.getByRole('row', { name: new RegExp(`^${hub.accounts.reviewer1.email} ${first}`) })).toBeVisible();
    await expect(votes.getByRole('row', { name: new RegExp(`^${hub.accounts.reviewer2.email} ${second}`) })).toBeVisible();
  }
  await admin.getByRole('button', { name: `Adopt ${splitA}` }).click();
  await expect(admin.getByRole('table', { name: `Votes on ${splitA}` })).toHaveCount(0);
  await expect(overlapTab).toHaveAccessibleName('Overlap 1 waiting for the lead');
  await admin.getByRole('button', { name: `Dispute ${splitB}` }).click();
  await expect(admin.getByText('No item waits for the lead')).toBeVisible();
  await expect(overlapTab).toHaveAccessibleName('Overlap');

  await expect.poll(() => vendorStatuses(ids)).toEqual(['adopted', 'adopted', 'disputed', 'disputed']);
  // Exactly one adopt receipt for each adopted item, none for the disputed ones.
  const charged = chargedOnce(hub);
  expect(charged.has(agreedAdopt) && charged.has(splitA)).toBe(true);
  expect(charged.has(agreedDispute) || charged.has(splitB)).toBe(false);
});
