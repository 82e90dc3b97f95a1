import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import Database from 'libsql';
import { join } from 'node:path';
import { formatMicros, usdToMicros } from '../src/lib/money';
import { chargedOnce, vendorAdoptReceipts, startE2eHub, signedInPage, type E2eHub, type HubAccount } from './support/hub';

/*
 * The hub's budgets and held adopts in the console, against a real hub started with --demo (its
 * simulator in-process): an admin sets the limit on the Budgets page, a reviewer's adopts past it
 * are held, the Holds page releases and drops them, and the simulator's own records (its SQLite
 * file) show what the vendor charged.
 */

test.describe.configure({ mode: 'serial' });

let hub: E2eHub;
const contexts: BrowserContext[] = [];
const LIMIT = 50_000;
const SUBSCRIPTION = 'sub_sim_retail';

test.beforeAll(async () => {
  hub = await startE2eHub('team');
});
test.afterAll(async () => {
  for (const context of contexts) await context.close();
  await hub?.stop();
});

/** A browser context of its own, signed in to the hub as this account through the sign-in form. */
const signedIn = (browser: Browser, account: HubAccount, viewport?: { width: number; height: number }) =>
  signedInPage(browser, hub, account, contexts, viewport);

const hubGet = async (page: Page, path: string) => {
  const answer = await page.request.get(path);
  expect(answer.status(), path).toBe(200);
  return (await answer.json()) as any;
};

/** PUT requests to the budgets endpoint a page sends, counted. */
function countBudgetPuts(page: Page) {
  const seen = { puts: 0 };
  page.on('request', (request) => {
    if (request.method() === 'PUT' && new URL(request.url()).pathname === '/hub/v1/budgets') seen.puts += 1;
  });
  return seen;
}

let admin: Page;
let reviewer1: Page;
let reviewer2: Page;
/** reviewer1's adopts the hub sent, and those it held (item → price). */
const sent = new Map<string, number>();
const held: { id: string; price: number }[] = [];
let otherHeld = '';
let seeded = new Set<string>();

test('an admin sets a $0.05 organization daily limit on the Budgets page; bad input is named before anything is sent, the hub’s refusal is shown', async ({
  browser,
}) => {
  admin = await signedIn(browser, hub.accounts.admin);
  const requests = countBudgetPuts(admin);
  await admin.goto('/team/budgets');
  await expect(admin.getByRole('heading', { name: 'Budgets', level: 1 })).toBeVisible();
  const orgDaily = admin.getByRole('textbox', { name: 'Organization daily limit (USD)' });
  const save = admin.getByRole('button', { name: 'Save budgets' });

  for (const [typed, error] of [
    ['-1', 'A limit cannot be negative.'],
    ['0.0000001', 'At most six decimals (a millionth of a dollar).'],
    ['1000000.01', 'At most $1,000,000.00 a period.'],
    ['five cents', 'Enter an amount in USD, e.g. 0.05 (digits and one decimal point).'],
  ] as const) {
    await orgDaily.fill(typed);
    await save.click();
    await expect(orgDaily).toHaveAccessibleDescription(error);
    await expect(admin.getByRole('alert')).toHaveText('One limit cannot be read: nothing was saved. Correct the marked field.');
  }
  expect(requests.puts).toBe(0);
  expect((await hubGet(admin, '/hub/v1/budgets')).limits.organization).toEqual({ daily_micros: null, monthly_micros: null });

  // The hub's own 400: a member removed (by another admin) after this page listed them.
  const added = await admin.request.post('/hub/v1/members', {
    data: { email: 'leaver@team.test', role: 'reviewer', password: 'a long enough password' },
    headers: { Origin: hub.url },
  });
  expect(added.status()).toBe(201);
  const leaver = ((await added.json()) as { member: { id: string } }).member.id;
  // The removal lands between the page's last read and Save: the hub's change stream, which tells an
  // open page of it at once (and so closes this window), is cut for this page.
  await admin.route('**/hub/v1/events**', (route) => route.abort());
  await admin.reload();
  await orgDaily.fill('');
  await admin.getByRole('textbox', { name: 'leaver@team.test daily limit (USD)' }).fill('0.01');
  expect((await admin.request.delete(`/hub/v1/members/${leaver}`, { headers: { Origin: hub.url } })).status()).toBe(200);
  await save.click();
  await expect(admin.getByRole('alert')).toContainText(`members: no member ${leaver}`);
  expect(requests.puts).toBe(1);
  expect((await hubGet(admin, '/hub/v1/budgets')).limits.members).toEqual([]);

  // Read again, the removed member's row is gone; the limit is set.
  await admin.reload();
  await expect(admin.getByRole('textbox', { name: 'leaver@team.test daily limit (USD)' })).toHaveCount(0);
  await orgDaily.fill('$0.05');
  await save.click();
  await expect(admin.getByRole('status').filter({ hasText: /^Saved: / })).toBeVisible();
  expect((await hubGet(admin, '/hub/v1/budgets')).limits.organization).toEqual({ daily_micros: LIMIT, monthly_micros: null });
  await expect(orgDaily).toHaveValue('0.05');
  await expect(admin.getByText('Spent today: $0.00 of $0.05 (0%)')).toBeVisible();
  const audit = await hubGet(admin, '/hub/v1/audit?action=budget.set');
  expect(audit.rows.at(-1)).toMatchObject({ action: 'budget.set', outcome: 'ok', actor_id: (await hubGet(admin, '/hub/v1/me')).member.id });
});

test('adopts past the limit are held and shown to their reviewer; the admin releases one and drops another, the reviewer drops one; the vendor charged only the released one past the limit', async ({
  browser,
}) => {
  reviewer1 = await signedIn(browser, hub.accounts.reviewer1);
  reviewer2 = await signedIn(browser, hub.accounts.reviewer2);
  // The demo's seeded history has receipts of its own: only those made from here on are this test's.
  seeded = new Set(vendorAdoptReceipts(hub).keys());
  // The review through the hub comes with hub mode; until then the reviewers adopt on the hub's /v1 with their own session.
  const pulled = (await hubGet(reviewer1, `/v1/data/pull?subscription_id=${SUBSCRIPTION}&limit=30`)).data as { id: string; unit_price_usd: number }[];
  const price = (item: { unit_price_usd: number }) => usdToMicros(item.unit_price_usd);
  for (const item of pulled) {
    if (held.length === 3) break;
    const answer = await reviewer1.request.post(`/v1/data/items/${item.id}/adopt`, { headers: { Origin: hub.url } });
    const body = (await answer.json()) as { errorCode?: string };
    if (answer.status() === 409) {
      expect(body.errorCode).toBe('BUDGET_HELD');
      held.push({ id: item.id, price: price(item) });
    } else {
      expect(answer.status(), JSON.stringify(body)).toBe(200);
      sent.set(item.id, price(item));
    }
  }
  expect(held).toHaveLength(3);
  const spentBefore = [...sent.values()].reduce((a, b) => a + b, 0);
  expect(spentBefore).toBeLessThanOrEqual(LIMIT);
  // reviewer2's own held adopt: not reviewer1's to see.
  const theirs = pulled.find((item) => !sent.has(item.id) && !held.some((h) => h.id === item.id))!;
  const answer = await reviewer2.request.post(`/v1/data/items/${theirs.id}/adopt`, { headers: { Origin: hub.url } });
  expect(answer.status()).toBe(409);
  otherHeld = theirs.id;

  // The reviewer sees their own holds, with what held them; Drop only, no Release.
  await reviewer1.goto('/team/holds');
  await expect(reviewer1.getByRole('heading', { name: 'Held adopts', level: 1 })).toBeVisible();
  const table = reviewer1.getByRole('table', { name: 'Held adopts' });
  for (const h of held) {
    const row = table.getByRole('row').filter({ hasText: h.id });
    await expect(row).toContainText(SUBSCRIPTION);
    await expect(row).toContainText(hub.accounts.reviewer1.email);
    await expect(row).toContainText('Organization daily limit');
    await expect(row.getByRole('button', { name: `Drop ${h.id}` })).toBeVisible();
  }
  await expect(table.getByRole('row')).toHaveCount(1 + held.length);
  await expect(table).not.toContainText(otherHeld);
  await expect(reviewer1.getByRole('button', { name: /^Release/ })).toHaveCount(0);
  await expect(reviewer1.getByRole('navigation', { name: 'Team' }).getByRole('link', { name: 'Holds', exact: true })).toBeVisible();

  // The reviewer drops their third.
  await table.getByRole('button', { name: `Drop ${held[2]!.id}` }).click();
  const dropDialog = reviewer1.getByRole('alertdialog', { name: `Drop the adopt of ${held[2]!.id}?` });
  await expect(dropDialog).toContainText('nothing is charged');
  await dropDialog.getByRole('button', { name: 'Drop adopt' }).click();
  await expect(reviewer1.getByRole('status').filter({ hasText: `Dropped: the adopt of ${held[2]!.id}` })).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(1 + 2);

  // The admin sees every open hold, counted in the team nav.
  await admin.goto('/team/holds');
  const holdsLink = admin.getByRole('navigation', { name: 'Team' }).getByRole('link', { name: /^Holds/ });
  await expect(holdsLink).toHaveAccessibleName('Holds 3 open');
  const adminTable = admin.getByRole('table', { name: 'Held adopts' });
  await expect(adminTable.getByRole('row')).toHaveCount(1 + 3);
  await expect(adminTable).toContainText(otherHeld);

  await adminTable.getByRole('button', { name: `Release ${held[0]!.id}` }).click();
  const release = admin.getByRole('alertdialog', { name: `Release the adopt of ${held[0]!.id}?` });
  await expect(release).toContainText(`charged ${formatMicros(held[0]!.price)} even though`);
  await expect(release).toContainText('even though it passes the organization daily limit');
  await release.getByRole('button', { name: 'Release and charge' }).click();
  await expect(admin.getByRole('status').filter({ hasText: `Released: the adopt of ${held[0]!.id} was sent to the vendor and charged` })).toBeVisible();

  await adminTable.getByRole('button', { name: `Drop ${held[1]!.id}` }).click();
  await admin
    .getByRole('alertdialog', { name: `Drop the adopt of ${held[1]!.id}?` })
    .getByRole('button', { name: 'Drop adopt' })
    .click();
  await expect(adminTable.getByRole('row')).toHaveCount(1 + 1);
  await expect(holdsLink).toHaveAccessibleName('Holds 1 open');

  // The simulator's own records: every adopt the hub sent under the limit, and beyond it only the released one.
  const receipts = chargedOnce(hub, seeded);
  expect([...receipts.keys()].sort()).toEqual([...sent.keys(), held[0]!.id].sort());
  expect(receipts.get(held[0]!.id)).toBe(held[0]!.price);
  for (const [id, micros] of sent) expect(receipts.get(id)).toBe(micros);
  const charged = [...receipts.values()].reduce((a, b) => a + b, 0);
  expect(charged).toBe(spentBefore + held[0]!.price);

  // The hub's spend now passes the limit by the admin's release, and its Budgets page says so.
  await admin.goto('/team/budgets');
  const percent = Math.floor((charged * 100) / LIMIT);
  await expect(admin.getByRole('meter', { name: `Organization daily spend: ${percent}% of the limit` })).toBeVisible();

  // The reviewer's resolved holds, when asked for.
  await reviewer1.getByRole('checkbox', { name: 'Show released and dropped' }).check();
  await expect(table.getByRole('row').filter({ hasText: held[0]!.id })).toContainText('released');
  await expect(table.getByRole('row').filter({ hasText: held[1]!.id })).toContainText('dropped');

  // The audit names who did what.
  const ids = Object.fromEntries(
    await Promise.all(
      [
        ['admin', admin],
        ['reviewer1', reviewer1],
      ].map(async ([name, page]) => [name, (await hubGet(page as Page, '/hub/v1/me')).member.id as string]),
    ),
  );
  const rows = async (action: string) =>
    (await hubGet(admin, `/hub/v1/audit?action=${action}`)).rows as { actor_id: string; item_id: string; amount_micros: number }[];
  expect((await rows('hold.release')).map((r) => [r.actor_id, r.item_id, r.amount_micros])).toEqual([[ids.admin, held[0]!.id, held[0]!.price]]);
  expect((await rows('hold.drop')).map((r) => [r.actor_id, r.item_id])).toEqual([
    [ids.reviewer1, held[2]!.id],
    [ids.admin, held[1]!.id],
  ]);
  const adopts = await rows('v1.adopt');
  expect(adopts.filter((r) => held.some((h) => h.id === r.item_id)).every((r) => r.actor_id === ids.reviewer1)).toBe(true);
});

test('a viewer sees the budgets and the holds, and no control on either', async ({ browser }) => {
  const viewer = await signedIn(browser, hub.accounts.viewer);
  // Spend → Budgets is the team's page through a hub (the browser's own limits hold nothing there), and so is its old address.
  await viewer.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Budgets', exact: true }).click();
  await expect(viewer).toHaveURL(/\/team\/budgets$/);
  await expect(viewer.getByRole('heading', { name: 'Budgets', level: 1 })).toBeVisible();
  await viewer.goto('/budgets');
  await expect(viewer).toHaveURL(/\/team\/budgets$/);
  await expect(viewer.getByRole('heading', { name: 'Budgets', level: 1 })).toBeVisible();
  await expect(viewer.getByText('Only an admin changes the limits.')).toBeVisible();
  const organization = viewer.getByRole('region', { name: 'Organization' });
  await expect(organization).toContainText('Daily limit: $0.05');
  await expect(organization.getByRole('meter', { name: /^Organization daily spend: \d+% of the limit$/ })).toBeVisible();
  // The team's priced subscriptions, by their labels; a live one charges nothing and is not listed.
  const subscriptions = viewer.getByRole('region', { name: 'Subscriptions' });
  await expect(subscriptions).toContainText(`Retail shelf audits${SUBSCRIPTION}`);
  await expect(subscriptions).not.toContainText('sub_live_support');
  await expect(viewer.getByRole('region', { name: 'Members' })).toContainText(hub.accounts.reviewer1.email);
  // No field and no button on the page (the shell's own menus aside).
  await expect(viewer.getByRole('main').getByRole('textbox')).toHaveCount(0);
  await expect(viewer.getByRole('main').getByRole('button')).toHaveCount(0);
  expect((await new AxeBuilder({ page: viewer }).analyze()).violations).toEqual([]);

  await viewer.goto('/team/holds');
  const table = viewer.getByRole('table', { name: 'Held adopts' });
  await expect(table.getByRole('row').filter({ hasText: otherHeld })).toContainText(hub.accounts.reviewer2.email);
  await expect(table.getByRole('button')).toHaveCount(0);
  await expect(table.getByRole('columnheader', { name: 'Actions' })).toHaveCount(0);
  // The count is the admin's to act on.
  await expect(viewer.getByRole('navigation', { name: 'Team' }).getByRole('link', { name: 'Holds', exact: true })).toBeVisible();
  expect((await new AxeBuilder({ page: viewer }).analyze()).violations).toEqual([]);
});

test('spend outside the hub (a receipt the vendor wrote for another key) shows on Budgets once an admin reads the receipts', async ({ browser }) => {
  const outside = 120_000;
  // A script's adopt, as the vendor records it: a receipt of the demo organization the hub did not cause.
  const db = new Database(join(hub.dataDir, 'simulator', 'service.db'));
  try {
    const { org_id } = db.prepare('SELECT org_id FROM receipts LIMIT 1').get() as { org_id: string };
    db.prepare(
      `INSERT INTO receipts (receipt_id, org_id, subscription_id, kind, item_id, quantity, amount_micros, created_at) VALUES (?, ?, ?, 'adopt', ?, 1, ?, ?)`,
    ).run('rcpt_e2e_outside', org_id, SUBSCRIPTION, 'item_adopted_by_a_script', outside, new Date().toISOString());
  } finally {
    db.close();
  }
  const admin = await signedIn(browser, hub.accounts.admin);
  await admin.goto('/team/budgets');
  const panel = admin.getByRole('region', { name: 'Spend outside the hub' });
  await admin.getByRole('button', { name: 'Read receipts now' }).click();
  await expect(panel.getByRole('status')).toContainText('Vendor receipts last read');
  await expect(panel).toContainText(`${formatMicros(outside)} today`);
  const budgets = await hubGet(admin, '/hub/v1/budgets');
  expect(budgets.spent.outside.day_micros).toBe(outside);
  // Read again: the same receipt is counted once.
  await admin.getByRole('button', { name: 'Read receipts now' }).click();
  await expect(admin.getByRole('button', { name: 'Read receipts now' })).toBeEnabled();
  expect((await hubGet(admin, '/hub/v1/budgets')).spent.outside.day_micros).toBe(outside);
  const viewer = await signedIn(browser, hub.accounts.viewer);
  await viewer.goto('/team/budgets');
  await expect(viewer.getByRole('region', { name: 'Spend outside the hub' })).toContainText(`${formatMicros(outside)} today`);
  await expect(viewer.getByRole('button', { name: 'Read receipts now' })).toHaveCount(0);
});

test('screenshots of Budgets and Holds at 1440x900, 1280x720 and 390 px, and the release dialog', async ({ browser }) => {
  for (const size of [
    { width: 1440, height: 900 },
    { width: 1280, height: 720 },
    { width: 390, height: 844 },
  ]) {
    const page = await signedIn(browser, hub.accounts.admin, size);
    for (const path of ['budgets', 'holds']) {
      await page.goto(`/team/${path}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.screenshot({ path: `test-results/team-screens/${path}-${size.width}.png`, fullPage: true });
      // Nothing runs off the side at any width.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${path} at ${size.width}`).toBe(true);
      if (size.width === 1280) expect((await new AxeBuilder({ page }).analyze()).violations, path).toEqual([]);
    }
    await page.getByRole('button', { name: `Release ${otherHeld}` }).click();
    const dialog = page.getByRole('alertdialog');
    const box = (await dialog.boundingBox())!;
    expect(Math.abs(box.x + box.width / 2 - size.width / 2)).toBeLessThanOrEqual(2);
    await page.screenshot({ path: `test-results/team-screens/release-dialog-${size.width}.png` });
    if (size.width === 1280) expect((await new AxeBuilder({ page }).include('dialog').analyze()).violations).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  }
});
