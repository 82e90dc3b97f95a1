import { expect, test, type Page } from '@playwright/test';
import Database from 'libsql';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { serviceApi } from './support/api';
import { createKey, E2E_DATA, importFixture } from './support/service';

test.describe.configure({ mode: 'serial' });

/** A live subscription of its own, so the disputes here change nothing other specs pull. */
const LIVE = 'sub_e2e_reasons';
const SIM = 'sub_e2e_reasons_sim';
/** Simulated items disputed one at a time in the review (d, a number, Enter). */
const SIM_SINGLE = 'sub_e2e_reasons_single';
let key: string;

test.beforeAll(() => {
  importFixture('reasons', {
    frontiers: [{ frontier_id: '9500', title: 'Reasons stream', status: 'ONLINE' }],
    tasks: [{ task_id: '9501', frontier_id: '9500', name: 'Reason boxes', task_type: 'OBJECT_DETECTION', status: 'COLLECTING' }],
    submissions: Array.from({ length: 10 }, (_, i) => ({
      submission_id: String(45_000_000 + i),
      task_id: '9501',
      data: { text: `street scene ${i}` },
      quality_score: 0.5,
      quality_grade: 'B',
      source: 'vendor-r',
      created_at: '2026-03-01T00:00:00Z',
    })),
    verticals: [{ id: 'v-e2e-reasons', slug: 'e2e-reasons', name: 'Reason lots', description: 'disputed with reasons', base_price_usd: 0.01 }],
    items: Array.from({ length: 6 }, (_, i) => ({
      id: i < 3 ? `reasons-sim-${i}` : `reasons-single-${i - 3}`,
      vertical_id: 'v-e2e-reasons',
      topic_id: 'topic-e2e-reasons',
      subscription_id: i < 3 ? SIM : SIM_SINGLE,
      payload: { text: `lot item ${i}` },
      quality_score: 0.4,
      quality_method: 'consensus',
      validator_count: 3,
      consensus_ratio: 0.67,
      unit_price_usd: 0.017,
      created_at: '2026-03-02T00:00:00Z',
    })),
    // An organization of its own: its receipts and deliveries stay off the demo's Usage and Deliveries pages, which other specs read.
    subscriptions: [
      { subscription_id: LIVE, kind: 'live', frontier_id: '9500', task_ids: ['9501'], name: 'Reasons', org_id: 'org_e2e_reasons' },
      { subscription_id: SIM, kind: 'simulated', vertical_id: 'v-e2e-reasons', name: 'Reason lots', org_id: 'org_e2e_reasons' },
      { subscription_id: SIM_SINGLE, kind: 'simulated', vertical_id: 'v-e2e-reasons', name: 'Reason singles', org_id: 'org_e2e_reasons' },
    ],
  });
  key = createKey('Reasons', [LIVE, SIM, SIM_SINGLE]).key;
});

/**
 * The reason the service recorded for each disputed submission. The interface answers only the
 * feedback (`consumer_feedback`), not its reason, so the service's own record is read from its
 * database (read-only, while it runs: WAL).
 */
function recordedReasons(): Map<string, string | null> {
  const db = new Database(join(E2E_DATA, 'service.db'), { readonly: true });
  try {
    const rows = db.prepare('SELECT submission_id, reason FROM live_feedback WHERE subscription_id = ? AND feedback = ?').all(LIVE, 'dispute') as {
      submission_id: string;
      reason: string | null;
    }[];
    return new Map(rows.map((r) => [r.submission_id, r.reason]));
  } finally {
    db.close();
  }
}

/** The service's status of each simulated item of a subscription (pending, adopted, disputed), from its database. */
function itemStatuses(subscriptionId: string): Map<string, string> {
  const db = new Database(join(E2E_DATA, 'service.db'), { readonly: true });
  try {
    const rows = db.prepare('SELECT id, status FROM items WHERE subscription_id = ?').all(subscriptionId) as { id: string; status: string }[];
    return new Map(rows.map((r) => [r.id, r.status]));
  } finally {
    db.close();
  }
}

const list = (page: Page) => page.getByRole('listbox', { name: 'Items on this page' });
const focusedItem = (page: Page) => page.getByRole('region', { name: 'Focused item' });
const focusedId = async (page: Page) => (await focusedItem(page).getByRole('heading').textContent())!.replace(/^(Submission|Item) /, '');
const saved = (page: Page) => expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();
const reasonForm = (page: Page) => page.getByRole('form', { name: 'Dispute reason' });

/** Connects through the UI with this spec's key, remembered on this device (so a second tab has it). */
async function connect(page: Page) {
  await page.goto('/connection');
  await page.getByRole('textbox', { name: 'Name' }).fill('Reasons');
  await page.getByLabel('API key', { exact: true }).fill(key);
  await page.getByRole('textbox', { name: 'Subscription 1 ID' }).fill(LIVE);
  await page.getByRole('combobox', { name: 'Subscription 1 kind' }).selectOption({ label: 'Live' });
  await page.getByRole('button', { name: 'Add subscription' }).click();
  await page.getByRole('textbox', { name: 'Subscription 2 ID' }).fill(SIM);
  await page.getByRole('combobox', { name: 'Subscription 2 kind' }).selectOption({ label: 'Simulated' });
  await page.getByRole('button', { name: 'Add subscription' }).click();
  await page.getByRole('textbox', { name: 'Subscription 3 ID' }).fill(SIM_SINGLE);
  await page.getByRole('combobox', { name: 'Subscription 3 kind' }).selectOption({ label: 'Simulated' });
  await page.getByRole('checkbox', { name: /Remember on this device/ }).check();
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Review', level: 1 })).toBeVisible();
}

/** The review of the spec's subscription: its new items (the first visit), else a re-read from the beginning, focused on an undecided item. */
async function openReview(page: Page, mode: 'new' | 'reread') {
  await page.goto(`/review/${LIVE}?limit=10&mode=${mode}`);
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(list(page).getByRole('option').first()).toBeVisible();
  await page.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('1');
  if (mode === 'reread')
    await list(page)
      .getByRole('option', { name: /, new$/ })
      .first()
      .click();
  else await list(page).focus();
}

async function openItems(page: Page, subscriptionId: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Items' }).click();
  await page.getByRole('link', { name: `Items of ${subscriptionId}`, exact: true }).click();
}

/** Exports everything the Items view holds in a format (downloaded: no save picker) and returns the file's text. */
async function exportText(page: Page, format: 'CSV (.csv)' | 'JSON Lines (.jsonl)'): Promise<string> {
  await page.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('radio', { name: /^Everything/ }).check();
  await dialog.getByRole('radio', { name: format }).check();
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: /^Export [\d,]+ items?$/ }).click();
  const text = readFileSync(await (await download).path(), 'utf8');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  return text;
}

/** The CSV export read back by item. */
async function exportCsv(page: Page): Promise<Map<string, Record<string, string>>> {
  const csv = await exportText(page, 'CSV (.csv)');
  return new Map(Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true, comments: '#' }).data.map((r) => [r.item_id!, r]));
}

/** The JSON Lines export read back by item (the manifest line has no item). */
async function exportJsonl(page: Page): Promise<Map<string, Record<string, unknown>>> {
  const lines = (await exportText(page, 'JSON Lines (.jsonl)')).split('\n').filter((line) => line.trim() !== '');
  const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((r) => typeof r.item_id === 'string');
  return new Map(records.map((r) => [r.item_id as string, r]));
}

test('in the review, d then a number picks a reason code; Enter disputes and the service records the reason code first', async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.addInitScript(() => Object.defineProperty(window, 'showSaveFilePicker', { value: undefined }));
  await connect(page);
  await openReview(page, 'new');

  // d opens the reason on its codes: 2 picks the second default code; typing on goes into the text (digits are text there).
  const first = await focusedId(page);
  await page.keyboard.press('d');
  const form = reasonForm(page);
  await expect(form.getByRole('radio', { name: 'No code' })).toBeFocused();
  await page.keyboard.press('2');
  await expect(form.getByRole('radio', { name: 'Missing object (missing_object)' })).toBeChecked();
  await expect(form.getByRole('radio', { name: 'Missing object (missing_object)' })).toHaveAttribute('aria-keyshortcuts', '2');
  await page.keyboard.type('tail 2 not boxed');
  await expect(form.getByRole('textbox', { name: /Reason text/ })).toBeFocused();
  await expect(form.getByRole('textbox', { name: /Reason text/ })).toHaveValue('tail 2 not boxed');
  await expect(form.getByRole('radio', { name: 'Missing object (missing_object)' })).toBeChecked();
  await page.keyboard.press('Enter');
  await expect(form).toBeHidden();

  // Another with a number key only: the reason is the code alone.
  await expect(focusedItem(page).getByRole('heading')).not.toHaveText(`Submission ${first}`);
  const second = await focusedId(page);
  await page.keyboard.press('d');
  await expect(reasonForm(page)).toBeVisible();
  await page.keyboard.press('1');
  await expect(reasonForm(page).getByRole('radio', { name: 'Wrong label (wrong_label)' })).toBeChecked();
  await page.keyboard.press('Enter');
  await saved(page);

  // The service's record: both disputed, each reason code first.
  const feedback = new Map((await serviceApi(request, key).reread(LIVE)).map((s) => [s.submission_id, s.consumer_feedback]));
  expect(feedback.get(first)).toBe('dispute');
  expect(feedback.get(second)).toBe('dispute');
  const reasons = recordedReasons();
  expect(reasons.get(first)).toBe('missing_object: tail 2 not boxed');
  expect(reasons.get(second)).toBe('wrong_label');

  // Statistics count the disputes by reason.
  await page.goto(`/stats/${LIVE}`);
  const table = page.getByRole('table', { name: 'Disputed items per reason code' });
  await expect(table.getByRole('row', { name: 'Missing object missing_object 1 50%' })).toBeVisible();
  await expect(table.getByRole('row', { name: 'Wrong label wrong_label 1 50%' })).toBeVisible();

  // The CSV export carries the reason and its code.
  await openItems(page, LIVE);
  const rows = await exportCsv(page);
  expect(rows.get(first)).toMatchObject({ decision: 'dispute', reason: 'missing_object: tail 2 not boxed', reason_code: 'missing_object' });
  expect(rows.get(second)).toMatchObject({ decision: 'dispute', reason: 'wrong_label', reason_code: 'wrong_label' });
});

test('a simulated item: d, 2, Enter keeps the reason here (never sent: 4.12 has no body), shows it, counts it and exports it; d, Enter disputes without a reason', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.addInitScript(() => Object.defineProperty(window, 'showSaveFilePicker', { value: undefined }));
  await connect(page);
  await page.goto(`/review/${SIM_SINGLE}?limit=10`);
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(list(page).getByRole('option')).toHaveCount(3);
  await page.getByRole('spinbutton', { name: 'Undo window (s)' }).fill('1');
  const bodies: (string | null)[] = [];
  page.on('request', (r) => r.url().includes('/v1/data/items/') && r.url().endsWith('/dispute') && bodies.push(r.postData()));
  await list(page).focus();

  // d opens the same picker as for a live item, on its codes: 2 picks the second, Enter disputes.
  const first = await focusedId(page);
  await page.keyboard.press('d');
  const form = reasonForm(page);
  await expect(form.getByRole('radio', { name: 'No code' })).toBeFocused();
  await page.keyboard.press('2');
  await expect(form.getByRole('radio', { name: 'Missing object (missing_object)' })).toBeChecked();
  await page.keyboard.press('Enter');
  await expect(form).toBeHidden();
  await expect(focusedItem(page).getByRole('heading')).not.toHaveText(`Item ${first}`);

  // d then Enter alone: disputed without a reason.
  const second = await focusedId(page);
  await page.keyboard.press('d');
  await expect(reasonForm(page).getByRole('radio', { name: 'No code' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(reasonForm(page)).toBeHidden();
  await saved(page);

  // The service disputed both, each without a body; the third is still pending.
  const statuses = itemStatuses(SIM_SINGLE);
  expect(statuses.get(first)).toBe('disputed');
  expect(statuses.get(second)).toBe('disputed');
  expect([...statuses.values()].filter((s) => s === 'pending')).toHaveLength(1);
  expect(bodies).toHaveLength(2);
  for (const body of bodies) expect(body ?? '').toBe('');

  // The item shows its reason, after a reload too (kept with the decision in this browser).
  await page.reload();
  await list(page)
    .getByRole('option', { name: new RegExp(`^Item ${first}`) })
    .click();
  await expect(focusedItem(page).getByText('Dispute reason: missing_object')).toBeVisible();
  await list(page)
    .getByRole('option', { name: new RegExp(`^Item ${second}`) })
    .click();
  await expect(focusedItem(page).getByText(/Dispute reason/)).toHaveCount(0);

  // Statistics count them by reason.
  await page.goto(`/stats/${SIM_SINGLE}`);
  const table = page.getByRole('table', { name: 'Disputed items per reason code' });
  await expect(table.getByRole('row', { name: 'Missing object missing_object 1 50%' })).toBeVisible();
  await expect(table.getByRole('row', { name: 'No reason no_reason 1 50%' })).toBeVisible();

  // Both exports carry the reason and its code.
  await openItems(page, SIM_SINGLE);
  const csv = await exportCsv(page);
  expect(csv.get(first)).toMatchObject({ decision: 'dispute', reason: 'missing_object', reason_code: 'missing_object' });
  expect(csv.get(second)).toMatchObject({ decision: 'dispute', reason: '' });
  expect(csv.get(second)!.reason_code).not.toBe('missing_object');
  const jsonl = await exportJsonl(page);
  expect(jsonl.get(first)).toMatchObject({ decision: 'dispute', reason: 'missing_object', reason_code: 'missing_object' });
  expect(jsonl.get(second)).toMatchObject({ decision: 'dispute', reason: null });
});

test('a live item: d then Enter alone disputes without a reason, and the Dispute button opens the same picker', async ({ page, request }) => {
  test.setTimeout(120_000);
  await connect(page);
  await openReview(page, 'reread');
  const id = await focusedId(page);
  await page.keyboard.press('d');
  await expect(reasonForm(page).getByRole('radio', { name: 'No code' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(reasonForm(page)).toBeHidden();

  // The button: the same picker, 3 picks the third code.
  await expect(focusedItem(page).getByRole('heading')).not.toHaveText(`Submission ${id}`);
  const next = await focusedId(page);
  await focusedItem(page).getByRole('button', { name: 'Dispute', exact: true }).click();
  await expect(reasonForm(page).getByRole('radio', { name: 'No code' })).toBeFocused();
  await page.keyboard.press('3');
  await page.keyboard.press('Enter');
  await saved(page);
  const feedback = new Map((await serviceApi(request, key).reread(LIVE)).map((s) => [s.submission_id, s.consumer_feedback]));
  expect(feedback.get(id)).toBe('dispute');
  expect(feedback.get(next)).toBe('dispute');
  const reasons = recordedReasons();
  expect(reasons.has(id)).toBe(true);
  expect(reasons.get(id)).toBeNull();
  expect(reasons.get(next)).toBe('box_too_loose');
});

test('the editor renames and reorders the codes, for every tab; after a reload the dialog has the new order and 1 picks the new first code', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  await connect(page);
  await openReview(page, 'reread');
  // The dialog links to the editor.
  await page.keyboard.press('d');
  await reasonForm(page).getByRole('link', { name: 'Edit reasons' }).click();
  await expect(page.getByRole('heading', { name: 'Dispute reasons', level: 1 })).toBeVisible();
  const other = await context.newPage();
  await other.goto('/dispute-reasons');
  await expect(other.getByRole('textbox', { name: 'Label of missing_object' })).toHaveValue('Missing object');

  // Rename missing_object and move it to the top.
  const label = page.getByRole('textbox', { name: 'Label of missing_object' });
  await label.fill('Object missing');
  await label.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Renamed missing_object' })).toBeVisible();
  await page.getByRole('button', { name: 'Move missing_object up' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Moved missing_object up.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Move missing_object up' })).toBeDisabled();
  // The other tab shows it without a reload.
  await expect(other.getByRole('textbox', { name: 'Label of missing_object' })).toHaveValue('Object missing');
  await expect(other.getByRole('list', { name: 'Reason codes' }).getByRole('listitem').first()).toContainText('missing_object');
  await other.close();

  // After a reload the review's dialog lists the new order: 1 picks missing_object.
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Label of missing_object' })).toHaveValue('Object missing');
  await openReview(page, 'reread');
  const id = await focusedId(page);
  await page.keyboard.press('d');
  const radios = reasonForm(page).getByRole('radio');
  await expect(radios.first()).toHaveAccessibleName('Object missing (missing_object)');
  await expect(radios.nth(1)).toHaveAccessibleName('Wrong label (wrong_label)');
  await page.keyboard.press('1');
  await expect(reasonForm(page).getByRole('radio', { name: 'Object missing (missing_object)' })).toBeChecked();
  await page.keyboard.press('Enter');
  await saved(page);
  const feedback = new Map((await serviceApi(request, key).reread(LIVE)).map((s) => [s.submission_id, s.consumer_feedback]));
  expect(feedback.get(id)).toBe('dispute');
  expect(recordedReasons().get(id)).toBe('missing_object');
});

test('the editor works at 390 px: every control named and reachable', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await connect(page);
  await page.goto('/dispute-reasons');
  await expect(page.getByRole('textbox', { name: 'Label of wrong_label' })).toBeVisible();
  // Nothing wider than the window.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByRole('textbox', { name: 'New reason label' }).fill('Blurry image');
  await expect(page.getByRole('textbox', { name: 'New reason code (snake_case)' })).toHaveValue('blurry_image');
  await page.getByRole('button', { name: 'Add reason' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Added blurry_image.' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Label of blurry_image' })).toHaveValue('Blurry image');
  await page.getByRole('button', { name: 'Remove blurry_image' }).click();
  await expect(page.getByRole('textbox', { name: 'Label of blurry_image' })).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('a bulk dispute of simulated items in the Items view takes a code by number: kept with the decisions and exported, never sent (4.12 has no body)', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await page.addInitScript(() => Object.defineProperty(window, 'showSaveFilePicker', { value: undefined }));
  await connect(page);
  await page.goto(`/review/${SIM}?limit=10`);
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(list(page).getByRole('option')).toHaveCount(3);
  const bodies: (string | null)[] = [];
  page.on('request', (r) => r.url().includes('/v1/data/items/') && r.url().endsWith('/dispute') && bodies.push(r.postData()));

  await openItems(page, SIM);
  await page.getByRole('button', { name: 'Dispute all 3 matching' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Dispute 3 items?' });
  await expect(confirm.getByRole('radio', { name: 'No code' })).toBeFocused();
  await page.keyboard.press('4');
  await expect(confirm.getByRole('radio', { name: 'Duplicate (duplicate)' })).toBeChecked();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Bulk decisions sent' })).toContainText('3 of 3 confirmed', { timeout: 60_000 });

  // The service disputed them (none is pending any more), each without a body.
  expect(await serviceApi(request, key).pending(SIM)).toEqual([]);
  expect(bodies).toHaveLength(3);
  for (const body of bodies) expect(body ?? '').toBe('');
  // The reason stays here: in the export.
  const rows = await exportCsv(page);
  expect([...rows.values()].map((r) => [r.decision, r.reason, r.reason_code])).toEqual(Array.from({ length: 3 }, () => ['dispute', 'duplicate', 'duplicate']));
});
