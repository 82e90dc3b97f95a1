import { expect, test, type Page } from '@playwright/test';
import { serviceApi } from './support/api';
import { connectDemo, connectWith } from './support/console';
import { createKey, revokeKey } from './support/service';

const saved = (page: Page) => expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible({ timeout: 45_000 });

async function openPending(page: Page, subscription: string, limit = 10) {
  await page.goto(`/review/${subscription}?limit=${limit}`);
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option').first()).toBeVisible();
}

const focusedTitle = async (page: Page) => (await page.getByRole('region', { name: 'Focused item' }).getByRole('heading').textContent())!;

test.describe.configure({ mode: 'serial' });

test('aborted, timed-out, lost and 500 adopt requests still end saved exactly once', async ({ page, request }) => {
  await connectDemo(page);
  const pending = (await serviceApi(request).pending('sub_sim_product', 4)).map((i) => i.id);
  let calls = 0;
  await page.route('**/v1/data/items/*/adopt', async (route) => {
    calls++;
    if (calls === 1) return route.abort('failed');
    if (calls === 2) return route.abort('timedout');
    if (calls === 3) return route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false,"errorCode":"INTERNAL_ERROR","errorMessage":"injected"}' });
    if (calls === 4) {
      // The service records the adopt, but the answer is lost on the way back.
      await route.fetch();
      return route.abort('connectionreset');
    }
    return route.continue();
  });
  await openPending(page, 'sub_sim_product', 4);
  for (let i = 0; i < 4; i++) await page.keyboard.press('a');
  await saved(page);
  expect(calls).toBeGreaterThan(4);
  const receipts = (await serviceApi(request).usage()).filter((r) => r.item_id && pending.includes(r.item_id));
  expect(receipts.map((r) => r.item_id).sort()).toEqual([...pending].sort());
});

test('offline, decisions wait; online, they are sent', async ({ page, request }) => {
  await connectDemo(page);
  await openPending(page, 'sub_sim_product', 2);
  const ids = (await serviceApi(request).pending('sub_sim_product', 2)).map((i) => i.id);
  const sent: string[] = [];
  page.on('request', (r) => r.url().includes('/dispute') && sent.push(r.url()));
  await page.context().setOffline(true);
  await page.keyboard.press('d');
  await page.keyboard.press('d');
  await page.waitForTimeout(4_500);
  expect(sent).toEqual([]);
  await expect(page.getByRole('status', { name: /Decisions: 2 unsent/ })).toBeVisible();
  await page.context().setOffline(false);
  await saved(page);
  const stillPending = (await serviceApi(request).pending('sub_sim_product', 200)).map((i) => i.id);
  for (const id of ids) expect(stillPending).not.toContain(id);
});

test('undo inside the window sends nothing', async ({ page, request }) => {
  await connectDemo(page);
  await openPending(page, 'sub_sim_product', 3);
  const [first] = (await serviceApi(request).pending('sub_sim_product', 1)).map((i) => i.id);
  const sent: string[] = [];
  page.on('request', (r) => /\/v1\/data\/items\/.*\/(adopt|dispute)$/.test(r.url()) && sent.push(r.url()));
  await page.keyboard.press('a');
  await expect(page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option', { name: /waiting to send/ })).toHaveCount(1);
  await page.keyboard.press('z');
  await expect(page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option', { name: /waiting to send/ })).toHaveCount(0);
  await page.waitForTimeout(4_500);
  expect(sent).toEqual([]);
  expect((await serviceApi(request).pending('sub_sim_product', 5)).map((i) => i.id)).toContain(first);
});

test('a reload resumes free decisions by itself and charged ones after one confirmation', async ({ page, request }) => {
  await connectDemo(page);
  await page.goto('/review/sub_live_streets?limit=5');
  await page.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('30');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option').first()).toBeVisible();
  const liveId = (await focusedTitle(page)).replace('Submission ', '');
  await page.keyboard.press('d');
  await page.keyboard.press('Enter');

  // Moving within the console keeps the page (and the undo windows) alive.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Review' }).click();
  await page.getByRole('link', { name: 'Review Product catalog records' }).click();
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option').first()).toBeVisible();
  const [item] = await serviceApi(request).pending('sub_sim_product', 1);
  await page.keyboard.press('a');
  await expect(page.getByRole('status', { name: /Decisions: 2 unsent/ })).toBeVisible();

  // Leaving asks first.
  let asked = false;
  page.on('dialog', (dialog) => {
    asked = dialog.type() === 'beforeunload';
    void dialog.accept();
  });
  await page.reload();
  expect(asked).toBe(true);

  const notice = page.getByRole('alert', { name: 'Charged decisions waiting' });
  await expect(notice).toBeVisible();
  const feedback = async () => (await serviceApi(request).reread('sub_live_streets', '&limit=200')).find((s) => s.submission_id === liveId)?.consumer_feedback;
  await expect.poll(feedback, { timeout: 15_000 }).toBe('dispute');
  expect((await serviceApi(request).usage()).filter((r) => r.item_id === item!.id)).toHaveLength(0);

  await notice.getByRole('button', { name: /Send and pay \$/ }).click();
  await saved(page);
  expect((await serviceApi(request).usage()).filter((r) => r.item_id === item!.id)).toHaveLength(1);
});

test('two tabs on a remembered connection: a decision stays with its tab until that tab closes, then the other sends it', async ({ context, request }) => {
  const a = await context.newPage();
  await connectDemo(a, { remember: true });
  await a.goto('/review/sub_live_streets?limit=3');
  await a.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('30');
  await a.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(a.getByRole('listbox', { name: 'Items on this page' }).getByRole('option').first()).toBeVisible();
  const keptId = (await focusedTitle(a)).replace('Submission ', '');
  await a.keyboard.press('a');
  const undoneId = (await focusedTitle(a)).replace('Submission ', '');
  await a.keyboard.press('a');
  await expect(a.getByRole('status', { name: /Decisions: 2 unsent/ })).toBeVisible();

  // A second tab of the same connection (remembered: both read the same storage).
  const b = await context.newPage();
  await b.goto('/review/sub_live_streets?limit=3');
  await expect(b.getByRole('button', { name: 'Pull', exact: true })).toBeVisible();
  const feedbackOf = async (id: string) => (await serviceApi(request).reread('sub_live_streets')).find((s) => s.submission_id === id)?.consumer_feedback ?? null;
  await b.waitForTimeout(2_000);
  expect(await feedbackOf(keptId), 'the other tab leaves A’s decisions alone').toBeNull();

  // A's undo still holds.
  await a.keyboard.press('z');
  await expect(a.getByRole('status', { name: /Decisions: 1 unsent/ })).toBeVisible();
  // A closes inside its undo window: B takes over what A left, and sends it.
  await a.close();
  await expect.poll(() => feedbackOf(keptId), { timeout: 15_000 }).toBe('adopt');
  await expect(b.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();
  expect(await feedbackOf(undoneId)).toBeNull();
});

test('a key revoked mid-review pauses the outbox; a new key resumes it with nothing lost or doubled', async ({ page, request }) => {
  const key = createKey('Revoked during review', ['sub_sim_product']);
  await connectWith(page, 'Reviewer', key.key, [{ id: 'sub_sim_product', kind: 'Simulated' }]);
  await openPending(page, 'sub_sim_product', 3);
  const ids = (await serviceApi(request).pending('sub_sim_product', 2)).map((i) => i.id);
  revokeKey(key.key_id);
  await page.keyboard.press('a');
  await page.keyboard.press('a');
  await expect(page.getByRole('alert').filter({ hasText: 'This API key has been revoked.' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('status', { name: /Decisions: 2 unsent · paused/ })).toBeVisible();
  expect((await serviceApi(request).usage()).filter((r) => r.item_id && ids.includes(r.item_id))).toHaveLength(0);

  const fresh = createKey('Replacement reviewer', ['sub_sim_product']);
  await page.getByRole('link', { name: 'Replace the key' }).click();
  await page.getByLabel('API key', { exact: true }).fill(fresh.key);
  await page.getByRole('button', { name: 'Save key' }).click();
  await saved(page);
  const receipts = (await serviceApi(request).usage()).filter((r) => r.item_id && ids.includes(r.item_id));
  expect(receipts.map((r) => r.item_id).sort()).toEqual([...ids].sort());
});
