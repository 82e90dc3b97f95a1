import { expect, test, type Page, type Request } from '@playwright/test';
import { storedRows } from './support/idb';
import { connectWith } from './support/console';
import { createKey, importFixture } from './support/service';

/**
 * Issue 13's console fixes, as an attacker found them: a tracking pixel in a payload, a link
 * whose text reads like the service's host, an error text that echoes the key, totals past the
 * exact integer range, and a key left in the page's HTML. Each org is its own, so no other
 * spec's books or lists see these items.
 */
const ECHOED_KEY = `dds_live_sk_${'Lk9'.repeat(10)}Lk`;
const ECHOED_JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJsZWFrZWQifQ.c2lnbmF0dXJl';
const LEAK_ID = `leak-${ECHOED_KEY}-${ECHOED_JWT}`;
const PIXEL = 'https://evil.example/pixel.png?leak=1';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

const item = (id: string, payload: Record<string, unknown>, day: number, subscription = 'sub_hardening', price = 0.001) => ({
  id,
  vertical_id: 'v-hardening',
  topic_id: 'topic-hardening',
  subscription_id: subscription,
  payload,
  quality_score: 0.5,
  quality_method: 'consensus',
  validator_count: 3,
  consensus_ratio: 0.5,
  unit_price_usd: price,
  created_at: `2026-02-${String(day).padStart(2, '0')}T00:00:00Z`,
});

let key: string;
let moneyKey: string;

test.beforeAll(() => {
  importFixture('hardening', {
    verticals: [{ id: 'v-hardening', slug: 'hardening', name: 'Hardening', description: 'what issue 13 found', base_price_usd: 0.001 }],
    subscriptions: [
      { subscription_id: 'sub_hardening', kind: 'simulated', vertical_id: 'v-hardening', name: 'Hardening', org_id: 'org_hardening' },
      { subscription_id: 'sub_hardening_books', kind: 'simulated', vertical_id: 'v-hardening', name: 'Big books', org_id: 'org_hardening_books' },
    ],
    items: [
      item('h-pixel', { image_url: PIXEL, caption: 'a tracking pixel' }, 1),
      item('h-own', { image_url: '/media/scenes/7.svg', caption: 'an image of the service itself' }, 2),
      item('h-link', { docs: 'https://dds.example.com.evil.example/login', own: '/media/scenes/8.svg' }, 3),
      item(LEAK_ID, { text: 'decided elsewhere first' }, 4),
      item('h-books', { text: 'a very expensive item' }, 5, 'sub_hardening_books', 5_000_000_000),
    ],
    receipts: [
      {
        subscription_id: 'sub_hardening_books',
        kind: 'adopt',
        item_id: 'h-books',
        quantity: 1,
        amount_usd: 5_000_000_000,
        created_at: '2026-02-05T10:00:00Z',
      },
      {
        subscription_id: 'sub_hardening_books',
        kind: 'adopt',
        item_id: 'h-books-2',
        quantity: 1,
        amount_usd: 5_000_000_000,
        created_at: '2026-02-05T11:00:00Z',
      },
      { subscription_id: 'sub_hardening_books', kind: 'pull', quantity: 1, amount_usd: 0.0125, created_at: '2026-02-05T12:00:00Z' },
    ],
  });
  key = createKey('Hardening', ['sub_hardening']).key;
  moneyKey = createKey('Big books', ['sub_hardening_books']).key;
});

/** Every request the page makes to another origin than the console's own (the connection's base URL). */
function foreignRequests(page: Page, baseURL: string) {
  const origin = new URL(baseURL).origin;
  const seen: string[] = [];
  page.on('request', (request: Request) => {
    const url = request.url();
    if (/^https?:/.test(url) && new URL(url).origin !== origin) seen.push(url);
  });
  return seen;
}

async function openReview(page: Page) {
  await page.goto('/review/sub_hardening?limit=10');
  const list = page.getByRole('listbox', { name: 'Items on this page' });
  if ((await list.getByRole('option').count()) === 0) await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(list.getByRole('option')).toHaveCount(4);
  return list;
}

test('an image from another origin waits for the user: no request until allowed, once or always', async ({ page, baseURL }) => {
  const foreign = foreignRequests(page, baseURL!);
  // Nothing leaves the machine: the "tracking pixel" is answered here, once it is asked for.
  await page.route('https://evil.example/**', (route) => route.fulfill({ status: 200, contentType: 'image/png', body: PNG }));
  await connectWith(page, 'Hardening', key, [{ id: 'sub_hardening', kind: 'Simulated' }]);
  const list = await openReview(page);
  const focused = page.getByRole('region', { name: 'Focused item' });

  // The first item is on screen (and the next one rendered ahead, with the service's own image): the pixel is not loaded.
  await expect(focused.getByRole('heading', { level: 2 })).toHaveText('Item h-pixel');
  const placeholder = focused.getByRole('group', { name: 'Image from evil.example, not loaded' });
  await expect(placeholder).toContainText('Image from evil.example');
  await expect(focused.locator('img[src*="/media/scenes/7.svg"]')).toHaveCount(1);
  await expect(page.locator('img[src*="evil.example"]')).toHaveCount(0);
  expect(foreign).toEqual([]);

  // Load once: the image loads now, and only now.
  const asked = page.waitForRequest(PIXEL);
  await placeholder.getByRole('button', { name: 'Load once' }).click();
  await asked;
  const image = focused.getByRole('img', { name: 'Delivered image' });
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
  expect(foreign).toEqual([PIXEL]);

  // Once is once: after a reload it asks again, and nothing is requested meanwhile.
  await page.reload();
  await expect(list.getByRole('option')).toHaveCount(4);
  await expect(placeholder).toBeVisible();
  expect(foreign).toEqual([PIXEL]);

  // Always: remembered for this connection, without its key.
  await placeholder.getByRole('button', { name: 'Always allow evil.example' }).click();
  await expect(image).toBeVisible();
  await page.reload();
  await expect(image).toBeVisible();
  await expect(placeholder).toHaveCount(0);
  const stored = await page.evaluate(() => Object.entries(window.localStorage).filter(([k]) => k.startsWith('dds.imageOrigins.')));
  expect(stored.map(([, v]) => JSON.parse(v))).toEqual([['https://evil.example']]);
  expect(JSON.stringify(stored)).not.toContain(key);

  // The service's own images load at once, as before.
  await page.keyboard.press('j');
  await expect(focused.getByRole('heading', { level: 2 })).toHaveText('Item h-own');
  await expect(focused.getByRole('img', { name: 'Delivered image' })).toBeVisible();
  expect(await focused.getByRole('img', { name: 'Delivered image' }).evaluate((img: HTMLImageElement) => img.naturalWidth > 0)).toBe(true);
});

test('a link to another origin names where it goes', async ({ page }) => {
  await connectWith(page, 'Hardening', key, [{ id: 'sub_hardening', kind: 'Simulated' }]);
  const list = await openReview(page);
  await list.getByRole('option', { name: /^Item h-link,/ }).click();
  const content = page.getByRole('region', { name: 'Focused item' }).getByRole('region', { name: 'Delivered content' });
  // Below an image the review's fitted card starts the JSON tree closed: the JSON tree view shows it open.
  await content.getByRole('button', { name: 'JSON tree' }).click();
  const link = content.getByRole('link', { name: 'https://dds.example.com.evil.example/login (opens dds.example.com.evil.example)' });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('target', '_blank');
  expect((await link.getAttribute('rel'))?.split(' ')).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
  // A path on the service is a link as before, without a host to name.
  await expect(content.getByRole('link', { name: '/media/scenes/8.svg' })).toBeVisible();
});

test('an error text echoing a key or a JWT is redacted where it is stored and logged, and Disconnect removes it', async ({ page, request }) => {
  const logged: string[] = [];
  page.on('console', (message) => logged.push(message.text()));
  page.on('pageerror', (error) => logged.push(`${error.message}\n${error.stack ?? ''}`));
  await connectWith(page, 'Hardening', key, [{ id: 'sub_hardening', kind: 'Simulated' }]);
  await page.goto('/review/sub_hardening?limit=10');
  await page.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('0');
  const list = await openReview(page);

  // Someone else adopts the item first; disputing it here then gets a 409 whose text names the item.
  const adopted = await request.post(`/v1/data/items/${encodeURIComponent(LEAK_ID)}/adopt`, { headers: { Authorization: `Bearer ${key}` } });
  expect(adopted.status()).toBe(200);
  await list.getByRole('option', { name: /^Item leak-/ }).click();
  // D opens the reason picker; Enter alone disputes without a reason.
  await page.keyboard.press('d');
  await expect(page.getByRole('radio', { name: 'No code' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect
    .poll(async () => (await storedRows<{ itemId: string; state: string }>(page, 'decisions')).find((r) => r.itemId === LEAK_ID)?.state)
    .toBe('conflict');

  const row = (await storedRows<{ itemId: string; lastError?: string }>(page, 'decisions')).find((r) => r.itemId === LEAK_ID)!;
  expect(row.lastError).toContain('[redacted key]');
  expect(row.lastError).toContain('[redacted token]');
  for (const secret of [ECHOED_KEY.slice(12), ECHOED_JWT.split('.')[1]!]) {
    expect(row.lastError).not.toContain(secret);
    for (const text of logged) expect(text, 'a console message').not.toContain(secret);
  }

  // Disconnect, keeping local data: the decision stays, its error text goes.
  await page.goto('/connection');
  await page.getByRole('button', { name: 'Disconnect Hardening' }).click();
  await page.getByRole('alertdialog', { name: 'Disconnect Hardening?' }).getByRole('button', { name: 'Disconnect and keep local data' }).click();
  await expect(page.getByRole('button', { name: 'Reconnect Hardening' })).toBeVisible();
  const after = await storedRows<{ itemId: string; state: string; lastError?: string }>(page, 'decisions');
  expect(after.find((r) => r.itemId === LEAK_ID)?.state).toBe('conflict');
  expect(after.filter((r) => 'lastError' in r)).toEqual([]);
});

test('a route error whose answer echoes the key shows and logs it redacted', async ({ page }) => {
  const logged: string[] = [];
  page.on('console', (message) => logged.push(message.text()));
  await connectWith(page, 'Hardening', key, [{ id: 'sub_hardening', kind: 'Simulated' }]);
  // The local service never echoes a secret; this answer is a service that does, the key it was sent included.
  await page.route('**/v1/live/usage?*', (route) =>
    route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({
        success: false,
        errorCode: 'INVALID_PARAMETER',
        errorMessage: `bad request from ${route.request().headers().authorization} (${ECHOED_JWT})`,
      }),
    }),
  );
  await page.goto('/usage');
  const alert = page.getByRole('alert').filter({ hasText: 'INVALID_PARAMETER (HTTP 400)' });
  await expect(alert).toContainText('bad request from Bearer [redacted key] ([redacted token])');
  await alert.getByText('Details').click();
  await expect(alert.locator('pre')).toContainText('[redacted key]');
  // The error boundary logged the error (React does, in production too): redacted there as well.
  await expect.poll(() => logged.some((text) => text.includes('[redacted key]'))).toBe(true);
  for (const secret of [key.slice(12), ECHOED_JWT.split('.')[1]!]) {
    for (const text of logged) expect(text, 'a console message').not.toContain(secret);
    expect(await page.evaluate(() => document.documentElement.outerHTML)).not.toContain(secret);
  }
});

test('totals past the exact integer range read "over $9,007,199,254" with every row still shown', async ({ page }) => {
  await connectWith(page, 'Big books', moneyKey, [{ id: 'sub_hardening_books', kind: 'Simulated' }]);
  await page.goto('/usage');
  await expect(page.getByText('3 receipts shown, total over $9,007,199,254')).toBeVisible();
  const receipts = page.getByRole('table', { name: 'Receipts', exact: true });
  await expect(receipts.getByRole('row').filter({ hasText: '$5,000,000,000.00' })).toHaveCount(2);
  await expect(page.getByRole('table', { name: 'Totals per subscription' }).getByRole('row', { name: /sub_hardening_books/ })).toContainText(
    'over $9,007,199,254',
  );

  await page.goto('/reconciliation');
  await expect(page.getByRole('heading', { name: 'Reconciliation' })).toBeVisible();
  await expect(page.getByText('over $9,007,199,254').first()).toBeVisible();
  const daily = page.getByRole('table', { name: 'Expected and charged per subscription and day' });
  await expect(daily.getByRole('row', { name: /2026-02-05/ })).toContainText('over $9,007,199,254');
  await expect(page.getByRole('table', { name: 'Mismatches item by item' }).getByRole('row')).not.toHaveCount(0);
});

test('a key typed into "Verify another key" never appears in the page’s HTML', async ({ page }) => {
  await connectWith(page, 'Hardening', key, [{ id: 'sub_hardening', kind: 'Simulated' }]);
  await page.goto('/keys');
  const field = page.getByLabel('Key to verify');
  await field.pressSequentially(moneyKey);
  const secret = moneyKey.slice(12);
  expect(await page.evaluate(() => document.documentElement.outerHTML)).not.toContain(secret);
  await field.press('Enter');
  await expect(page.getByRole('status', { name: 'Key verified' }).filter({ hasText: 'org_hardening_books' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.outerHTML)).not.toContain(secret);
  // The field still holds what was typed (as a property, for the user), not as markup.
  await expect(field).toHaveValue(moneyKey);
});
