import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { connectDemo, navTo } from './support/console';
import { tabTo } from './support/keyboard';
import { demoCredentials } from './support/service';

/** Records CSP violations (as events and as console reports) across navigations. */
async function watchCsp(page: Page) {
  const violations: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`),
    );
  });
  page.on('console', (m) => /Content Security Policy|CSP violation/i.test(m.text()) && violations.push(m.text()));
  return violations;
}

/** Everything this origin keeps: web storage, cookies, and every IndexedDB database in full. */
async function storageDump(page: Page) {
  return page.evaluate(async () => {
    const databases: Record<string, Record<string, unknown[]>> = {};
    for (const info of await indexedDB.databases()) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(info.name!);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const stores: Record<string, unknown[]> = {};
      for (const name of db.objectStoreNames) {
        stores[name] = await new Promise<unknown[]>((resolve, reject) => {
          const request = db.transaction(name).objectStore(name).getAll();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      }
      db.close();
      databases[info.name!] = stores;
    }
    // Maps and Sets (the store keeps a page's records in a Map) are written out, not as {}: a
    // search for delivered content must see everything stored.
    const replacer = (_key: string, value: unknown) => (value instanceof Map ? Object.fromEntries(value) : value instanceof Set ? [...value] : value);
    return JSON.stringify({ local: { ...window.localStorage }, session: { ...window.sessionStorage }, cookies: document.cookie, databases }, replacer);
  });
}

test('the production server sends strict security headers and the build has no inline script', async ({ request }) => {
  for (const path of ['/', '/frontiers', '/review/sub_sim_retail']) {
    const response = await request.get(path);
    const csp = response.headers()['content-security-policy']!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("img-src 'self' data: blob: https:");
    expect(csp).toContain("connect-src 'self'");
    expect(response.headers()['referrer-policy']).toBe('no-referrer');
    expect(response.headers()['x-content-type-options']).toBe('nosniff');
    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc=/);
      expect(body!.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+=/i);
  }
});

test('a whole session: no CSP violation, no foreign request, no leaked key, nothing left after Disconnect', async ({ page, baseURL }) => {
  const violations = await watchCsp(page);
  const demo = demoCredentials();
  const origins = new Set<string>();
  const urls: string[] = [];
  const messages: string[] = [];
  page.on('request', (r) => {
    urls.push(r.url());
    if (!r.url().startsWith('data:') && !r.url().startsWith('blob:')) origins.add(new URL(r.url()).origin);
  });
  page.on('console', (m) => messages.push(m.text()));

  await connectDemo(page);
  await navTo(page, 'Keys');
  await page.getByRole('button', { name: 'Verify key' }).click();
  await expect(page.getByRole('status', { name: 'Key verified' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Frontiers' }).click();
  await page.getByRole('link', { name: 'Urban street scenes' }).click();
  await page.getByRole('link', { name: 'Preview Vehicle and pedestrian boxes' }).click();
  await expect(page.getByRole('img', { name: /Delivered image/ }).first()).toBeVisible();
  await nav.getByRole('link', { name: 'Review' }).click();
  await page.getByRole('link', { name: 'Review Street scenes (all tasks)' }).click();
  await page.getByRole('button', { name: 'Re-read' }).click();
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option').first()).toBeVisible();
  await page.keyboard.press('j');
  await nav.getByRole('link', { name: 'Usage' }).click();
  await expect(page.getByRole('img', { name: /Spend per day/ })).toBeVisible();
  await nav.getByRole('link', { name: 'Deliveries' }).click();
  await nav.getByRole('link', { name: 'Reconciliation' }).click();
  await expect(page.getByRole('status', { name: 'Reconciliation result' })).toBeVisible();

  // Not remembered: the key lives in this tab's sessionStorage only.
  const during = JSON.parse(await storageDump(page)) as { local: object; session: object };
  expect(JSON.stringify(during.local)).not.toContain(demo.api_key);
  expect(JSON.stringify(during.session)).toContain(demo.api_key);

  await navTo(page, 'Connection');
  // Delivered content was kept on this device during the session (IndexedDB)…
  const kept = await storageDump(page);
  expect(kept).toContain('quality_score');
  // …and Disconnect, asked to delete it, leaves none in any storage.
  await page.getByRole('button', { name: 'Disconnect Local demo' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Disconnect Local demo?' });
  await dialog.getByRole('checkbox', { name: /Also delete them from this device/ }).check();
  await dialog.getByRole('button', { name: 'Disconnect and delete local data' }).click();
  await expect(dialog).toBeHidden();
  const after = await storageDump(page);
  expect(after).not.toContain(demo.api_key);
  expect(after).not.toContain(demo.jwt);
  // No delivered content in any storage.
  for (const fragment of ['/media/scenes/', 'annotations', 'quality_score', 'conversation']) expect(after).not.toContain(fragment);

  expect(violations).toEqual([]);
  expect([...origins]).toEqual([new URL(baseURL!).origin]);
  for (const url of urls) expect(url).not.toContain(demo.api_key);
  for (const message of messages) expect(message).not.toContain(demo.api_key);
  expect(await page.locator('body').innerText()).not.toContain(demo.api_key);
});

/** Each page of the console, and what shows once it has loaded what axe should judge. */
const a11yPages: [string, (page: Page) => Promise<void>][] = [
  ['/connection', async (page) => void (await expect(page.getByRole('heading', { level: 1, name: 'Connection' })).toBeVisible())],
  ['/keys', async (page) => void (await expect(page.getByRole('heading', { level: 1, name: 'Keys' })).toBeVisible())],
  ['/frontiers', async (page) => void (await expect(page.getByRole('link', { name: 'Urban street scenes' })).toBeVisible())],
  ['/frontiers/101', async (page) => void (await expect(page.getByRole('table')).toBeVisible())],
  ['/frontiers/101/tasks/1001/preview', async (page) => void (await expect(page.getByRole('img', { name: /Delivered image/ }).first()).toBeVisible())],
  ['/verticals', async (page) => void (await expect(page.getByRole('heading', { level: 1, name: 'Verticals' })).toBeVisible())],
  ['/review', async (page) => void (await expect(page.getByRole('heading', { level: 1, name: 'Review' })).toBeVisible())],
  [
    '/review/sub_sim_retail?limit=20&run=true',
    async (page) => void (await expect(page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option').first()).toBeVisible()),
  ],
  ['/usage', async (page) => void (await expect(page.getByRole('img', { name: /Spend per day/ })).toBeVisible())],
  ['/deliveries', async (page) => void (await expect(page.getByRole('table', { name: 'Deliveries' })).toBeVisible())],
  ['/reconciliation', async (page) => void (await expect(page.getByRole('status', { name: 'Reconciliation result' })).toBeVisible())],
];

// One test per page: a failure names its page, and each page gets the whole hang guard (eleven pages
// with axe in one test ran past six minutes on a loaded CI machine).
for (const [path, ready] of a11yPages) {
  test(`${path} has no serious or critical accessibility violation`, async ({ page }) => {
    await connectDemo(page);
    await page.goto(path);
    await ready(page);
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.id} (${v.impact}) ${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 3)
            .join(' | ')}`,
      );
    expect(serious).toEqual([]);
  });
}

test('keyboard only: reach every page and complete a review', async ({ page }) => {
  await page.goto('/connection');
  await tabTo(page, page.getByRole('button', { name: 'Use the local demo' }));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByRole('button', { name: 'Connect', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Review', level: 1 })).toBeVisible();

  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const [link, heading] of [
    ['Frontiers', 'Frontiers'],
    ['Verticals', 'Verticals'],
    ['Usage', 'Usage'],
    ['Deliveries', 'Deliveries'],
    ['Reconciliation', 'Reconciliation'],
    ['Keys', 'Keys'],
    ['Connection', 'Connection'],
    ['Review', 'Review'],
  ] as const) {
    // Keys and Connection sit in the Settings group: its button opens it from the keyboard.
    if (link === 'Keys' || link === 'Connection') {
      await tabTo(page, nav.getByRole('button', { name: /^Settings/ }));
      await page.keyboard.press('Enter');
    }
    await tabTo(page, nav.getByRole('link', { name: link, exact: true }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible();
  }
  await tabTo(page, page.getByRole('link', { name: 'Review Support dialogues' }));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByRole('button', { name: 'Pull', exact: true }));
  await page.keyboard.press('Enter');
  const list = page.getByRole('listbox', { name: 'Items on this page' });
  await expect(list.getByRole('option').first()).toBeVisible();
  await tabTo(page, list);
  // Each D opens the reason picker on its codes; Enter alone disputes without a reason.
  for (let i = 0; i < 2; i++) {
    await page.keyboard.press('d');
    await expect(page.getByRole('radio', { name: 'No code' })).toBeFocused();
    await page.keyboard.press('Enter');
  }
  await expect(list.getByRole('option', { name: /waiting to send|disputed/ })).toHaveCount(2);
  await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();
});
