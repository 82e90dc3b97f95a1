import { expect, test, type Page } from '@playwright/test';
import { chargedOnce, hubContext, signInThroughForm, startE2eHub, vendorAdoptReceipts, type E2eHub } from './support/hub';

/*
 * The team's budget holds for everyone, in the console served by a hub (`--demo --static dist`):
 * an admin sets a $0.05 daily limit on the Budgets page, two reviewers signed in through the form
 * adopt priced items by key at the same time, and the simulator's own receipts (its database)
 * never pass the limit; what the hub held shows as held in each reviewer's console, and moving a
 * browser's clock a day either way changes nothing.
 */
test.describe.configure({ mode: 'serial' });

const LIMIT = 50_000;
const ADOPTS_EACH = 6;
const DAY = 24 * 3_600_000;

let hub: E2eHub;
test.beforeAll(async () => {
  hub = await startE2eHub('hub-budgets');
});
test.afterAll(async () => {
  await hub?.stop();
});

const options = (page: Page) => page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option');

/** Each item on the review page and the state the console shows for it (data-state), by item id. */
const shownStates = async (page: Page) =>
  new Map(
    await options(page).evaluateAll((nodes) =>
      nodes.map((n) => [n.id.replace(/^review-option-[a-z]+-/, ''), n.getAttribute('data-state') ?? ''] as [string, string]),
    ),
  );

async function openReview(page: Page, subscription: string) {
  await page.goto(`/review/${subscription}?limit=10&queue=all`);
  await expect(page.getByRole('button', { name: 'Pull', exact: true })).toBeVisible();
  await page.keyboard.press('n');
  await expect(options(page)).toHaveCount(10);
}

/** Adopts the focused item by key, `count` times, each once the last one is taken. */
async function adoptByKeys(page: Page, count: number) {
  for (let done = 1; done <= count; done++) {
    await page.keyboard.press('a');
    await expect(options(page).and(page.locator(':not([data-state="new"])'))).toHaveCount(done);
  }
}

/** Waits until nothing is on its way, and returns what the page shows. */
async function settled(page: Page) {
  await expect.poll(async () => [...(await shownStates(page)).values()].filter((s) => s === 'waiting').length, { timeout: 60_000 }).toBe(0);
  return shownStates(page);
}

test('two reviewers adopt by keys at once under a $0.05 daily limit: the vendor’s receipts stay within it, the rest is held and shown as held in each console; a day forward or back on a browser’s clock changes nothing', async ({
  browser,
}) => {
  // A hang guard: three browsers, two runs of keys, a clock moved both ways (past three minutes once on a loaded CI machine).
  test.setTimeout(360_000);
  const [adminContext, oneContext, twoContext] = await Promise.all([hubContext(browser, hub), hubContext(browser, hub), hubContext(browser, hub)]);
  const [admin, one, two] = await Promise.all([adminContext.newPage(), oneContext.newPage(), twoContext.newPage()]);
  await signInThroughForm(admin, hub.accounts.admin);
  await signInThroughForm(one, hub.accounts.reviewer1);
  await signInThroughForm(two, hub.accounts.reviewer2);

  // The admin sets the limit on the Budgets page.
  await admin.goto('/team/budgets');
  await admin.getByRole('textbox', { name: 'Organization daily limit (USD)' }).fill('0.05');
  await admin.getByRole('button', { name: 'Save budgets' }).click();
  await expect(admin.getByRole('status').filter({ hasText: /^Saved: / })).toBeVisible();

  const seeded = new Set(vendorAdoptReceipts(hub).keys());
  const fresh = () => chargedOnce(hub, seeded);

  // Two subscriptions, one organization limit: both reviewers adopt by keys at the same time.
  await Promise.all([openReview(one, 'sub_sim_retail'), openReview(two, 'sub_sim_support')]);
  await Promise.all([adoptByKeys(one, ADOPTS_EACH), adoptByKeys(two, ADOPTS_EACH)]);
  const [shownOne, shownTwo] = await Promise.all([settled(one), settled(two)]);

  const receipts = fresh();
  const charged = [...receipts.values()].reduce((a, b) => a + b, 0);
  expect(charged).toBeLessThanOrEqual(LIMIT);
  expect(receipts.size).toBeGreaterThan(0);

  // What the hub held, each reviewer's console shows as held; what the vendor charged, as adopted.
  const holds = (await (await admin.request.get('/hub/v1/holds')).json()) as { holds: { item_id: string; member: { email: string } }[] };
  const heldBy = (email: string) => holds.holds.filter((h) => h.member.email === email).map((h) => h.item_id);
  const expectShown = (shown: Map<string, string>, email: string) => {
    const decided = [...shown].filter(([, state]) => state !== 'new');
    expect(decided).toHaveLength(ADOPTS_EACH);
    expect(
      decided
        .filter(([, s]) => s === 'held-team')
        .map(([id]) => id)
        .sort(),
    ).toEqual(heldBy(email).sort());
    for (const [id, state] of decided) expect(state === 'adopted' ? receipts.has(id) : !receipts.has(id), `${id} ${state}`).toBe(true);
  };
  expectShown(shownOne, hub.accounts.reviewer1.email);
  expectShown(shownTwo, hub.accounts.reviewer2.email);
  expect(holds.holds.length).toBeGreaterThan(0);
  expect(receipts.size + holds.holds.length).toBe(2 * ADOPTS_EACH);
  await expect(one.getByRole('option', { name: /held by the team’s budget/ }).first()).toBeVisible();

  // A day forward on reviewer 1's clock: a new "day" in the browser, not on the hub. Still held, and a new adopt is held too.
  // The browser's clock a day (and two hours) forward, then as far back: a new "day" in the browser, not on the hub.
  for (const [index, shift] of [DAY + 2 * 3_600_000, -DAY - 2 * 3_600_000].entries()) {
    if (index === 0) await one.clock.install({ time: Date.now() + shift });
    else await one.clock.setSystemTime(Date.now() + shift);
    await one.reload();
    await expect(options(one).first()).toBeVisible();
    expect(Math.abs((await one.evaluate(() => Date.now())) - (Date.now() + shift))).toBeLessThan(60_000);
    // What was held is still held, and the next adopt is held too: the hub's day did not change.
    const before = await settled(one);
    for (const id of heldBy(hub.accounts.reviewer1.email)) expect(before.get(id), id).toBe('held-team');
    const next = [...before].find(([, s]) => s === 'new')![0];
    await one.locator(`[role="option"][id$="-${next}"]`).click();
    await one.keyboard.press('a');
    await expect(one.locator(`[role="option"][id$="-${next}"]`)).toHaveAttribute('data-state', 'held-team');
    expect(fresh()).toEqual(receipts);
  }
  expect([...fresh().values()].reduce((a, b) => a + b, 0)).toBe(charged);
  await Promise.all([adminContext.close(), oneContext.close(), twoContext.close()]);
});
