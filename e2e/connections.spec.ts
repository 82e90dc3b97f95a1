import { expect, test, type Page } from '@playwright/test';
import Database from 'libsql';
import { join } from 'node:path';
import { serviceApi } from './support/api';
import { connectDemo, navTo } from './support/console';
import { storedRows } from './support/idb';
import { createKey, demoCredentials, E2E_DATA, revokeKey } from './support/service';

/** Issue 10: what a new user hit with connections. */

const KEY_SHAPE = "dds_live_sk_ (or your service's prefix) followed by 32 URL-safe characters";
const status = (page: Page) => page.getByRole('status', { name: /^Connection status:/ });
const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

/** Fills the connect form without submitting it. */
async function fillConnect(page: Page, name: string, key: string, subscription = 'sub_live_streets') {
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByLabel('API key', { exact: true }).fill(key);
  await page.getByRole('textbox', { name: 'Subscription 1 ID' }).fill(subscription);
}

/** A JWT (unsigned: the console only decodes it) that expires at `exp` (seconds). */
const jwtExpiring = (exp: number) => {
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: 'org', exp })}.c2ln`;
};

/** Connects with a fresh key, sets the undo window, and records two live adopts that are not sent yet. */
async function twoUnsentDecisions(page: Page, name: string, graceSeconds: number) {
  const key = createKey(name, ['sub_live_streets']);
  await page.goto('/connection');
  await fillConnect(page, name, key.key);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Review', level: 1 })).toBeVisible();
  await page.evaluate((s) => window.localStorage.setItem('dds.settings', JSON.stringify({ graceSeconds: s })), graceSeconds);
  await page.goto('/review/sub_live_streets?limit=5');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option').first()).toBeVisible();
  const ids: string[] = [];
  for (let i = 0; i < 2; i++) {
    const title = (await page.getByRole('region', { name: 'Focused item' }).getByRole('heading').textContent())!;
    ids.push(title.replace('Submission ', ''));
    await page.keyboard.press('a');
  }
  await expect(page.getByRole('status', { name: /Decisions: 2 unsent/ })).toBeVisible();
  return { key, ids };
}

test('Connect verifies the key: the organization, key name and id are shown, and the header says connected', async ({ page }) => {
  const key = createKey('Verified on connect', ['sub_live_streets']);
  const verifications: string[] = [];
  page.on('request', (r) => r.url().includes('/v1/auth/verify-key') && verifications.push(r.method()));
  await page.goto('/connection');
  await fillConnect(page, 'Checked', key.key);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Review', level: 1 })).toBeVisible();
  expect(verifications).toEqual(['POST']);
  await expect(status(page)).toHaveAccessibleName('Connection status: verified');
  await navTo(page, 'Connection');
  const verified = page.getByLabel('Verified key of Checked');
  await expect(verified).toContainText(demoCredentials().org_id);
  await expect(verified).toContainText('Verified on connect');
  await expect(verified).toContainText(key.key_id);

  // After a reload the key's verification is kept with the connection: the header still says so
  // (issue 22: it said "not checked yet" on most pages right after Connect).
  await page.reload();
  await expect(status(page)).toHaveAccessibleName('Connection status: verified');
  // A keyed request the service answers is an observation.
  await nav(page, 'Usage').click();
  await expect(page.getByRole('heading', { name: 'Usage', level: 1 })).toBeVisible();
  await expect(status(page)).toHaveAccessibleName('Connection status: verified');
});

test('a key the service refuses is not saved, and says why', async ({ page }) => {
  const revoked = createKey('Revoked before connect', ['sub_live_streets']);
  revokeKey(revoked.key_id);
  await page.goto('/connection');
  await fillConnect(page, 'Refused', revoked.key);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByText(/The service refused this key \(KEY_REVOKED\)/)).toBeVisible();
  await expect(page.getByLabel('API key', { exact: true })).toHaveAttribute('aria-invalid', 'true');

  // A well-formed key the service never issued.
  await page.getByLabel('API key', { exact: true }).fill(`dds_live_sk_${'Z'.repeat(32)}`);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByText(/The service refused this key \(INVALID_API_KEY\)/)).toBeVisible();

  await expect(page.getByRole('heading', { name: 'Saved connections' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Connect', exact: true })).toBeVisible();
  await expect(page.getByRole('status', { name: /Connection status: verified/ })).toHaveCount(0);
});

test('an unreachable service is said so: nothing is saved unless asked, and the header says unreachable', async ({ page }) => {
  const key = createKey('Service down', ['sub_live_streets']);
  await page.route('**/v1/auth/verify-key', (route) => route.abort('connectionrefused'));
  await page.goto('/connection');
  await fillConnect(page, 'Down', key.key);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'cannot be reached' });
  await expect(alert).toContainText('Nothing was saved.');
  await expect(page.getByRole('heading', { name: 'Saved connections' })).toHaveCount(0);

  await alert.getByRole('button', { name: 'Save without verifying' }).click();
  await expect(page.getByRole('heading', { name: 'Review', level: 1 })).toBeVisible();
  await expect(status(page)).toHaveAccessibleName(/^Connection status: unreachable since \d{1,2}:\d{2}/);

  // The service back: a verify observes it.
  await page.unroute('**/v1/auth/verify-key');
  await navTo(page, 'Keys');
  await page.getByRole('button', { name: 'Verify key' }).click();
  await expect(page.getByRole('status', { name: 'Key verified' })).toContainText('Service down');
  await expect(status(page)).toHaveAccessibleName('Connection status: verified');

  // Down again mid-session: a keyed request that cannot reach it is observed too. The whole
  // service goes down, as it does: with only one endpoint refused, a request to another that the
  // page makes alongside (the outbox's verify-key, on a loaded machine answered last) rightly
  // observed it answering, and the header said verified.
  await page.route('**/v1/**', (route) => route.abort('connectionrefused'));
  await nav(page, 'Usage').click();
  await expect(status(page)).toHaveAccessibleName(/^Connection status: unreachable since/);
});

test('edit replaces only the JWT, only the subscriptions, or only the key (verified)', async ({ page }) => {
  const demo = demoCredentials();
  await connectDemo(page);
  await navTo(page, 'Connection');
  await expect(page.getByLabel('API key of Local demo')).toHaveText(`dds_live_sk_…${demo.api_key.slice(-4)}`);

  // Only the JWT: the key field stays blank and the key is kept.
  const exp = Math.floor(Date.UTC(2031, 0, 2, 12) / 1000);
  await page.getByRole('button', { name: 'Edit Local demo' }).click();
  await expect(page.getByLabel('API key', { exact: true })).toHaveValue('');
  await page.getByLabel('Dashboard JWT (optional)').fill(jwtExpiring(exp));
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { name: 'Review', level: 1 })).toBeVisible();
  await navTo(page, 'Keys');
  await expect(page.getByLabel('Active API key')).toHaveText(`dds_live_sk_…${demo.api_key.slice(-4)}`);
  await navTo(page, 'Connection');
  await expect(page.getByText(`JWT valid until ${await page.evaluate((s) => new Date(s * 1000).toLocaleString(), exp)}`)).toBeVisible();

  // Only the subscriptions: an unknown one is refused with its reason; without it, the rest is saved.
  await page.getByRole('button', { name: 'Edit Local demo' }).click();
  await page.getByRole('button', { name: 'Add subscription' }).click();
  const last = await page.getByRole('textbox', { name: /Subscription \d+ ID/ }).count();
  await page.getByRole('textbox', { name: `Subscription ${last} ID` }).fill('sub_extra');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('textbox', { name: `Subscription ${last} ID` })).toHaveAccessibleDescription(/^Unknown: .*sub_extra/);
  await expect(page.getByRole('alert').filter({ hasText: 'One subscription was refused' })).toBeVisible();
  const dropped = await page.getByRole('textbox', { name: `Subscription ${last - 1} ID` }).inputValue();
  await page.getByRole('button', { name: `Remove subscription ${last}` }).click();
  await page.getByRole('button', { name: `Remove subscription ${last - 1}` }).click();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { name: 'Review', level: 1 })).toBeVisible();
  await navTo(page, 'Connection');
  await expect(page.getByText('sub_live_streets · live')).toBeVisible();
  await expect(page.getByText(new RegExp(`^${dropped} · `))).toHaveCount(0);
  await expect(page.getByText(/^sub_extra · /)).toHaveCount(0);
  await expect(page.getByLabel('API key of Local demo')).toHaveText(`dds_live_sk_…${demo.api_key.slice(-4)}`);

  // A new key is verified like on connect: a refused one changes nothing.
  const revoked = createKey('Revoked replacement', ['sub_live_streets']);
  revokeKey(revoked.key_id);
  await page.getByRole('button', { name: 'Edit Local demo' }).click();
  await page.getByLabel('API key', { exact: true }).fill(revoked.key);
  await page.getByRole('button', { name: 'Save key' }).click();
  await expect(page.getByText(/The service refused this key \(KEY_REVOKED\)/)).toBeVisible();
  // The replacement covers the connection's subscriptions (each is checked with the new key).
  const fresh = createKey(
    'Good replacement',
    demo.subscriptions.map((sub) => sub.subscription_id),
  );
  await page.getByLabel('API key', { exact: true }).fill(fresh.key);
  await page.getByRole('button', { name: 'Save key' }).click();
  await expect(page.getByRole('heading', { name: 'Review', level: 1 })).toBeVisible();
  await navTo(page, 'Keys');
  await expect(page.getByLabel('Active API key')).toHaveText(`dds_live_sk_…${fresh.key.slice(-4)}`);
  await expect(page.getByText('Verified when saved')).toContainText('Good replacement');
  await expect(status(page)).toHaveAccessibleName('Connection status: verified');
});

/** The live subscription's position and the organization's receipts, read from the service's database (read-only, while it runs). */
function positionAndReceipts(subscriptionId: string) {
  const db = new Database(join(E2E_DATA, 'service.db'), { readonly: true });
  try {
    const { position } = db.prepare('SELECT position FROM subscriptions WHERE subscription_id = ?').get(subscriptionId) as { position: number };
    const { n } = db.prepare('SELECT COUNT(*) AS n FROM receipts').get() as { n: number };
    return { position, receipts: n };
  } finally {
    db.close();
  }
}

test('Connect checks each subscription ID and refuses, with its reason, an unknown one, one the key does not cover and one of the wrong kind', async ({
  page,
}) => {
  const key = createKey('Narrow', ['sub_live_streets', 'sub_sim_retail']);
  const before = positionAndReceipts('sub_live_streets');
  await page.goto('/connection');
  await fillConnect(page, 'Narrow', key.key, 'sub_live_streets');
  const rows = [
    ['sub_does_not_exist', 'Live'],
    ['sub_live_support', 'Live'],
    ['sub_sim_retail', 'Live'],
  ] as const;
  for (const [i, [id, kind]] of rows.entries()) {
    await page.getByRole('button', { name: 'Add subscription' }).click();
    await page.getByRole('textbox', { name: `Subscription ${i + 2} ID` }).fill(id);
    await page.getByRole('combobox', { name: `Subscription ${i + 2} kind` }).selectOption({ label: kind });
  }
  await page.getByRole('button', { name: 'Connect', exact: true }).click();

  const field = (n: number) => page.getByRole('textbox', { name: `Subscription ${n} ID` });
  await expect(page.getByRole('alert').filter({ hasText: 'refused' })).toHaveText(
    '3 subscriptions were refused, so nothing was saved: fix or remove them, then Connect again.',
  );
  await expect(field(1)).toHaveAccessibleDescription('✓ Fine: this key can read it.');
  await expect(field(2)).toHaveAccessibleDescription(/^Unknown: .*sub_does_not_exist/);
  await expect(field(3)).toHaveAccessibleDescription(/^Not covered by this key: .*sub_live_support/);
  await expect(field(4)).toHaveAccessibleDescription(/^Wrong kind: sub_sim_retail is a simulated subscription, not a live one/);
  for (const n of [2, 3, 4]) await expect(field(n)).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('heading', { name: 'Keys' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Saved connections' })).toHaveCount(0);
  // Checking moved nothing at the service: the live position and the receipts are as they were.
  expect(positionAndReceipts('sub_live_streets')).toEqual(before);

  // Fixed (the kind) and removed (the other two), it connects.
  await page.getByRole('combobox', { name: 'Subscription 4 kind' }).selectOption({ label: 'Simulated' });
  await page.getByRole('button', { name: 'Remove subscription 3' }).click();
  await page.getByRole('button', { name: 'Remove subscription 2' }).click();
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Review', level: 1 })).toBeVisible();
  await navTo(page, 'Connection');
  await expect(page.getByText('sub_live_streets · live')).toBeVisible();
  await expect(page.getByText('sub_sim_retail · simulated')).toBeVisible();

  // Edit checks too: a subscription this key does not cover is refused, and the saved connection keeps its two.
  await page.getByRole('button', { name: 'Edit Narrow' }).click();
  await page.getByRole('button', { name: 'Add subscription' }).click();
  await field(3).fill('sub_sim_support');
  await page.getByRole('combobox', { name: 'Subscription 3 kind' }).selectOption({ label: 'Simulated' });
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(field(3)).toHaveAccessibleDescription(/^Not covered by this key: .*sub_sim_support/);
  await expect(page.getByRole('alert').filter({ hasText: 'refused' })).toHaveText(
    'One subscription was refused, so nothing was saved: fix or remove it, then save again.',
  );
  await page.goto('/connection');
  await expect(page.getByText('sub_sim_retail · simulated')).toBeVisible();
  await expect(page.getByText(/^sub_sim_support · /)).toHaveCount(0);
});

test('Connect with a key without data access says so beside each subscription and saves nothing', async ({ page }) => {
  const key = createKey('No data', ['sub_live_streets'], ['--no-data-access']);
  await page.goto('/connection');
  await fillConnect(page, 'No data', key.key, 'sub_live_streets');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('textbox', { name: 'Subscription 1 ID' })).toHaveAccessibleDescription(/^No data access: this key has no data-access permission/);
  await expect(page.getByRole('alert').filter({ hasText: 'refused' })).toContainText('One subscription was refused, so nothing was saved');
  await expect(page.getByRole('heading', { name: 'Keys' })).toHaveCount(0);
});

test('every page that needs a key is guarded once: the nav leads to connecting and back, and a disconnected key leaves the page', async ({ page }) => {
  await page.goto('/frontiers');
  for (const [link, path] of [
    ['Review', '/review'],
    ['Usage', '/usage'],
    ['Deliveries', '/deliveries'],
    ['Reconciliation', '/reconciliation'],
  ] as const) {
    await nav(page, link).click();
    await expect(page.getByRole('heading', { name: 'Connection', level: 1 })).toBeVisible();
    expect(new URL(page.url()).searchParams.get('redirect')).toMatch(new RegExp(`^${path}(\\?|$)`));
    await nav(page, 'Frontiers').click();
  }
  // Connecting from the guard lands on the page the user was going to.
  await nav(page, 'Reconciliation').click();
  await page.getByRole('button', { name: 'Use the local demo' }).click();
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Reconciliation', level: 1 })).toBeVisible();
  await nav(page, 'Deliveries').click();
  await expect(page.getByRole('heading', { name: 'Deliveries', level: 1 })).toBeVisible();

  // Disconnect, then the browser's Back: the guarded page sends the user to connect again.
  await navTo(page, 'Connection');
  await page.getByRole('button', { name: 'Disconnect Local demo' }).click();
  await page.getByRole('alertdialog', { name: 'Disconnect Local demo?' }).getByRole('button', { name: 'Disconnect and keep local data' }).click();
  await expect(page.getByRole('button', { name: 'Reconnect Local demo' })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Connection', level: 1 })).toBeVisible();
  expect(new URL(page.url()).searchParams.get('redirect')).toMatch(/^\/deliveries/);
});

test('a deep link survives connecting; a foreign target does not', async ({ page }) => {
  await page.goto('/usage?limit=50');
  await expect(page).toHaveURL(/\/connection\?redirect=/);
  await page.getByRole('button', { name: 'Use the local demo' }).click();
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Usage', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/usage\?limit=50(&|$)/);

  // Another origin is never a target: connecting lands on Keys.
  await page.goto('/connection');
  await page.getByRole('button', { name: 'Remove Local demo' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove', exact: true }).click();
  await page.goto('/connection?redirect=%2F%2Fevil.example%2Fusage');
  await page.getByRole('button', { name: 'Use the local demo' }).click();
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Review', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/review$/);
});

test('Remove asks; with unsent decisions it counts them and sends them first', async ({ page, request }) => {
  const { key, ids } = await twoUnsentDecisions(page, 'Remove after sending', 30);
  await navTo(page, 'Connection');
  await page.getByRole('button', { name: 'Remove Remove after sending' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toHaveAccessibleName('Remove after sending has 2 unsent decisions');
  await dialog.getByRole('button', { name: 'Send them now' }).click();
  // Once the service confirmed them, the same dialog offers the removal.
  await expect(dialog).toHaveAccessibleName('Remove Remove after sending?');
  const feedback = await serviceApi(request, key.key).reread('sub_live_streets');
  for (const id of ids) expect(feedback.find((s) => s.submission_id === id)?.consumer_feedback).toBe('adopt');
  await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Saved connections' })).toHaveCount(0);
});

test('Remove with unsent decisions can discard them, only after a second confirmation', async ({ page, request }) => {
  const { key, ids } = await twoUnsentDecisions(page, 'Remove and discard', 30);
  await navTo(page, 'Connection');
  await page.getByRole('button', { name: 'Remove Remove and discard' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('2 unsent decisions');
  // Cancel keeps everything.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('status', { name: /Decisions: 2 unsent/ })).toBeVisible();

  await page.getByRole('button', { name: 'Remove Remove and discard' }).click();
  await dialog.getByRole('button', { name: 'Discard them and remove…' }).click();
  await expect(dialog).toHaveAccessibleName('Discard 2 unsent decisions?');
  await dialog.getByRole('button', { name: 'Discard and remove' }).click();
  await expect(page.getByRole('heading', { name: 'Saved connections' })).toHaveCount(0);
  // Discarded: not sent, and recorded as discarded on this device, so no later visit of the
  // organization sends them (an unsent row left behind would be resumed and sent).
  const feedback = await serviceApi(request, key.key).reread('sub_live_streets');
  for (const id of ids) expect(feedback.find((s) => s.submission_id === id)?.consumer_feedback ?? null).toBeNull();
  const rows = await storedRows<{ itemId: string; state: string }>(page, 'decisions');
  expect(rows.filter((r) => ids.includes(r.itemId)).map((r) => r.state)).toEqual(['discarded', 'discarded']);
});

test('after Disconnect the paused banner says the decisions are kept and to connect again', async ({ page }) => {
  const { key } = await twoUnsentDecisions(page, 'Disconnected reviewer', 8);
  await navTo(page, 'Connection');
  await page.getByRole('button', { name: 'Disconnect Disconnected reviewer' }).click();
  await page.getByRole('alertdialog', { name: 'Disconnect Disconnected reviewer?' }).getByRole('button', { name: 'Disconnect and keep local data' }).click();
  const banner = page.getByRole('alert').filter({ hasText: 'Sending decisions is paused' });
  await expect(banner).toHaveText(
    'Sending decisions is paused: this connection is disconnected. 2 unsent decisions of “Disconnected reviewer” are kept on this device; connect again to send them.',
  );
  await expect(page.getByText('Requests are paused')).toHaveCount(0);

  await page.getByRole('button', { name: 'Reconnect Disconnected reviewer' }).click();
  await page.getByLabel('API key', { exact: true }).fill(key.key);
  await page.getByRole('button', { name: 'Save key' }).click();
  await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();
  await expect(banner).toHaveCount(0);
});

test('the key hint and the key error describe the key in the same words', async ({ page }) => {
  await page.goto('/connection');
  const field = page.getByLabel('API key', { exact: true });
  await field.fill('sk_short');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByText(`An API key is ${KEY_SHAPE}.`)).toBeVisible();
  await expect(page.getByText(new RegExp(`^${KEY_SHAPE.replace(/[()]/g, '\\$&')}; its form is checked here`))).toBeVisible();
});

test.describe('at 390 px wide', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the header fits, and the main nav opens from one Menu button, by keyboard too', async ({ page }) => {
    const fits = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.goto('/connection');
    await expect(page.getByRole('heading', { name: 'Connection', level: 1 })).toBeVisible();
    await fits();
    await connectDemo(page);
    await expect(status(page)).toHaveAccessibleName('Connection status: verified');
    await fits();
    // Closed, the nav takes one button's height; open, every group is listed, Settings included.
    const menu = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Menu' });
    await expect(nav(page, 'Usage')).toBeHidden();
    await menu.focus();
    await page.keyboard.press('Enter');
    for (const group of ['Review', 'Spend', 'Sources', 'Settings']) await expect(page.getByRole('group', { name: group })).toBeVisible();
    await fits();
    await nav(page, 'Keys').scrollIntoViewIfNeeded();
    await expect(nav(page, 'Keys')).toBeInViewport();
    await nav(page, 'Usage').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Usage', level: 1 })).toBeVisible();
    // Following a link closes the menu.
    await expect(nav(page, 'Usage')).toBeHidden();
    expect(await page.evaluate(() => window.scrollX)).toBe(0);
  });
});
