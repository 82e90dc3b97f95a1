import { expect, test, type Page } from '@playwright/test';
import { recordDecisionStatuses } from './support/decision-status';
import { serviceApi } from './support/api';
import { connectDemo, connectWith } from './support/console';
import { storedRows } from './support/idb';
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
    if (calls === 3)
      return route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false,"errorCode":"INTERNAL_ERROR","errorMessage":"injected"}' });
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

test('offline, decisions wait past their undo window; online, they are sent', async ({ page, request }) => {
  await connectDemo(page);
  await page.goto('/review/sub_sim_product?limit=2');
  // A short window, so the decisions are due soon; the default is tested in the next test.
  await page.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('1');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option')).toHaveCount(2);
  const ids = (await serviceApi(request).pending('sub_sim_product', 2)).map((i) => i.id);
  const sent: string[] = [];
  page.on('request', (r) => r.url().includes('/dispute') && sent.push(r.url()));
  await page.context().setOffline(true);
  // Each D opens the reason picker; Enter alone disputes without a reason.
  for (let i = 0; i < 2; i++) {
    await page.keyboard.press('d');
    await expect(page.getByRole('radio', { name: 'No code' })).toBeFocused();
    await page.keyboard.press('Enter');
  }
  // The window is over once the stored rows leave 'grace' for 'queued': from then on the
  // decisions are due and only being offline holds them. (Not watched through the Undo button: a
  // 1 s window on a loaded machine can come and go between two of Playwright's looks.) The rows
  // must also say they were never tried: an outbox that sent while offline would have counted an
  // attempt (and written it before this read, which the browser orders after that write), and
  // the request would be in `sent`.
  const decisions = () => storedRows<{ state: string; attempts: number }>(page, 'decisions');
  await expect.poll(async () => (await decisions()).map((d) => d.state)).toEqual(['queued', 'queued']);
  expect((await decisions()).map((d) => [d.state, d.attempts])).toEqual([
    ['queued', 0],
    ['queued', 0],
  ]);
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
  const [first, second] = (await serviceApi(request).pending('sub_sim_product', 2)).map((i) => i.id) as [string, string];
  const sent: string[] = [];
  page.on('request', (r) => /\/v1\/data\/items\/.*\/(adopt|dispute)$/.test(r.url()) && sent.push(r.url()));
  const waiting = page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option', { name: /waiting to send/ });
  await page.keyboard.press('a');
  await expect(waiting).toHaveCount(1);
  await page.keyboard.press('z');
  await expect(waiting).toHaveCount(0);
  // The witness: a later decision, with the same (default 3 s) window, is sent. The undone one's
  // window ended before this one's, and due decisions go oldest first, so had the undo not held,
  // its request would have been made before this one's.
  await page.keyboard.press('j');
  await expect(page.getByRole('region', { name: 'Focused item' }).getByRole('heading')).toContainText(second.slice(0, 8));
  const later = page.waitForRequest((r) => r.url().endsWith(`/v1/data/items/${second}/dispute`));
  await page.keyboard.press('d');
  await expect(page.getByRole('radio', { name: 'No code' })).toBeFocused();
  await page.keyboard.press('Enter');
  await later;
  await saved(page);
  expect(sent.map((url) => url.replace(/^.*\/v1\/data\/items\//, ''))).toEqual([`${second}/dispute`]);
  const pending = (await serviceApi(request).pending('sub_sim_product', 5)).map((i) => i.id);
  expect(pending).toContain(first);
  expect(pending).not.toContain(second);
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

  // Every text the decision status takes in the next page.
  const shown = await recordDecisionStatuses(page);
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
  // This page took the page before's decisions over: at no moment were they another tab's.
  expect((await shown()).filter((text) => /another tab/.test(text))).toEqual([]);
  const feedback = async () => (await serviceApi(request).reread('sub_live_streets')).find((s) => s.submission_id === liveId)?.consumer_feedback;
  await expect.poll(feedback).toBe('dispute');
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
  const sentByB: string[] = [];
  b.on('request', (r) => /\/v1\/live\/items\/.*\/(adopt|dispute)$/.test(r.url()) && sentByB.push(r.url()));
  await b.goto('/review/sub_live_streets?limit=3');
  const listB = b.getByRole('listbox', { name: 'Items on this page' });
  // B shows A's decisions live, as A's: it has read them and knows whose they are.
  await expect(listB.getByRole('option', { name: /waiting to send/ })).toHaveCount(2);
  // Its header does not call them saved: they wait in the other tab.
  await expect(b.getByRole('status', { name: 'Decisions: 2 unsent in another tab' })).toBeVisible();
  const feedbackOf = async (id: string) =>
    (await serviceApi(request).reread('sub_live_streets')).find((s) => s.submission_id === id)?.consumer_feedback ?? null;
  // The witness that B sends, and leaves A's alone: B decides the third item with no undo window
  // and sends it. B learnt of A's decisions before this one was made, so a B that took them over
  // while A is open would have sent them first.
  await b.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('0');
  await listB.getByRole('option', { name: /, new/ }).click();
  const ownId = (await focusedTitle(b)).replace('Submission ', '');
  expect([keptId, undoneId]).not.toContain(ownId);
  const own = b.waitForRequest((r) => r.url().endsWith(`/v1/live/items/${ownId}/adopt`));
  await b.keyboard.press('a');
  await own;
  await expect.poll(() => feedbackOf(ownId)).toBe('adopt');
  expect(
    sentByB.map((url) => url.replace(/^.*\/v1\/live\/items\//, '')),
    'the other tab leaves A’s decisions alone',
  ).toEqual([`${ownId}/adopt`]);
  expect(await feedbackOf(keptId)).toBeNull();

  // A's undo still holds.
  await a.keyboard.press('z');
  await expect(a.getByRole('status', { name: /Decisions: 1 unsent/ })).toBeVisible();
  await expect(b.getByRole('status', { name: 'Decisions: 1 unsent in another tab' })).toBeVisible();
  // A closes inside its undo window: B takes over what A left, and sends it.
  await a.close();
  await expect.poll(() => feedbackOf(keptId)).toBe('adopt');
  await expect(b.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();
  expect(await feedbackOf(undoneId)).toBeNull();
});

test('Disconnect in one tab counts the other tab’s unsent decision, and that tab stops sending with the forgotten key', async ({ context, request }) => {
  const a = await context.newPage();
  await connectDemo(a, { remember: true });
  await a.goto('/review/sub_live_streets?limit=3');
  // Long enough for the second tab to load and open its dialog while A still holds the decision (5 s
  // was not, on a loaded machine: the decision was sent first and the dialog rightly counted none).
  await a.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('30');
  await a.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(a.getByRole('listbox', { name: 'Items on this page' }).getByRole('option').first()).toBeVisible();
  const heldId = (await focusedTitle(a)).replace('Submission ', '');
  await a.keyboard.press('a');
  await expect(a.getByRole('status', { name: 'Decisions: 1 unsent' })).toBeVisible();

  // Another tab disconnects: its dialog counts the decision A still holds.
  const b = await context.newPage();
  await b.goto('/connection');
  await b.getByRole('button', { name: 'Disconnect Local demo' }).click();
  const dialog = b.getByRole('alertdialog', { name: 'Disconnect Local demo?' });
  await expect(dialog).toContainText('1 unsent decision (1 in another tab)');
  await dialog.getByRole('checkbox', { name: /Also delete them from this device/ }).check();
  await expect(dialog).toContainText('The 1 unsent decision will never be sent.');
  await dialog.getByRole('checkbox', { name: /Also delete them from this device/ }).uncheck();
  await dialog.getByRole('button', { name: 'Disconnect and keep local data' }).click();
  await expect(b.getByRole('button', { name: 'Reconnect Local demo' })).toBeVisible();

  // A forgets the key too: once its undo window ends, the decision waits (paused), unsent.
  await expect(a.getByRole('status', { name: /^Connection status:/ })).toHaveAccessibleName('Connection status: disconnected');
  await expect(a.getByRole('status', { name: 'Decisions: 1 unsent · paused' })).toBeVisible({ timeout: 60_000 });
  const feedback = (await serviceApi(request).reread('sub_live_streets')).find((s) => s.submission_id === heldId)?.consumer_feedback ?? null;
  expect(feedback).toBeNull();
});

test('a key revoked mid-review pauses the outbox; a new key resumes it with nothing lost or doubled', async ({ page, request }) => {
  const key = createKey('Revoked during review', ['sub_sim_product']);
  await connectWith(page, 'Reviewer', key.key, [{ id: 'sub_sim_product', kind: 'Simulated' }]);
  await openPending(page, 'sub_sim_product', 3);
  const ids = (await serviceApi(request).pending('sub_sim_product', 2)).map((i) => i.id);
  revokeKey(key.key_id);
  await page.keyboard.press('a');
  await page.keyboard.press('a');
  await expect(page.getByRole('alert').filter({ hasText: 'This API key has been revoked.' })).toBeVisible();
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
