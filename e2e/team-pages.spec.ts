import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import Papa from 'papaparse';
import { startE2eHub, signedInPage, type E2eHub, type HubAccount } from './support/hub';

/*
 * The team pages against a real hub started with --demo (its simulator in-process), in real
 * browser contexts: one per member, each signed in to the hub with its own session cookie. Each
 * step is checked on the hub itself (its answers to the member's own session, its audit log).
 */

test.describe.configure({ mode: 'serial' });

let hub: E2eHub;
const contexts: BrowserContext[] = [];

test.beforeAll(async () => {
  hub = await startE2eHub('team');
});
test.afterAll(async () => {
  for (const context of contexts) await context.close();
  await hub?.stop();
});

/** A browser context of its own, signed in to the hub as this account through the sign-in form. */
const signedIn = (browser: Browser, account: Pick<HubAccount, 'email' | 'password'>, viewport?: { width: number; height: number }) =>
  signedInPage(browser, hub, account, contexts, viewport);

/** GET on the hub with the page's own cookie: what the hub holds now. */
const hubGet = async (page: Page, path: string) => {
  const answer = await page.request.get(path);
  return { status: answer.status(), body: (await answer.json()) as any };
};

/** Every record of every object store of every IndexedDB database of the page's origin, as text. */
async function dumpIndexedDb(): Promise<string> {
  const out: unknown[] = [];
  for (const { name } of await indexedDB.databases()) {
    if (!name) continue;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open(name);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    for (const store of Array.from(db.objectStoreNames)) {
      const all = db.transaction(store).objectStore(store).getAll();
      out.push(name, store, await new Promise((resolve) => (all.onsuccess = () => resolve(all.result))));
    }
    db.close();
  }
  return JSON.stringify(out);
}

const fakeVendorKey = () => `dds_live_sk_${randomBytes(24).toString('base64url')}`;
const fakeJwt = () => `eyJhbGciOiJIUzI1NiJ9.${randomBytes(30).toString('base64url')}.${randomBytes(32).toString('base64url')}`;

test('an admin adds a member who signs in with the shown password, changes their role, and removes them (their session is refused next)', async ({
  browser,
}) => {
  const admin = await signedIn(browser, hub.accounts.admin);
  await admin.goto('/team');
  await expect(admin).toHaveURL(/\/team\/members$/);
  await expect(admin.getByRole('heading', { name: 'Members', level: 1 })).toBeVisible();

  await admin.getByRole('textbox', { name: 'Email' }).fill('newcomer@team.test');
  await admin.getByLabel('Role', { exact: true }).selectOption('reviewer');
  await admin.getByRole('button', { name: 'Add member' }).click();
  const shown = admin.getByRole('textbox', { name: 'Password' });
  await expect(shown).toHaveValue(/^[A-Za-z0-9_-]{24}$/);
  await expect(admin.getByRole('button', { name: 'Copy password' })).toBeVisible();
  const password = await shown.inputValue();
  await expect(admin.getByRole('cell', { name: 'newcomer@team.test', exact: true })).toBeVisible();

  // The newcomer signs in with it, in a browser of their own, and sees the team pages a reviewer may.
  const newcomer = await signedIn(browser, { email: 'newcomer@team.test', password });
  await newcomer.goto('/team');
  await expect(newcomer).toHaveURL(/\/team\/tokens$/);
  await expect(newcomer.getByRole('navigation', { name: 'Team' }).getByRole('link')).toHaveText([
    'Access tokens',
    'Settings',
    'Budgets',
    'Holds',
    'Reviewers',
    'Queue',
  ]);

  // Done: the password leaves the page.
  await admin.getByRole('button', { name: 'Done' }).click();
  await expect(admin.getByRole('textbox', { name: 'Password' })).toHaveCount(0);
  expect(await admin.locator('body').innerText()).not.toContain(password);

  // A role changes only once confirmed, in a centred modal dialog naming the member and both roles.
  const role = admin.getByRole('combobox', { name: 'Role of newcomer@team.test' });
  await role.selectOption('viewer');
  const confirm = admin.getByRole('alertdialog', { name: 'Change the role of newcomer@team.test?' });
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText('From Reviewer to Viewer');
  const box = (await confirm.boundingBox())!;
  const viewport = admin.viewportSize()!;
  expect(Math.abs(box.x + box.width / 2 - viewport.width / 2)).toBeLessThan(2);
  expect(Math.abs(box.y + box.height / 2 - viewport.height / 2)).toBeLessThan(2);
  // Modal: the rest of the page is out of reach while it asks.
  expect(await admin.evaluate(() => document.querySelector('dialog[open]')?.matches(':modal'))).toBe(true);
  // Cancel puts the select back, and nothing reached the hub.
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(role).toHaveValue('reviewer');
  expect((await hubGet(newcomer, '/hub/v1/me')).body.member?.role).toBe('reviewer');
  // Esc cancels too.
  await role.selectOption('admin');
  await expect(confirm).toContainText('From Reviewer to Admin');
  await admin.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(role).toHaveValue('reviewer');
  // Confirmed, it applies.
  await role.selectOption('viewer');
  await confirm.getByRole('button', { name: 'Make Viewer' }).click();
  await expect(confirm).toBeHidden();
  await expect(role).toHaveValue('viewer');
  await expect.poll(async () => (await hubGet(newcomer, '/hub/v1/me')).body.member?.role).toBe('viewer');

  await admin.getByRole('button', { name: 'Remove newcomer@team.test' }).click();
  const dialog = admin.getByRole('alertdialog', { name: 'Remove newcomer@team.test?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Remove member' }).click();
  await expect(dialog).toBeHidden();
  await expect(admin.getByRole('cell', { name: 'newcomer@team.test', exact: true })).toHaveCount(0);
  const refused = await hubGet(newcomer, '/hub/v1/me');
  expect(refused.status).toBe(401);
  // And their page, reloaded, is sent to sign in.
  await newcomer.reload();
  await expect(newcomer).toHaveURL(/\/sign-in\?redirect=%2Fteam%2Ftokens$/);
});

test('an admin adds and rotates a vendor key: the key and JWT are in no answer, page text, field or storage', async ({ browser }) => {
  const admin = await signedIn(browser, hub.accounts.admin);
  const answers: string[] = [];
  admin.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/hub/'))
      void response.text().then(
        (text) => answers.push(text),
        () => undefined,
      );
  });
  const [key, jwt, rotated] = [fakeVendorKey(), fakeJwt(), fakeVendorKey()];
  await admin.goto('/team/vendor-keys');
  await admin.getByRole('textbox', { name: 'Name' }).fill('backup');
  // A subscription no other test pulls: a second key covering every one would stand in for the demo's.
  await admin.getByRole('textbox', { name: 'Subscriptions' }).fill('sub_backup_only');
  await admin.getByLabel('Vendor API key').fill(key);
  await admin.getByLabel('Dashboard JWT (optional)').fill(jwt);
  await expect(admin.getByLabel('Vendor API key')).toHaveAttribute('type', 'password');
  await admin.getByRole('button', { name: 'Add key' }).click();
  await expect(admin.getByRole('status').filter({ hasText: 'Key backup added' })).toBeVisible();
  await expect(admin.getByLabel('Vendor API key')).toHaveValue('');
  await expect(admin.getByLabel('Dashboard JWT (optional)')).toHaveValue('');
  // A second key for the same subscription is refused, and the page says which key covers it.
  await admin.getByRole('textbox', { name: 'Name' }).fill('backup-twice');
  await admin.getByRole('textbox', { name: 'Subscriptions' }).fill('sub_backup_only');
  await admin.getByLabel('Vendor API key').fill(fakeVendorKey());
  await admin.getByRole('button', { name: 'Add key' }).click();
  await expect(admin.getByRole('paragraph').filter({ hasText: 'subscription sub_backup_only is already covered by the vendor key backup' })).toBeVisible();
  await expect(admin.getByRole('cell', { name: 'backup-twice', exact: true })).toHaveCount(0);
  const row = admin.getByRole('row').filter({ has: admin.getByRole('cell', { name: 'backup', exact: true }) });
  await expect(row.getByText('Has JWT')).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Never' })).toBeVisible();

  await admin.getByRole('button', { name: 'Rotate backup' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Rotate backup' });
  await dialog.getByLabel('Vendor API key').fill(rotated);
  await dialog.getByRole('button', { name: 'Rotate key' }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByRole('cell', { name: 'Never' })).toHaveCount(0);
  await expect(row.getByText('No JWT')).toBeVisible();
  const listed = (await hubGet(admin, '/hub/v1/vendor-keys')).body.vendor_keys.find((k: { name: string }) => k.name === 'backup');
  expect(listed).toMatchObject({ has_jwt: false, rotated_at: expect.any(String) });

  await admin.reload();
  await expect(row).toBeVisible();
  const secrets = [key, jwt, rotated, key.slice(-16), rotated.slice(-16), jwt.split('.')[2]!];
  const seen = [
    ...answers,
    await admin.locator('body').innerText(),
    await admin.content(),
    await admin.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })),
    await admin.evaluate(dumpIndexedDb),
    JSON.stringify(await admin.context().cookies()),
  ].join('\n');
  expect(answers.length).toBeGreaterThan(3);
  for (const secret of secrets) expect(seen).not.toContain(secret);
});

test('a token is shown once, works from a script, and stops working when revoked', async ({ browser }) => {
  const admin = await signedIn(browser, hub.accounts.admin);
  await admin.goto('/team/tokens');
  await admin.getByRole('textbox', { name: 'Token name' }).fill('nightly export');
  await admin.getByLabel('Scope').selectOption('read');
  await admin.getByRole('spinbutton', { name: 'Expires in (days)' }).fill('7');
  await admin.getByRole('button', { name: 'Create token' }).click();
  const shown = admin.getByRole('textbox', { name: 'New token' });
  await expect(shown).toHaveValue(/^ddh_pat_/);
  const token = await shown.inputValue();

  // As a script would: no cookie, the token as a bearer.
  const me = await fetch(`${hub.url}/hub/v1/me`, { headers: { Authorization: `Bearer ${token}` } });
  expect(me.status).toBe(200);
  expect(((await me.json()) as { member: { email: string } }).member.email).toBe(hub.accounts.admin.email);

  await admin.reload();
  const row = admin.getByRole('row').filter({ hasText: 'nightly export' });
  await expect(row.getByText('Active')).toBeVisible();
  expect(await admin.content()).not.toContain(token);
  await row.getByRole('button', { name: 'Revoke nightly export' }).click();
  await admin.getByRole('alertdialog', { name: 'Revoke nightly export?' }).getByRole('button', { name: 'Revoke token' }).click();
  await expect(row.getByText('Revoked')).toBeVisible();
  expect((await fetch(`${hub.url}/hub/v1/me`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(401);
});

test('the audit page filters by member and exports CSV and JSON Lines with the same rows', async ({ browser }) => {
  const reviewer = await signedIn(browser, hub.accounts.reviewer1);
  const reviewerId = (await hubGet(reviewer, '/hub/v1/me')).body.member.id as string;
  await reviewer.request.post('/hub/v1/tokens', {
    data: { name: 'audited', scope: 'read', subscriptions: ['*'], expires_in_days: 1 },
    headers: { Origin: hub.url },
  });
  const admin = await signedIn(browser, hub.accounts.admin);
  await admin.goto('/team/audit');
  await admin.getByLabel('Member').selectOption({ label: hub.accounts.reviewer1.email });
  await expect(admin).toHaveURL(new RegExp(`member=${reviewerId}`));
  const table = admin.getByRole('table', { name: 'Audit rows' });
  const memberCells = table.locator('tbody tr td:nth-child(3)');
  await expect(memberCells.first()).toHaveText(hub.accounts.reviewer1.email);
  const expected = (await hubGet(admin, `/hub/v1/audit?member=${reviewerId}&limit=1000`)).body.rows as { seq: number; actor_id: string }[];
  expect(expected.length).toBeGreaterThanOrEqual(2);
  await expect(memberCells).toHaveText(expected.map(() => hub.accounts.reviewer1.email));
  // Newest first on screen; the hub's own order (and the exports below) is the chain's, oldest first.
  await expect(table.locator('tbody tr td:nth-child(1)')).toHaveText(expected.map((r) => String(r.seq)).reverse());

  mkdirSync('test-results', { recursive: true });
  const csvDownload = admin.waitForEvent('download');
  await admin.getByRole('link', { name: 'Export CSV' }).click();
  const csv = await csvDownload;
  expect(csv.suggestedFilename()).toMatch(/^hub-audit-\d{8}T\d{6}Z\.csv$/);
  const rows = Papa.parse<Record<string, string>>(readFileSync((await csv.path())!, 'utf8').trim(), { header: true }).data;
  expect(rows.map((r) => Number(r.seq))).toEqual(expected.map((r) => r.seq));
  expect(rows.every((r) => r.actor_id === reviewerId)).toBe(true);

  const jsonlDownload = admin.waitForEvent('download');
  await admin.getByRole('link', { name: 'Export JSON Lines' }).click();
  const jsonl = await jsonlDownload;
  expect(jsonl.suggestedFilename()).toMatch(/\.jsonl$/);
  const lines = readFileSync((await jsonl.path())!, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { seq: number; actor_id: string });
  expect(lines).toEqual(expected);

  // Another filter, chosen by its name: token creations only, the same member; the export follows.
  await admin.getByLabel('Action').selectOption({ label: 'Access token created' });
  await expect(admin).toHaveURL(/action=token\.create/);
  await expect(table.locator('tbody tr')).toHaveCount(expected.filter((r) => (r as unknown as { action: string }).action === 'token.create').length);
  const filtered = admin.waitForEvent('download');
  await admin.getByRole('link', { name: 'Export JSON Lines' }).click();
  const narrowed = readFileSync((await (await filtered).path())!, 'utf8')
    .trim()
    .split('\n');
  expect(narrowed.map((line) => JSON.parse(line).action)).toEqual(['token.create']);

  // A date range: today (UTC, the hub's days) keeps the row, a range that ended yesterday has none, and its export is empty.
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  await admin.getByLabel('From').fill(day(0));
  await expect(admin).toHaveURL(new RegExp(`from=${day(0)}`));
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await admin.getByLabel('From').fill(day(-3));
  await admin.getByLabel('To (included)').fill(day(-1));
  await expect(table.getByText('No audit row matches these filters.')).toBeVisible();
  const empty = admin.waitForEvent('download');
  await admin.getByRole('link', { name: 'Export JSON Lines' }).click();
  expect(readFileSync((await (await empty).path())!, 'utf8')).toBe('');
});

test('the audit page pages through a long log, 100 rows at a time', async ({ browser }) => {
  const reviewer = await signedIn(browser, hub.accounts.reviewer2);
  const reviewerId = (await hubGet(reviewer, '/hub/v1/me')).body.member.id as string;
  for (let i = 0; i < 120; i++) {
    const made = await reviewer.request.post('/hub/v1/tokens', {
      data: { name: `paged ${i}`, scope: 'read', subscriptions: ['*'], expires_in_days: 1 },
      headers: { Origin: hub.url },
    });
    expect(made.status()).toBe(201);
  }
  const admin = await signedIn(browser, hub.accounts.admin);
  // The hub's record of these rows, in the chain's order.
  const made = ((await hubGet(admin, `/hub/v1/audit?member=${reviewerId}&action=token.create&limit=1000`)).body.rows as { seq: number }[]).map((r) =>
    String(r.seq),
  );
  expect(made).toHaveLength(120);
  const newest = [...made].reverse();
  await admin.goto(`/team/audit?member=${reviewerId}&action=token.create`);
  const seqs = admin.getByRole('table', { name: 'Audit rows' }).locator('tbody tr td:nth-child(1)');
  // Newest first by default: the 100 newest, then the 20 oldest, each row once.
  await expect(admin.getByLabel('Order')).toHaveValue('newest');
  await expect(seqs).toHaveText(newest.slice(0, 100));
  await expect(admin.getByRole('button', { name: 'First page' })).toHaveCount(0);
  await admin.getByRole('button', { name: 'Next page' }).click();
  await expect(seqs).toHaveText(newest.slice(100));
  await expect(admin.getByRole('button', { name: 'Next page' })).toHaveCount(0);
  await admin.getByRole('button', { name: 'First page' }).click();
  await expect(seqs).toHaveText(newest.slice(0, 100));

  // Flipped: oldest first from its first page, kept in the URL, so a reload keeps it (and its page).
  await admin.getByLabel('Order').selectOption({ label: 'Oldest first' });
  await expect(admin).toHaveURL(/order=oldest/);
  await expect(seqs).toHaveText(made.slice(0, 100));
  await admin.getByRole('button', { name: 'Next page' }).click();
  await expect(seqs).toHaveText(made.slice(100));
  await admin.reload();
  await expect(admin.getByLabel('Order')).toHaveValue('oldest');
  await expect(seqs).toHaveText(made.slice(100));
  // Another filter keeps the order and starts at its first page.
  await admin.getByLabel('Action').selectOption({ label: 'Access token revoked' });
  await expect(admin).toHaveURL(/order=oldest/);
  await expect(admin).not.toHaveURL(/after=/);
  await admin.getByLabel('Action').selectOption({ label: 'Access token created' });
  await expect(seqs).toHaveText(made.slice(0, 100));
  await admin.getByLabel('Order').selectOption({ label: 'Newest first' });
  await expect(admin).not.toHaveURL(/order=/);
  await expect(seqs).toHaveText(newest.slice(0, 100));
});

test('a viewer reads the audit log and settings with no control to change anything; admin-only pages say so', async ({ browser }) => {
  // A lease: a row the Action filter once did not offer. A reviewer pulls two items into the team's inbox, then takes them.
  const reviewer = await signedIn(browser, hub.accounts.reviewer1);
  const subscription = 'sub_sim_retail';
  await reviewer.goto(`/review/${subscription}?limit=2&queue=all`);
  await reviewer.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect.poll(async () => (await hubGet(reviewer, `/hub/v1/inbox?subscription_id=${subscription}&limit=10`)).body.items.length).toBeGreaterThan(0);
  const taken = await reviewer.request.post('/hub/v1/queue/take', { data: { subscription_id: subscription, size: 2 }, headers: { Origin: hub.url } });
  expect(taken.status(), await taken.text()).toBeLessThan(300);

  // Phone width, where the header's decisions status once logged React #467 (#520 minified) on this page.
  const viewer = await signedIn(browser, hub.accounts.viewer, { width: 390, height: 844 });
  const logged: string[] = [];
  viewer.on('console', (message) => void (message.type() === 'error' && logged.push(`console: ${message.text()}`)));
  viewer.on('pageerror', (error) => logged.push(`pageerror: ${error.message}`));
  // Opened from the team's first page and by its address, each a page load where the outbox is not
  // loaded yet (no /review first, whose loader loads it), a few times: the error came with some loads, not all.
  for (let i = 0; i < 4; i++) {
    await viewer.goto('/team');
    await expect(viewer.getByRole('heading', { level: 1 })).toBeVisible();
    await viewer.getByRole('navigation', { name: 'Team' }).getByRole('link', { name: 'Audit' }).click();
    await expect(viewer.getByRole('table', { name: 'Audit rows' })).toBeVisible();
    await expect(viewer.getByRole('status', { name: /^Decisions: / })).toBeVisible();
    await viewer.goto('/team/audit');
    await expect(viewer.getByRole('table', { name: 'Audit rows' })).toBeVisible();
    await expect(viewer.getByRole('status', { name: /^Decisions: / })).toBeVisible();
  }
  expect(logged).toEqual([]);

  // The Action filter offers every action the hub writes, grouped, by name: the lease rows are a choice away.
  const action = viewer.getByLabel('Action');
  await expect(action.locator('optgroup')).toHaveCount(8);
  for (const group of ['Queue', 'Budgets and holds', 'Lots', 'Vendor calls and decisions'])
    await expect(action.locator(`optgroup[label="${group}"]`)).toHaveCount(1);
  await expect(action.locator('optgroup[label="Queue"] option')).toHaveText([
    'Lease taken',
    'Lease released',
    'Lease expired',
    'Lease taken back',
    'Lease idle time set',
  ]);
  await action.selectOption({ label: 'Lease taken' });
  await expect(viewer).toHaveURL(/action=lease\.take/);
  const leases = (await hubGet(viewer, '/hub/v1/audit?action=lease.take')).body.rows as { seq: number }[];
  expect(leases.length).toBeGreaterThan(0);
  const rows = viewer.getByRole('table', { name: 'Audit rows' }).locator('tbody tr');
  await expect(rows.locator('td:nth-child(1)')).toHaveText(leases.map((r) => String(r.seq)).reverse());
  await expect(rows.first().locator('td:nth-child(4)')).toContainText('Lease taken');
  await viewer.screenshot({ path: 'test-results/team-screens/audit-viewer-leases-390.png', fullPage: true });
  expect(logged).toEqual([]);

  await viewer.setViewportSize({ width: 1280, height: 800 });
  await viewer.goto('/team/audit');
  await expect(viewer.getByRole('table', { name: 'Audit rows' })).toBeVisible();
  await expect(viewer.getByRole('navigation', { name: 'Team' }).getByRole('link')).toHaveText([
    'Access tokens',
    'Audit',
    'Settings',
    'Budgets',
    'Holds',
    'Overlap',
    'Reviewers',
    'Queue',
  ]);
  await viewer.goto('/team/settings');
  await expect(viewer.getByRole('heading', { name: 'Team settings' })).toBeVisible();
  await expect(viewer.getByText('Only an admin changes them.')).toBeVisible();
  await expect(viewer.getByRole('button', { name: /Save|Add|Remove|Move/ })).toHaveCount(0);
  await expect(viewer.getByRole('textbox')).toHaveCount(0);
  await viewer.goto('/team/members');
  await expect(viewer.getByText('Only an admin manages the team’s members.')).toBeVisible();
  await expect(viewer.getByRole('button', { name: /Add member|Remove/ })).toHaveCount(0);
  await viewer.goto('/team/vendor-keys');
  await expect(viewer.getByText('Only an admin manages the vendor keys the hub holds.')).toBeVisible();
  // A token of a viewer cannot decide: the choice is not offered.
  await viewer.goto('/team/tokens');
  await expect(viewer.getByLabel('Scope').locator('option')).toHaveText(['Read']);
});

test('settings an admin saves are what a reviewer in another browser sees', async ({ browser }) => {
  const admin = await signedIn(browser, hub.accounts.admin);
  await admin.goto('/team/settings');
  await admin.getByRole('button', { name: 'Add reason code' }).click();
  await admin.getByRole('textbox', { name: 'Code 1' }).fill('blurry');
  await admin.getByRole('textbox', { name: 'Label 1' }).fill('Blurry image');
  await admin.getByRole('button', { name: 'Add reason code' }).click();
  await admin.getByRole('textbox', { name: 'Code 2' }).fill('wrong_label');
  await admin.getByRole('textbox', { name: 'Label 2' }).fill('Wrong label');
  await admin.getByRole('button', { name: 'Move code 2 up' }).click();
  await admin.getByRole('button', { name: 'Save settings' }).click();
  await expect(admin.getByRole('status').filter({ hasText: 'Saved: every member sees them now.' })).toBeVisible();

  // A bad code is refused with the hub's reason, and nothing changes.
  await admin.getByRole('textbox', { name: 'Code 1' }).fill('Not Snake');
  await admin.getByRole('button', { name: 'Save settings' }).click();
  await expect(admin.getByRole('alert')).toContainText('snake_case');

  const reviewer = await signedIn(browser, hub.accounts.reviewer2);
  await reviewer.goto('/team/settings');
  const codes = reviewer.getByRole('table', { name: 'Reason codes' });
  await expect(codes.locator('tbody tr')).toHaveText([/wrong_label\s*Wrong label/, /blurry\s*Blurry image/]);
  await expect(reviewer.getByRole('button', { name: 'Save settings' })).toHaveCount(0);

  // The review's dispute dialog offers the team's codes, in the team's order (not this browser's defaults).
  await reviewer.goto('/review/sub_live_support?limit=5&queue=all');
  await expect(reviewer.getByRole('button', { name: 'Pull', exact: true })).toBeVisible();
  await reviewer.keyboard.press('n');
  await expect(reviewer.getByRole('listbox', { name: 'Items on this page' }).getByRole('option').first()).toBeVisible();
  await reviewer.keyboard.press('d');
  const dialog = reviewer.getByRole('form', { name: 'Dispute reason' });
  await expect(dialog.getByRole('radio', { name: 'Blurry image (blurry)' })).toBeVisible();
  await expect(dialog.getByRole('radio', { name: 'Wrong label (wrong_label)' })).toBeVisible();
  await expect(dialog.getByRole('radio', { name: 'Missing object (missing_object)' })).toHaveCount(0);
  await reviewer.keyboard.press('Escape');
  // A reviewer cannot change them from the console's own reasons page: it says whose they are.
  await reviewer.goto('/dispute-reasons');
  await expect(reviewer.getByText('only an admin of the team changes them', { exact: false })).toBeVisible();
});

test('signed out, a team page sends to sign in and back; without a hub, a page says so', async ({ browser, page }) => {
  const context = await browser.newContext({ baseURL: hub.url });
  contexts.push(context);
  const anonymous = await context.newPage();
  await anonymous.goto('/team/audit?action=member.add');
  await expect(anonymous).toHaveURL(`${hub.url}/sign-in?redirect=${encodeURIComponent('/team/audit?action=member.add')}`);

  // The E2E service is the simulator in personal mode: no hub behind it.
  await page.goto('/team');
  await expect(page.getByRole('heading', { name: 'This console is not connected to a team hub' })).toBeVisible();
});
