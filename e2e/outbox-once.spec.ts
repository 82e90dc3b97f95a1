import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { serviceApi } from './support/api';
import { connectWith } from './support/console';
import { createKey, revokeKey } from './support/service';

/**
 * One send per decision: a tab whose key was refused gets a new one ("Save key") and, right after,
 * the user navigates (a page load). The decisions the new key started to send are on the wire when
 * the page goes; the next page must not send them again. Every adopt POST is counted per item.
 */
test.describe.configure({ mode: 'serial' });

const SUB = 'sub_live_streets';

/** Every adopt POST any tab of the context sends, per submission. */
function countAdopts(context: BrowserContext) {
  const counts = new Map<string, number>();
  context.on('request', (r) => {
    if (r.method() !== 'POST') return;
    const id = /\/v1\/live\/items\/([^/]+)\/adopt/.exec(r.url())?.[1];
    if (id) counts.set(decodeURIComponent(id), (counts.get(decodeURIComponent(id)) ?? 0) + 1);
  });
  return counts;
}

const focusedTitle = async (page: Page) => (await page.getByRole('region', { name: 'Focused item' }).getByRole('heading').textContent())!;

async function decideFive(page: Page, name: string) {
  const key = createKey(name, [SUB]);
  await connectWith(page, name, key.key, [{ id: SUB, kind: 'Live' }]);
  await page.goto(`/review/${SUB}?limit=10`);
  await page.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('0');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  const list = page.getByRole('listbox', { name: 'Items on this page' });
  await expect(list.getByRole('option').first()).toBeVisible();
  await list.focus();
  // The key is refused: the five decisions wait, paused.
  revokeKey(key.key_id);
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    ids.push((await focusedTitle(page)).replace(/^(Submission|Item) /, ''));
    await page.keyboard.press('a');
    await expect(page.getByRole('region', { name: 'Focused item' }).getByRole('heading')).not.toHaveText(new RegExp(`${ids.at(-1)}$`));
  }
  await expect(page.getByRole('status', { name: /Decisions: 5 unsent · paused/ })).toBeVisible({ timeout: 15_000 });
  return ids;
}

async function expectOnce(
  page: Page,
  request: APIRequestContext,
  key: string,
  ids: string[],
  adopts: Map<string, number>,
  before: Map<string, number>,
  label: string,
) {
  await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible({ timeout: 60_000 });
  const feedback = await serviceApi(request, key).reread(SUB);
  for (const id of ids) expect(feedback.find((s) => s.submission_id === id)?.consumer_feedback, id).toBe('adopt');
  const sentAfter = ids.map((id) => (adopts.get(id) ?? 0) - before.get(id)!);
  console.log(`${label}: adopt POSTs per decision after the new key: ${sentAfter.join(', ')} (duplicates: ${sentAfter.filter((n) => n > 1).length})`);
  expect(sentAfter).toEqual([1, 1, 1, 1, 1]);
}

test('a reconnecting tab that moves to another page right after Save key sends each decision once', async ({ context, request }) => {
  const adopts = countAdopts(context);
  const page = await context.newPage();
  const ids = await decideFive(page, 'Reconnect and click');
  const before = new Map(ids.map((id) => [id, adopts.get(id) ?? 0]));
  const fresh = createKey('Reconnect and click again', [SUB]);
  await page.getByRole('link', { name: 'Replace the key' }).click();
  await page.getByLabel('API key', { exact: true }).fill(fresh.key);
  await page.getByRole('button', { name: 'Save key' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Review' }).click();
  await expectOnce(page, request, fresh.key, ids, adopts, before, 'in-app navigation');
});

test('a reconnecting tab whose page is reloaded while its decisions are on the wire sends each decision once', async ({ context, request }) => {
  const adopts = countAdopts(context);
  const page = await context.newPage();
  const ids = await decideFive(page, 'Reconnect and load');
  const before = new Map(ids.map((id) => [id, adopts.get(id) ?? 0]));
  const fresh = createKey('Reconnect and load again', [SUB]);
  await page.getByRole('link', { name: 'Replace the key' }).click();
  await page.getByLabel('API key', { exact: true }).fill(fresh.key);
  const firstAdopt = page.waitForRequest((r) => r.method() === 'POST' && /\/v1\/live\/items\/.+\/adopt/.test(r.url()));
  await page.getByRole('button', { name: 'Save key' }).click();
  // As soon as the new key sends the first decision, another page is loaded in the tab.
  await firstAdopt;
  await page.goto('/review');
  await expectOnce(page, request, fresh.key, ids, adopts, before, 'page load');
});
