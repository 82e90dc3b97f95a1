import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { recordDecisionStatuses } from './support/decision-status';
import {
  browserContents,
  chargedOnce,
  hubAs,
  hubContext,
  signedInPage,
  signInThroughForm,
  startE2eHub,
  vendorFeedback,
  vendorItemStatuses,
  type E2eHub,
} from './support/hub';

/*
 * The console served by a team hub (`npm run hub -- --demo --static dist`): members sign in, the
 * vendor key stays on the hub, each decision is attributed, a removed member is sent to sign in
 * with their decisions kept, and a viewer decides nothing. The tests of this file share one hub.
 */
test.describe.configure({ mode: 'serial' });

let hub: E2eHub;
test.beforeAll(async () => {
  hub = await startE2eHub();
});
test.afterAll(async () => {
  await hub?.stop();
});

/** Every answer and request a context saw: what the vendor key must be in none of. */
function recordTraffic(context: BrowserContext) {
  const answers: string[] = [];
  const authorizations: string[] = [];
  const pending: Promise<void>[] = [];
  context.on('request', (request) => {
    const authorization = request.headers().authorization;
    if (authorization) authorizations.push(`${request.method()} ${request.url()}`);
  });
  context.on('response', (response) => {
    // The hub's change stream never ends, so its body is never whole: its headers are kept, and what
    // it carries is checked for secrets by server/tests/hub/events.test.ts.
    if (response.headers()['content-type']?.startsWith('text/event-stream')) {
      answers.push(`${response.url()}\n${JSON.stringify(response.headers())}`);
      return;
    }
    pending.push(
      response
        .text()
        .catch(() => '')
        .then((body) => void answers.push(`${response.url()}\n${JSON.stringify(response.headers())}\n${body}`)),
    );
  });
  return { answers, authorizations, settled: () => Promise.all(pending) };
}

/** Decides the focused item by key and returns its submission ID. */
async function decideFocused(page: Page, key: 'a' | 'd') {
  const title = (await page.getByRole('region', { name: 'Focused item' }).getByRole('heading').textContent())!;
  await page.keyboard.press(key);
  if (key === 'd') {
    await expect(page.getByRole('radio', { name: 'No code' })).toBeFocused();
    await page.keyboard.press('Enter');
  }
  return title.replace('Submission ', '');
}

/**
 * The team's inbox lists every item pulled through the hub, those other tests decided too (the
 * team's decisions are not in this browser's list): moves down to one the vendor has no word on.
 */
async function focusUndecided(page: Page, subscription: string) {
  const decided = await vendorFeedback(hub, subscription);
  const focused = page.getByRole('region', { name: 'Focused item' }).getByRole('heading');
  for (;;) {
    const title = (await focused.textContent())!;
    if (decided.get(title.replace('Submission ', '')) == null) return;
    await page.keyboard.press('j');
    await expect(focused).not.toHaveText(title);
  }
}

async function openReview(page: Page, subscription: string) {
  await page.goto(`/review/${subscription}?limit=10&queue=all`);
  await expect(page.getByRole('button', { name: 'Pull', exact: true })).toBeVisible();
  await page.keyboard.press('n');
  await expect(page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option').first()).toBeVisible();
}

test('two reviewers sign in through the form and decide by keys; each audit row names its reviewer; the vendor key is in no answer, header, storage or page text', async ({
  browser,
}) => {
  const contexts = await Promise.all([hubContext(browser, hub), hubContext(browser, hub), hubContext(browser, hub)]);
  const traffic = contexts.map(recordTraffic);
  const [one, two, admin] = await Promise.all(contexts.map((c) => c.newPage()));

  // The console opens on sign-in; a wrong password is said so, and nothing else.
  await one!.goto('/');
  await expect(one!).toHaveURL(/\/sign-in/);
  await one!.getByRole('textbox', { name: 'Email' }).fill(hub.accounts.reviewer1.email);
  await one!.getByLabel('Password').fill('not-the-password-1');
  await one!.getByRole('button', { name: 'Sign in' }).click();
  await expect(one!.getByRole('alert')).toHaveText('Wrong email or password.');

  await signInThroughForm(one!, hub.accounts.reviewer1);
  await expect(one!).toHaveURL(/\/review/);
  await expect(one!.getByText('reviewer', { exact: true })).toBeVisible();
  await signInThroughForm(two!, hub.accounts.reviewer2);
  await signInThroughForm(admin!, hub.accounts.admin);

  await openReview(one!, 'sub_live_support');
  await openReview(two!, 'sub_live_streets');
  const byOne = [await decideFocused(one!, 'a'), await decideFocused(one!, 'd')];
  const byTwo = [await decideFocused(two!, 'a')];
  for (const page of [one!, two!]) await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();

  // The vendor recorded them (the simulator asked directly with the vendor key).
  const support = await vendorFeedback(hub, 'sub_live_support');
  expect([support.get(byOne[0]!), support.get(byOne[1]!)]).toEqual(['adopt', 'dispute']);
  expect((await vendorFeedback(hub, 'sub_live_streets')).get(byTwo[0]!)).toBe('adopt');

  // Each decision's audit row names the reviewer who made it (read by the admin).
  const api = hubAs(admin!, hub);
  const ids = new Map((await api.members()).map((m) => [m.email, m.id]));
  const rows = [...(await api.audit('v1.adopt')), ...(await api.audit('v1.dispute'))];
  const actorOf = (item: string) => rows.find((r) => r.item_id === item && r.outcome === 'accepted')?.actor_id;
  expect(byOne.map(actorOf)).toEqual([ids.get(hub.accounts.reviewer1.email), ids.get(hub.accounts.reviewer1.email)]);
  expect(actorOf(byTwo[0]!)).toBe(ids.get(hub.accounts.reviewer2.email));

  // No key anywhere in the browsers: no answer body or header, no Authorization sent, no storage, no page text.
  for (const t of traffic) await t.settled();
  const secrets = [hub.vendor.api_key, hub.vendor.jwt, hub.vendor.api_key.slice(-24)];
  for (const [index, t] of traffic.entries()) {
    expect(t.answers.length, `context ${index} saw answers`).toBeGreaterThan(5);
    expect(t.authorizations, `context ${index} sent Authorization`).toEqual([]);
    for (const answer of t.answers) for (const secret of secrets) expect(answer.includes(secret), answer.slice(0, 120)).toBe(false);
  }
  for (const page of [one!, two!, admin!]) {
    const contents = await browserContents(page);
    expect(contents).toContain(page === admin ? 'admin@demo.hub' : 'Dispute');
    for (const secret of secrets) expect(contents.includes(secret)).toBe(false);
  }
  await Promise.all(contexts.map((c) => c.close()));
});

test('an admin removes a reviewer: their next request sends them to sign in, where they were, and their undelivered decision waits and is sent when they are back', async ({
  browser,
}) => {
  const [reviewerContext, adminContext] = await Promise.all([hubContext(browser, hub), hubContext(browser, hub)]);
  const reviewer = await reviewerContext.newPage();
  const admin = await adminContext.newPage();
  await signInThroughForm(reviewer, hub.accounts.reviewer2);
  await signInThroughForm(admin, hub.accounts.admin);
  await openReview(reviewer, 'sub_live_support');
  const api = hubAs(admin, hub);
  const id = (await api.members()).find((m) => m.email === hub.accounts.reviewer2.email)!.id;

  // Decided, and in its undo window (not sent yet) when the admin removes the member.
  await focusUndecided(reviewer, 'sub_live_support');
  const item = await decideFocused(reviewer, 'a');
  await api.removeMember(id);
  await expect(reviewer).toHaveURL(/\/sign-in\?/);
  await expect(reviewer.getByRole('status').filter({ hasText: 'Your session ended' })).toBeVisible();
  expect(new URL(reviewer.url()).searchParams.get('redirect')).toMatch(/^\/review\/sub_live_support/);
  expect((await vendorFeedback(hub, 'sub_live_support')).get(item)).toBeNull();

  // Back (the admin adds them again, same account, a new password): signed in where they were, the decision goes.
  const password = 'a-new-password-for-r2';
  await api.addMember(hub.accounts.reviewer2.email, 'reviewer', password);
  await reviewer.getByRole('textbox', { name: 'Email' }).fill(hub.accounts.reviewer2.email);
  await reviewer.getByLabel('Password').fill(password);
  await reviewer.getByRole('button', { name: 'Sign in' }).click();
  await expect(reviewer).toHaveURL(/\/review\/sub_live_support/);
  await expect.poll(async () => (await vendorFeedback(hub, 'sub_live_support')).get(item)).toBe('adopt');
  await Promise.all([reviewerContext.close(), adminContext.close()]);
});

/** A reviewer's "Pull new" of a live subscription through the hub (its own browser): what a viewer then reads. */
async function teamPulls(browser: Browser, subscription: string, limit: number) {
  const contexts: BrowserContext[] = [];
  const reviewer = await signedInPage(browser, hub, hub.accounts.reviewer1, contexts);
  const pulled = await reviewer.request.get(`/v1/live/pull?subscription_id=${subscription}&limit=${limit}`);
  expect(pulled.status(), await pulled.text()).toBe(200);
  const ids = ((await pulled.json()) as { data: { items: { submission_id: string }[] } }).data.items.map((i) => i.submission_id);
  await Promise.all(contexts.map((c) => c.close()));
  return ids;
}

/** A viewer's review: no Pull to press, so it lists what the team pulled (the shared inbox). */
async function openAsViewer(page: Page, subscription: string) {
  await page.goto(`/review/${subscription}?limit=10&queue=all`);
  await expect(page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option').first()).toBeVisible();
}

test('a viewer has no way to pull new items: no Pull, Pull all new or Recover, N pulls nothing, and what the team pulled is listed', async ({ browser }) => {
  const pulledByTeam = await teamPulls(browser, 'sub_live_support', 4);
  const context = await hubContext(browser, hub);
  const page = await context.newPage();
  const pulls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/v1/live/pull')) pulls.push(request.url());
  });
  await signInThroughForm(page, hub.accounts.viewer);
  await openAsViewer(page, 'sub_live_support');
  const controls = page.getByRole('region', { name: 'Pull controls' });
  await expect(controls.getByText(/You are a viewer on this team hub: pulling new items moves the subscription forward/)).toBeVisible();
  for (const name of ['Pull', 'Pull all new', 'Recover missing items', 'Recover']) await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
  // The team's pull reaches the viewer all the same, read from the hub's inbox (the list is long by
  // now, and only its rows in view are rendered: the browser's store is the witness).
  await expect
    .poll(async () => {
      const contents = await browserContents(page);
      return pulledByTeam.filter((id) => !contents.includes(id));
    })
    .toEqual([]);
  // The key says why instead of pulling.
  await page.keyboard.press('n');
  await expect(page.getByText(/Not pulled: You are a viewer on this team hub/)).toBeVisible();
  expect(pulls).toEqual([]);
  // Had a pull been sent anyway, the hub refuses it with its reason.
  const refused = await page.request.get('/v1/live/pull?subscription_id=sub_live_support&limit=1');
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ success: false, errorCode: 'FORBIDDEN', errorMessage: expect.stringMatching(/viewer cannot pull new items/) });
  await context.close();
});

test('a viewer reads the review but cannot decide: the keys and buttons are disabled with the reason, and no decision leaves the browser', async ({
  browser,
}) => {
  await teamPulls(browser, 'sub_live_streets', 10);
  const context = await hubContext(browser, hub);
  const page = await context.newPage();
  const decisions: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/v1\/(live|data)\/items\//.test(request.url())) decisions.push(request.url());
  });
  await signInThroughForm(page, hub.accounts.viewer);
  await expect(page.getByText('viewer', { exact: true })).toBeVisible();
  await openAsViewer(page, 'sub_live_streets');
  await focusUndecided(page, 'sub_live_streets');
  const detail = page.getByRole('region', { name: 'Focused item' });
  const title = (await detail.getByRole('heading').textContent())!.replace('Submission ', '');
  await expect(detail.getByRole('button', { name: 'Adopt' })).toBeDisabled();
  await expect(detail.getByRole('button', { name: 'Dispute' })).toBeDisabled();
  await expect(detail.getByText(/You are a viewer on this team hub/)).toBeVisible();
  await expect(detail.getByRole('button', { name: 'Adopt' })).toHaveAccessibleDescription(/viewer/);
  await page.keyboard.press('a');
  await page.keyboard.press('d');
  await page.keyboard.press('x');
  await page.keyboard.press('Shift+A');
  await expect(page.getByText(/You are a viewer on this team hub/).first()).toBeVisible();
  expect(decisions).toEqual([]);
  expect((await vendorFeedback(hub, 'sub_live_streets')).get(title)).toBeNull();
  await context.close();
});

test('a reviewer previews a task through the hub: the hub attaches its JWT, the page names the frontier and the task, and no JWT reaches the browser', async ({
  browser,
}) => {
  const context = await hubContext(browser, hub);
  const page = await context.newPage();
  const authorizations: string[] = [];
  page.on('request', (request) => {
    if (request.headers().authorization) authorizations.push(request.url());
  });
  await signInThroughForm(page, hub.accounts.reviewer1);
  await page.getByRole('link', { name: 'Frontiers', exact: true }).first().click();
  await page.getByRole('link', { name: 'Customer support conversations' }).click();
  await page.getByRole('link', { name: 'Preview Intent labels' }).click();
  await expect(page.getByRole('heading', { name: 'Preview of Intent labels' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Customer support conversations');
  await expect(page.getByRole('list', { name: 'Preview samples' }).getByRole('listitem').first()).toBeVisible();
  await expect(page.getByText(/no dashboard JWT/)).toHaveCount(0);
  expect(authorizations).toEqual([]);
  await context.close();
});

test('a charged adopt still in its undo window when the page reloads is sent at once by the hub, and once: no "Send and pay" asks again', async ({
  browser,
}) => {
  const context = await hubContext(browser, hub);
  const page = await context.newPage();
  // reviewer2 was removed by a test before (and signs in with another password since).
  await signInThroughForm(page, hub.accounts.reviewer1);
  await page.goto('/review/sub_sim_retail?limit=5&queue=all');
  await page.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('30');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  const options = page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option');
  await expect(options.first()).toBeVisible();
  await options.first().click();
  const itemId = (await page.getByRole('region', { name: 'Focused item' }).getByRole('heading', { level: 2 }).textContent())!.replace(/^Item /, '').trim();
  await page.keyboard.press('a');
  await expect(page.getByRole('status', { name: /^Decisions: 1 unsent/ })).toBeVisible();

  // Every text the header's decision status takes in the next page, each one before it is painted.
  const shown = await recordDecisionStatuses(page);
  // The adopt the next page sends is held on its way to the hub, until the page has been looked at.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reachedHub!: () => void;
  const sent = new Promise<void>((resolve) => (reachedHub = resolve));
  await page.route(`**/v1/data/items/${itemId}/adopt`, async (route) => {
    reachedHub();
    await released;
    await route.continue();
  });

  // The page goes while the adopt waits out its undo window: the next load takes it over.
  await page.reload();
  await sent;
  const status = page.getByRole('status', { name: /^Decisions:/ });
  await expect(status).toHaveAccessibleName('Decisions: 1 unsent');
  // Before the page had read what the one before left, it knew of no decision: it never said all were
  // saved. Nor did it call the adopt another tab's while taking it over from the page before.
  expect(await shown()).not.toContain('Decisions: All decisions saved');
  expect((await shown()).filter((text) => /another tab/.test(text))).toEqual([]);
  expect(vendorItemStatuses(hub, [itemId])).toEqual(['pending']);
  release();
  await expect(status).toHaveAccessibleName('Decisions: All decisions saved');
  await expect(page.getByRole('button', { name: /Send and pay/ })).toHaveCount(0);
  // Saved means the hub holds it: had the vendor not answered at once, the hub's sender delivers it.
  await expect.poll(() => vendorItemStatuses(hub, [itemId])).toEqual(['adopted']);
  expect(chargedOnce(hub).has(itemId)).toBe(true);
  await context.close();
});

test('signing out sends first the decisions still in their undo window: they reach the vendor, not left in this browser for the next member', async ({
  browser,
}) => {
  const context = await hubContext(browser, hub);
  const page = await context.newPage();
  await signInThroughForm(page, hub.accounts.reviewer1);
  await page.goto('/review/sub_live_streets?limit=10&queue=all');
  await page.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('300');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option').first()).toBeVisible();
  await focusUndecided(page, 'sub_live_streets');
  const item = (await page.getByRole('region', { name: 'Focused item' }).getByRole('heading').textContent())!.replace('Submission ', '');
  await page.keyboard.press('a');
  await expect(page.getByRole('status', { name: 'Decisions: 1 unsent' })).toBeVisible();

  await page.getByRole('button', { name: /^Signed in as/ }).click();
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  expect((await vendorFeedback(hub, 'sub_live_streets')).get(item)).toBe('adopt');
  await context.close();
});
