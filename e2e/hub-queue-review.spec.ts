import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { chargedOnce, hubAs, signedInPage, signInThroughForm, startE2eHub, type E2eHub, vendorItemStatuses } from './support/hub';
import { batchBar, itemIds, option, options } from './support/review-list';

/*
 * The review in hub mode walks a batch leased from the team's queue (issue 26, items 2, 6 and 8):
 * three reviewers in three browsers get disjoint batches and decide every item; a tab closed
 * mid-batch lets its lease run out after the idle time (set by the admin on /team/leases) and the
 * next take gets those items; an offline reviewer decides their batch, an admin takes it back and
 * another reviewer decides some of it, and on reconnect nothing is lost or decided twice, and the
 * conflicts are on screen. The simulator's records (its items' status, its receipts) and the hub's
 * audit are the judges.
 */
test.describe.configure({ mode: 'serial' });

const SUB = 'sub_sim_retail';

let hub: E2eHub;
const contexts: BrowserContext[] = [];
let admin: Page;
test.beforeAll(async ({ browser }) => {
  hub = await startE2eHub('hub-queue');
  admin = await signedInPage(browser, hub, hub.accounts.admin, contexts, { width: 1440, height: 900 });
});
test.afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
  await hub?.stop();
});

const vendorStatuses = (ids: readonly string[]) => vendorItemStatuses(hub, ids);

/** The team decisions the hub accepted per item (its audit): more than one would be an item decided twice. */
async function acceptedPerItem(): Promise<Map<string, number>> {
  const api = hubAs(admin, hub);
  const rows = [...(await api.audit('v1.adopt')), ...(await api.audit('v1.dispute'))].filter((r) => r.outcome === 'accepted');
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.item_id!, (counts.get(r.item_id!) ?? 0) + 1);
  return counts;
}

/** New pending items into the team's inbox: the admin pulls a page in the whole-subscription review (no batch). */
async function pullIntoInbox(count: number) {
  const before = await inboxIds();
  await admin.goto(`/review/${SUB}?limit=${count}&queue=all`);
  await admin.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect.poll(async () => (await inboxIds()).length).toBe(before.length + count);
}

async function inboxIds(): Promise<string[]> {
  const inbox = await (await admin.request.get(`/hub/v1/inbox?subscription_id=${SUB}&limit=500`)).json();
  return (inbox.items as { item_id: string }[]).map((i) => i.item_id);
}

/** Opens the review as a reviewer does: it takes a batch of `size` from the queue; returns the batch's items. */
async function openBatch(page: Page, size: number): Promise<string[]> {
  await page.goto(`/review/${SUB}?batch=${size}`);
  await expect(batchBar(page)).toContainText(/Batch · \d+ left · yours until/);
  await expect(options(page).first()).toBeVisible();
  return itemIds(page);
}

/** Decides the focused item by key (the focus then moves to the next undecided one). */
async function decideFocused(page: Page, kind: 'adopt' | 'dispute') {
  await page.keyboard.press(kind === 'adopt' ? 'a' : 'd');
  if (kind === 'dispute') {
    await expect(page.getByRole('form', { name: 'Dispute reason' }).getByRole('radio', { name: 'No code' })).toBeFocused();
    await page.keyboard.press('Enter');
  }
}

async function decideItem(page: Page, itemId: string, kind: 'adopt' | 'dispute') {
  await option(page, itemId).click();
  await decideFocused(page, kind);
  await expect(option(page, itemId)).toHaveAttribute('data-state', kind === 'adopt' ? /adopted|waiting|undo/ : /disputed|waiting|undo/);
}

test('three reviewers in three browsers: disjoint batches, every item decided once, each adopt charged once', async ({ browser }) => {
  // Four browsers and a hub on a shared 2-core machine: a hang guard, not a speed limit.
  test.setTimeout(300_000);
  const third = { email: 'reviewer3@example.test', password: 'correct horse battery staple 3' };
  await hubAs(admin, hub).addMember(third.email, 'reviewer', third.password);
  await pullIntoInbox(12);
  const all = await inboxIds();
  expect(all).toHaveLength(12);

  const reviewers = [
    await signedInPage(browser, hub, hub.accounts.reviewer1, contexts),
    await signedInPage(browser, hub, hub.accounts.reviewer2, contexts),
    await signedInPage(browser, hub, third, contexts),
  ];
  const batches: string[][] = [];
  for (const page of reviewers) batches.push(await openBatch(page, 4));
  // Disjoint, and together the whole inbox.
  expect(batches.map((b) => b.length)).toEqual([4, 4, 4]);
  expect(new Set(batches.flat())).toEqual(new Set(all));
  // The batch line keeps the review within the window (issue 22): at 1280×720 the focused item's decide buttons are in view without scrolling.
  for (const [width, height] of [
    [1280, 720],
    [1440, 900],
    [390, 844],
  ] as const) {
    await reviewers[0]!.setViewportSize({ width, height });
    await reviewers[0]!.screenshot({ path: `test-results/hub-queue-batch-${width}.png` });
  }
  await reviewers[0]!.setViewportSize({ width: 1280, height: 720 });
  await expect(reviewers[0]!.getByRole('button', { name: 'Adopt', exact: true })).toBeInViewport();

  // Each walks their batch by keys: adopt, dispute, adopt, dispute.
  await Promise.all(
    reviewers.map(async (page) => {
      for (const kind of ['adopt', 'dispute', 'adopt', 'dispute'] as const) await decideFocused(page, kind);
      await expect(batchBar(page)).toContainText('Batch · 0 left');
      await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible({ timeout: 60_000 });
      // The batch is done: the next one by key finds nothing left.
      await page.keyboard.press('b');
      await expect(batchBar(page)).toContainText('Nothing free to take');
    }),
  );

  await expect.poll(() => vendorStatuses(all).filter((s) => s === 'pending').length, { timeout: 60_000 }).toBe(0);
  const accepted = await acceptedPerItem();
  expect(all.map((id) => accepted.get(id))).toEqual(all.map(() => 1));
  const charged = chargedOnce(hub);
  expect(all.filter((id) => charged.has(id))).toHaveLength(6);
  // A viewer takes no batch: the button is disabled, with the reason beside it.
  const viewer = await signedInPage(browser, hub, hub.accounts.viewer, contexts);
  await viewer.goto(`/review/${SUB}`);
  await expect(batchBar(viewer)).toContainText('A viewer cannot take a batch: reviewers and admins do.');
  await expect(batchBar(viewer).getByRole('button', { name: 'Take a batch' })).toBeDisabled();
  await viewer.context().close();

  // The reviewers leave: an open review would lease the next test's items when it opens a batch again.
  await Promise.all(reviewers.map((page) => page.context().close()));
});

test('a tab closed mid-batch: after the idle time the admin set, the lease returns to the queue and the next take gets those items', async ({ browser }) => {
  test.setTimeout(240_000);
  // The admin sets a short idle time through the page (24 s: long enough for a second reviewer to
  // sign in and take a batch on a loaded machine while the first lease lives; 12 s was not).
  await admin.goto('/team/leases');
  await admin.getByRole('combobox', { name: 'Subscription' }).selectOption(SUB);
  await admin.getByRole('textbox', { name: 'Idle time (minutes) before a lease ends' }).fill('0.4');
  await admin.getByRole('button', { name: 'Save idle time' }).click();
  await expect(admin.getByText('Saved: 0 min.')).toBeVisible();
  await pullIntoInbox(6);

  const oneContext = await browser.newContext({ baseURL: hub.url, viewport: { width: 1280, height: 800 } });
  contexts.push(oneContext);
  const one = await oneContext.newPage();
  await signInThroughForm(one, hub.accounts.reviewer1);
  const two = await signedInPage(browser, hub, hub.accounts.reviewer2, contexts);
  const held = await openBatch(one, 3);
  // While reviewer 1's lease lives, reviewer 2's batch holds none of its items.
  const first = await openBatch(two, 10);
  expect(first).toHaveLength(3);
  expect(first.filter((id) => held.includes(id))).toEqual([]);
  // Reviewer 1 decides one item and closes the tab.
  await decideFocused(one, 'adopt');
  await expect(one.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible({ timeout: 60_000 });
  await oneContext.close();
  const left = held.slice(1);

  for (let i = 0; i < first.length; i++) await decideFocused(two, 'dispute');
  await expect(batchBar(two)).toContainText('Batch · 0 left');
  // Once the idle time has passed, the next batch (by key, or Try again) holds the closed tab's undecided items.
  await expect(async () => {
    if (await two.getByRole('button', { name: 'Try again' }).isVisible()) await two.getByRole('button', { name: 'Try again' }).click();
    else await two.keyboard.press('b');
    await expect(batchBar(two)).toContainText('Batch · 2 left', { timeout: 3_000 });
  }).toPass({ timeout: 60_000 });
  expect(new Set(await itemIds(two))).toEqual(new Set(left));
  // Reviewer 2 decides them: none is left pending for the next test.
  await decideFocused(two, 'adopt');
  await decideFocused(two, 'adopt');
  await expect(batchBar(two)).toContainText('Batch · 0 left');
  await expect(two.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => vendorStatuses(left)).toEqual(['adopted', 'adopted']);
  await two.context().close();
});

test('an offline reviewer decides their batch, the lease is taken over; on reconnect nothing is lost or decided twice, and the conflicts are on screen', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  // A longer idle time again: only the admin's take-back ends this lease.
  await admin.goto('/team/leases');
  await admin.getByRole('combobox', { name: 'Subscription' }).selectOption(SUB);
  await admin.getByRole('textbox', { name: 'Idle time (minutes) before a lease ends' }).fill('10');
  await admin.getByRole('button', { name: 'Save idle time' }).click();
  await expect(admin.getByText('Saved: 10 min.')).toBeVisible();
  await pullIntoInbox(4);

  const one = await signedInPage(browser, hub, hub.accounts.reviewer1, contexts);
  const two = await signedInPage(browser, hub, hub.accounts.reviewer2, contexts);
  const batch = await openBatch(one, 4);
  expect(batch).toHaveLength(4);
  const [disputedByTwo, leasedToTwo, adoptedByBoth, onlyOne] = batch as [string, string, string, string];

  // The network goes; the reviewer walks the batch: four adopts wait in the outbox.
  await one.context().setOffline(true);
  for (let i = 0; i < 4; i++) await decideFocused(one, 'adopt');
  await expect(batchBar(one)).toContainText('Batch · 0 left');

  // The admin takes the batch back; reviewer 2 takes three of those items and decides two of them.
  await admin.goto('/team/leases');
  await admin.getByRole('combobox', { name: 'Subscription' }).selectOption(SUB);
  // Reviewer 1's batches still holding undecided items (the first test's, all decided, is not listed): each taken back.
  const takeBack = admin.getByRole('button', { name: `Take back the batch of ${hub.accounts.reviewer1.email}` });
  await expect(takeBack.first()).toBeVisible();
  for (let n = await takeBack.count(); n > 0; n--) {
    await takeBack.first().click();
    await admin.getByRole('alertdialog').getByRole('button', { name: 'Take back' }).click();
    await expect(takeBack).toHaveCount(n - 1);
  }
  const taken = await openBatch(two, 3);
  expect(taken).toEqual([disputedByTwo, leasedToTwo, adoptedByBoth]);
  await decideItem(two, disputedByTwo, 'dispute');
  await decideItem(two, adoptedByBoth, 'adopt');
  await expect(two.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => vendorStatuses([disputedByTwo, adoptedByBoth])).toEqual(['disputed', 'adopted']);

  // Reviewer 1 reconnects: the outbox sends; the hub answers each as it stands.
  await one.context().setOffline(false);
  const attention = one.getByRole('region', { name: 'Decisions that need attention' });
  await expect(attention).toContainText(`item ${leasedToTwo} is leased to ${hub.accounts.reviewer2.email} now`, { timeout: 60_000 });
  await expect(attention).toContainText(`“dispute by ${hub.accounts.reviewer2.email}” for item ${disputedByTwo} (you chose adopt)`);
  await expect(batchBar(one)).toContainText('lease lost on');
  for (const [width, height] of [
    [1280, 720],
    [1440, 900],
    [390, 844],
  ] as const) {
    await one.setViewportSize({ width, height });
    await one.screenshot({ path: `test-results/hub-queue-conflict-${width}.png` });
  }
  await expect.poll(() => vendorStatuses(batch), { timeout: 60_000 }).toEqual(['disputed', 'pending', 'adopted', 'adopted']);

  // Nothing lost: reviewer 2 lets the leased item go, and reviewer 1's kept adopt is sent by Retry.
  await two.getByRole('button', { name: 'Release' }).click();
  await expect(batchBar(two)).toContainText('No batch');
  await attention.getByRole('button', { name: `Retry adopt item ${leasedToTwo}` }).click();
  await expect.poll(() => vendorStatuses([leasedToTwo]), { timeout: 60_000 }).toEqual(['adopted']);

  // Nothing twice: one team decision per item, each adopt charged once.
  const accepted = await acceptedPerItem();
  expect(batch.map((id) => accepted.get(id))).toEqual([1, 1, 1, 1]);
  const charged = chargedOnce(hub);
  expect([leasedToTwo, adoptedByBoth, onlyOne].every((id) => charged.has(id))).toBe(true);
  expect(charged.has(disputedByTwo)).toBe(false);
});

test('an admin takes back an idle reviewer’s batch: their page learns it from the change stream, with no key pressed and no renewal due', async ({
  browser,
}) => {
  await pullIntoInbox(3);
  const one = await signedInPage(browser, hub, hub.accounts.reviewer1, contexts);
  await openBatch(one, 3);
  await expect(batchBar(one)).not.toContainText('lease lost');
  // The reviewer does nothing from here: an idle tab makes no renewal of its own.
  await admin.goto('/team/leases');
  await admin.getByRole('combobox', { name: 'Subscription' }).selectOption(SUB);
  const takeBack = admin.getByRole('button', { name: `Take back the batch of ${hub.accounts.reviewer1.email}` });
  // The table lists every batch at once: counted only once it is there (count() does not wait).
  await expect(takeBack.first()).toBeVisible();
  for (let n = await takeBack.count(); n > 0; n--) {
    await takeBack.first().click();
    await admin.getByRole('alertdialog').getByRole('button', { name: 'Take back' }).click();
    await expect(takeBack).toHaveCount(n - 1);
  }
  await expect(batchBar(one)).toContainText('lease lost on 3 items');
});

test('other filters in the review’s URL: the batch taken under the old ones is let go and the next is taken under these', async ({ browser }) => {
  // The items the admin took back above are free again: a batch of two of them.
  const one = await signedInPage(browser, hub, hub.accounts.reviewer1, contexts);
  const first = await openBatch(one, 2);
  const quality = await inboxQualities();
  // The filter: quality up to the batch's lowest, so one of its items matches and the other does not.
  const most = Math.min(...first.map((id) => quality.get(id)!));
  expect(first.some((id) => quality.get(id)! > most)).toBe(true);

  // As a person narrows the review: the items view, a quality range, then "Review these".
  await one.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Items' }).click();
  await one
    .getByRole('listitem')
    .filter({ hasText: SUB })
    .getByRole('link', { name: /^Items of / })
    .click();
  await one.getByRole('spinbutton', { name: 'Quality to' }).fill(String(most));
  await one.getByRole('spinbutton', { name: 'Quality to' }).press('Enter');
  await one.getByRole('link', { name: /^Review these/ }).click();

  await expect(batchBar(one)).toContainText(/Batch · \d+ left · yours until/);
  // The bar names the batch as soon as it is taken; its items are listed once the store has them.
  await expect
    .poll(async () => {
      const listed = await itemIds(one);
      return listed.length > 0 && listed.every((id) => quality.get(id)! <= most);
    })
    .toBe(true);
  // The hub agrees: what reviewer1 holds now all matches; the old batch's other item is free again.
  const held = (await leasesOf()).filter((l) => l.member.email === hub.accounts.reviewer1.email).flatMap((l) => l.item_ids);
  expect(held.length).toBeGreaterThan(0);
  for (const id of held) expect(quality.get(id)!, id).toBeLessThanOrEqual(most);
});

test('a bulk dispute names the items a teammate holds and leaves them to them: the vendor disputes the rest only', async ({ browser }) => {
  // A subscription of its own, with its default idle time (the one above lets an idle tab's lease go in 12 s).
  const sub = 'sub_sim_support';
  const inboxOf = async () =>
    ((await (await admin.request.get(`/hub/v1/inbox?subscription_id=${sub}&limit=500`)).json()).items as { item_id: string }[]).map((i) => i.item_id);
  await admin.goto(`/review/${sub}?limit=6&queue=all`);
  await admin.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect.poll(async () => (await inboxOf()).length).toBe(6);
  const one = await signedInPage(browser, hub, hub.accounts.reviewer1, contexts);
  await one.goto(`/review/${sub}?batch=2`);
  await expect(batchBar(one)).toContainText('Batch · 2 left');
  const heldByOne = (await (await admin.request.get(`/hub/v1/leases?subscription_id=${sub}`)).json()).leases.flatMap(
    (l: { item_ids: string[] }) => l.item_ids,
  ) as string[];
  expect(heldByOne).toHaveLength(2);

  // Reviewer 2, in the items view of the subscription: the six items the team's inbox brought here.
  const two = await signedInPage(browser, hub, hub.accounts.reviewer2, contexts);
  await two.goto('/');
  await two.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Items' }).click();
  await two
    .getByRole('listitem')
    .filter({ hasText: sub })
    .getByRole('link', { name: /^Items of / })
    .click();
  await two.getByRole('button', { name: 'Dispute all 6 matching' }).click();
  const confirm = two.getByRole('alertdialog', { name: 'Dispute 4 items?' });
  await expect(confirm.getByRole('listitem')).toHaveText([
    `2 leased to a teammate on the team hub: theirs to decide while they hold it (${hub.accounts.reviewer1.email})`,
  ]);
  await confirm.getByRole('button', { name: 'Dispute 4' }).click();
  const run = two.getByRole('region', { name: 'Bulk decisions sent' });
  await expect(run).toContainText('4 of 4 confirmed', { timeout: 60_000 });
  // None was refused as a teammate's: none was asked.
  await expect(run).not.toContainText('not taken');

  // The vendor: reviewer 1's two still pending, the other four disputed.
  const rest = (await inboxOf()).filter((id) => !heldByOne.includes(id));
  expect(await vendorStatuses(heldByOne)).toEqual(['pending', 'pending']);
  expect(await vendorStatuses(rest)).toEqual(['disputed', 'disputed', 'disputed', 'disputed']);
});

async function inboxQualities(): Promise<Map<string, number>> {
  const inbox = await (await admin.request.get(`/hub/v1/inbox?subscription_id=${SUB}&limit=500`)).json();
  return new Map((inbox.items as { item_id: string; item: { quality_score: number } }[]).map((i) => [i.item_id, i.item.quality_score]));
}

async function leasesOf(): Promise<{ member: { email: string }; item_ids: string[] }[]> {
  return (await (await admin.request.get(`/hub/v1/leases?subscription_id=${SUB}`)).json()).leases;
}
