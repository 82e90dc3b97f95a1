import { expect, test, type Page } from '@playwright/test';
import Database from 'libsql';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectWith } from './support/console';
import { createKey, E2E_DATA, importFixture } from './support/service';

/**
 * Lots under the standard's plans (issue 27): a delivery of exactly 1,000 pending simulated items
 * sampled at AQL 1.0, level II (J: 80, accept 2, reject 3), and a small delivery sampled lot after
 * lot until the switching rules move the subscription to tightened inspection.
 */
const BIG = 'sub_e2e_aql';
const BIG_DELIVERY = 'dlv-e2e-aql-1000';
const SMALL = 'sub_e2e_aql_switch';
const SMALL_DELIVERY = 'dlv-e2e-aql-switch';
const item = (id: string, subscription: string, delivery: string, i: number) => ({
  id,
  vertical_id: 'v-e2e-aql',
  topic_id: 'topic-e2e-aql',
  subscription_id: subscription,
  delivery_id: delivery,
  payload: { text: `inspected item ${i}` },
  quality_score: 0.8,
  quality_method: 'consensus',
  validator_count: 3,
  consensus_ratio: 0.67,
  unit_price_usd: 0.001,
  created_at: '2026-03-03T00:00:00Z',
});
const BIG_IDS = Array.from({ length: 1000 }, (_, i) => `aql-${String(i).padStart(4, '0')}`);
const SMALL_IDS = Array.from({ length: 12 }, (_, i) => `aql-sw-${String(i).padStart(2, '0')}`);
let key: string;

test.beforeAll(() => {
  importFixture('aql', {
    frontiers: [],
    tasks: [],
    submissions: [],
    verticals: [{ id: 'v-e2e-aql', slug: 'e2e-aql', name: 'AQL lots', description: 'lots under standard sampling plans', base_price_usd: 0.001 }],
    items: [...BIG_IDS.map((id, i) => item(id, BIG, BIG_DELIVERY, i)), ...SMALL_IDS.map((id, i) => item(id, SMALL, SMALL_DELIVERY, i))],
    subscriptions: [
      { subscription_id: BIG, kind: 'simulated', vertical_id: 'v-e2e-aql', name: 'AQL lot of 1,000', org_id: 'org_e2e_aql' },
      { subscription_id: SMALL, kind: 'simulated', vertical_id: 'v-e2e-aql', name: 'Switching lots', org_id: 'org_e2e_aql' },
    ],
  });
  key = createKey('AQL lots', [BIG, SMALL]).key;
});

/** The service's own record of each item's status, read from its database (read-only, while it runs: WAL). */
function serviceStatuses(subscription: string): Map<string, string> {
  const db = new Database(join(E2E_DATA, 'service.db'), { readonly: true });
  try {
    const rows = db.prepare('SELECT id, status FROM items WHERE subscription_id = ?').all(subscription) as { id: string; status: string }[];
    return new Map(rows.map((r) => [r.id, r.status]));
  } finally {
    db.close();
  }
}

const focusedTitle = (page: Page) => page.getByRole('region', { name: 'Focused item' }).getByRole('heading').first();

/**
 * Decides the focused sampled items one by one with the keys, in order: `a` adopts; `d` disputes
 * (its reason picker is confirmed with Enter alone). Waits for each decision to be counted.
 */
async function decideByKeys(page: Page, keys: readonly ('a' | 'd')[], total: number) {
  const title = focusedTitle(page);
  await expect(page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option').first()).toBeVisible();
  const decided: string[] = [];
  for (const [i, key] of keys.entries()) {
    const id = (await title.textContent())!.replace(/^Item /, '').trim();
    await page.keyboard.press(key);
    if (key === 'd') {
      // The reason picker opens for simulated items too: Enter alone disputes without a code.
      await expect(page.getByRole('radio', { name: 'No code' })).toBeFocused();
      await page.keyboard.press('Enter');
    }
    await expect(page.getByText(`${i + 1} of ${total} decided`)).toBeVisible();
    decided.push(id);
  }
  // Sent and confirmed before the page is left (the undo window passes first).
  await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();
  return decided;
}

test('a delivery of exactly 1,000 items at AQL 1.0, level II: sample 80, accept 2, reject 3; 3 disputes reject it; disputing the rest records exactly the rest', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.addInitScript(() => Object.defineProperty(window, 'showSaveFilePicker', { value: undefined }));
  await connectWith(page, 'AQL lots', key, [{ id: BIG, kind: 'Simulated' }]);
  await page.goto(`/deliveries/${BIG_DELIVERY}`);
  await page.getByRole('button', { name: 'Sample this delivery…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sample 1,000 undecided items' });
  await expect(dialog.getByRole('radio', { name: /^Standard plan/ })).toBeChecked();
  await dialog.getByRole('combobox', { name: 'AQL (% defective)' }).selectOption('1.0');
  await dialog.getByRole('combobox', { name: 'Inspection level' }).selectOption('II');
  await expect(dialog.getByRole('status', { name: 'Inspection' })).toContainText('Normal inspection by the switching rules');
  const plan = dialog.getByRole('region', { name: 'Sampling plan' });
  await expect(plan).toContainText('Lot size (N)1,000');
  await expect(plan).toContainText('Code letterJ, Table II-A');
  await expect(plan).toContainText('Sample size (n)80');
  await expect(plan).toContainText('Accept if defects ≤ (Ac)2');
  await expect(plan).toContainText('Reject if defects ≥ (Re)3');
  // Another AQL is another plan at once; the zero-acceptance plan is one choice among them.
  await dialog.getByRole('combobox', { name: 'AQL (% defective)' }).selectOption('2.5');
  await expect(plan).toContainText('Accept if defects ≤ (Ac)5');
  await dialog.getByRole('combobox', { name: 'AQL (% defective)' }).selectOption('1.0');
  await dialog.getByRole('button', { name: 'Start: draw 80' }).click();

  await expect(page).toHaveURL(/\/lots\/lot_[0-9a-f]{16}$/);
  const lotUrl = page.url();
  await expect(page.getByLabel('The plan')).toHaveText(
    'AQL 1.0, inspection level II, normal inspection, code letter J: sample 80 of 1,000, accept ≤ 2, reject ≥ 3',
  );
  await expect(page.getByRole('table', { name: 'Operating characteristic' })).toContainText('AQL');
  await expect(page.getByRole('img', { name: /^Operating characteristic curve/ })).toBeVisible();

  // Three disputes by key: the plan rejects the lot at the third, before the sample is done.
  await page.getByRole('link', { name: 'Review the sample' }).click();
  await expect(page.getByText(/^Reviewing 80 items: the sample of lot/)).toBeVisible();
  const disputed = await decideByKeys(page, ['d', 'd', 'd'], 80);
  await page.goBack();
  await expect(page).toHaveURL(lotUrl);
  const recommendation = page.getByRole('status', { name: 'Recommendation' });
  await expect(recommendation).toContainText('Lot: Rejected. Recommendation: Dispute the rest');
  await expect(recommendation).toContainText('Accept the lot with at most 2 defects among the 80 sampled; reject it with 3 or more.');
  await expect(recommendation).toContainText('3 defects found, at or above the rejection number 3: the lot is rejected (no further review can change that).');
  await expect(page.getByText('3 of 80 reviewed')).toBeVisible();

  // Dispute the rest: a bulk decision over the 920 items outside the sample, with a reason.
  await page.getByRole('button', { name: 'Dispute the rest' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Dispute 920 items?' });
  await confirm.getByRole('button', { name: 'Dispute 920' }).click();
  await expect(page.getByRole('region', { name: 'Bulk decisions sent' })).toContainText('920 of 920 confirmed', { timeout: 240_000 });

  // The service's record: exactly the rest and the 3 sampled defects disputed; the 77 sampled items not reviewed stay pending.
  const lotDoc = await exportLot(page);
  const sample = new Set<string>(lotDoc.sample.map((s: { item_id: string }) => s.item_id));
  expect(sample.size).toBe(80);
  const statuses = serviceStatuses(BIG);
  expect(statuses.size).toBe(1000);
  const disputedNow = [...statuses].filter(([, status]) => status === 'disputed').map(([id]) => id);
  const expected = new Set([...BIG_IDS.filter((id) => !sample.has(id)), ...disputed]);
  expect(new Set(disputedNow)).toEqual(expected);
  expect(
    [...statuses]
      .filter(([, status]) => status === 'pending')
      .map(([id]) => id)
      .sort(),
  ).toEqual([...sample].filter((id) => !disputed.includes(id)).sort());
  expect([...statuses.values()].filter((status) => status === 'adopted')).toHaveLength(0);

  // The lot's file carries its plan and outcome.
  expect(lotDoc.plan).toMatchObject({
    kind: 'standard',
    aql: '1.0',
    inspection_level: 'II',
    inspection: 'normal',
    code_letter: 'J',
    sample_size: 80,
    acceptance_number: 2,
    rejection_number: 3,
  });
  expect(lotDoc.outcome).toMatchObject({ defects: 3, decision: 'rejected', recommendation: 'dispute' });
  expect(lotDoc.action).toMatchObject({ decision: 'dispute', recorded: 920 });
});

async function exportLot(page: Page) {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export the lot (JSON)' }).click();
  return JSON.parse(readFileSync((await (await download).path())!, 'utf8'));
}

test('five lots in a row with two rejections switch the subscription to tightened inspection, and the next plan shows it', async ({ page }) => {
  test.setTimeout(240_000);
  await connectWith(page, 'AQL lots', key, [{ id: SMALL, kind: 'Simulated' }]);
  // Level S-1 at AQL 6.5: every lot of 2–50 items is letter A, sample 2, accept 0, reject 1 (Table II-A).
  const outcomes: ('a' | 'd')[][] = [
    ['a', 'a'],
    ['d', 'a'],
    ['a', 'a'],
    ['a', 'a'],
    ['a', 'd'],
  ];
  for (const [i, keys] of outcomes.entries()) {
    await page.goto(`/deliveries/${SMALL_DELIVERY}`);
    await page.getByRole('button', { name: 'Sample this delivery…' }).click();
    const dialog = page.getByRole('dialog', { name: `Sample ${12 - 2 * i} undecided items` });
    await dialog.getByRole('combobox', { name: 'AQL (% defective)' }).selectOption('6.5');
    await dialog.getByRole('combobox', { name: 'Inspection level' }).selectOption('S-1');
    await expect(dialog.getByRole('status', { name: 'Inspection' })).toContainText('Normal inspection by the switching rules');
    await expect(dialog.getByRole('region', { name: 'Sampling plan' })).toContainText('Sample size (n)2');
    await dialog.getByRole('button', { name: 'Start: draw 2' }).click();
    await expect(page).toHaveURL(/\/lots\/lot_[0-9a-f]{16}$/);
    const lotUrl = page.url();
    await page.getByRole('link', { name: 'Review the sample' }).click();
    await decideByKeys(page, keys, 2);
    await page.goBack();
    await expect(page).toHaveURL(lotUrl);
    await expect(page.getByRole('status', { name: 'Recommendation' })).toContainText(keys.includes('d') ? 'Lot: Rejected' : 'Lot: Accepted');
  }
  // The last lot's page tells the history and why.
  const state = page.getByRole('status', { name: 'Inspection state' });
  await expect(state).toContainText('Now: Tightened inspection. 2 of the last 5 lots or fewer on normal inspection were not accepted');
  await expect(page.getByRole('list', { name: 'Switching history' }).getByRole('listitem')).toHaveCount(5);

  // The next plan is tightened: A at 6.5 on Table II-B points down to B: sample 3, accept 0, reject 1.
  await page.goto(`/deliveries/${SMALL_DELIVERY}`);
  await page.getByRole('button', { name: 'Sample this delivery…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sample 2 undecided items' });
  await dialog.getByRole('combobox', { name: 'AQL (% defective)' }).selectOption('6.5');
  await dialog.getByRole('combobox', { name: 'Inspection level' }).selectOption('S-1');
  await expect(dialog.getByRole('status', { name: 'Inspection' })).toContainText('Tightened inspection by the switching rules');
  const plan = dialog.getByRole('region', { name: 'Sampling plan' });
  await expect(plan).toContainText('Table II-B');
  await expect(plan).toContainText('Sample size (n)2 (the table’s 3 exceeds the lot: every item)');
  // A reload finds the same state: it is kept with the subscription's lots in the local store.
  await page.reload();
  await page.getByRole('button', { name: 'Sample this delivery…' }).click();
  await expect(page.getByRole('dialog').getByRole('status', { name: 'Inspection' })).toContainText('Tightened inspection by the switching rules');
});
