import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import { findImage } from '../src/domain/payload/annotations';
import { formatMicros } from '../src/lib/money';
import { micros, serviceApi } from './support/api';
import { connectWith } from './support/console';
import { createKey, importFixture } from './support/service';

test.describe.configure({ mode: 'serial' });

/**
 * A live subscription of its own: bulk-adopting the demo's items would change what other specs
 * pull and list. Grades A–D over a spread of scores, images with boxes and a polygon on most items,
 * one without an image (COCO leaves it out).
 */
const LIVE = 'sub_e2e_bulk';
const SIM = 'sub_e2e_bulk_sim';
const GRADES = ['A', 'B', 'C', 'D'];
let liveKey: string;

test.beforeAll(() => {
  importFixture('bulk', {
    frontiers: [{ frontier_id: '9400', title: 'Bulk stream', status: 'ONLINE' }],
    tasks: [{ task_id: '9401', frontier_id: '9400', name: 'Bulk boxes', task_type: 'OBJECT_DETECTION', status: 'COLLECTING' }],
    submissions: Array.from({ length: 60 }, (_, i) => ({
      submission_id: String(40_000_000 + i),
      task_id: '9401',
      data:
        i % 10 === 9
          ? { text: `no image ${i}` }
          : {
              image_url: `/media/scenes/${(i % 8) + 1}.svg`,
              annotations: [
                { label: i % 2 ? 'car' : 'person', bbox: [10 + i, 20, 60 + i, 80] },
                {
                  label: 'sign',
                  polygon: [
                    [5, 5],
                    [30, 5],
                    [18, 25],
                  ],
                },
              ],
            },
      quality_score: Math.round(((i * 37) % 100) + 1) / 100,
      quality_grade: GRADES[i % 4],
      source: i % 3 ? 'vendor-a' : 'vendor-b',
      created_at: '2026-03-01T00:00:00Z',
    })),
    verticals: [{ id: 'v-e2e-bulk', slug: 'e2e-bulk', name: 'Bulk lots', description: 'bulk adoption by query', base_price_usd: 0.01 }],
    items: Array.from({ length: 40 }, (_, i) => ({
      id: `bulk-sim-${String(i).padStart(2, '0')}`,
      vertical_id: 'v-e2e-bulk',
      topic_id: 'topic-e2e-bulk',
      subscription_id: SIM,
      payload: { text: `lot item ${i}` },
      quality_score: Math.round(((i * 53) % 100) + 1) / 100,
      quality_method: 'consensus',
      validator_count: 3,
      consensus_ratio: 0.67,
      // Fractional cents: the exact total is an integer number of micro-USD, never a float.
      unit_price_usd: [0.017, 0.0123, 0.009999, 0.25][i % 4],
      created_at: '2026-03-02T00:00:00Z',
    })),
    // An organization of its own: its receipts and deliveries stay off the demo's Usage and Deliveries pages, which other specs read.
    subscriptions: [
      { subscription_id: LIVE, kind: 'live', frontier_id: '9400', task_ids: ['9401'], name: 'Bulk', org_id: 'org_e2e_bulk' },
      { subscription_id: SIM, kind: 'simulated', vertical_id: 'v-e2e-bulk', name: 'Bulk lots', org_id: 'org_e2e_bulk' },
    ],
  });
  liveKey = createKey('Bulk', [LIVE, SIM]).key;
});

interface LiveRecord {
  submission_id: string;
  quality_score: number;
  quality_grade: string;
  consumer_feedback: string | null;
  data: Record<string, unknown>;
}

const n = (value: number) => value.toLocaleString('en-US');

// Headless Chromium offers showSaveFilePicker but closes it at once, as a user who cancels would:
// without it the console downloads the file, which the test can read.
async function withoutSavePicker(page: Page) {
  await page.addInitScript(() => Object.defineProperty(window, 'showSaveFilePicker', { value: undefined }));
}

async function openItemsOf(page: Page, subscriptionId: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Items' }).click();
  // These subscriptions have no label: the link names the ID (exact: sub_e2e_bulk is also the start of sub_e2e_bulk_sim).
  await page.getByRole('link', { name: `Items of ${subscriptionId}`, exact: true }).click();
}

/** Runs the Export… dialog for a selection and format, and returns the downloaded file's text. */
async function exportFile(page: Page, selection: RegExp, format: string): Promise<string> {
  const dialog = page.getByRole('dialog');
  if (!(await dialog.isVisible())) await page.getByRole('button', { name: 'Export…' }).click();
  else await dialog.getByRole('button', { name: 'Export again' }).click();
  await dialog.getByRole('radio', { name: selection }).check();
  await dialog.getByRole('radio', { name: format }).check();
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: /^Export [\d,]+ items?$/ }).click();
  const file = await (await download).path();
  await expect(dialog.getByText(/^Saved [\d,]+ items? as /)).toBeVisible();
  return readFileSync(file, 'utf8');
}

test('filter live items by quality and grade, adopt all the matches in bulk, and export the adopted items as JSONL, CSV and COCO', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const SUB = LIVE;
  await withoutSavePicker(page);
  await connectWith(page, 'Bulk', liveKey, [
    { id: LIVE, kind: 'Live' },
    { id: SIM, kind: 'Simulated' },
  ]);
  // Every item of the subscription comes into this browser through the UI.
  await page.goto(`/review/${SUB}?limit=200`);
  await page.getByRole('button', { name: 'Pull all new' }).click();
  await expect(page.getByText(/^Up to date: /)).toBeVisible({ timeout: 60_000 });

  // The service's records are the witness: choose a grade and a quality floor that match some undecided items.
  const before = (await serviceApi(request, liveKey).reread(SUB)) as unknown as LiveRecord[];
  const open = before.filter((r) => r.consumer_feedback === null);
  const grades = new Map<string, number>();
  for (const r of open) grades.set(r.quality_grade, (grades.get(r.quality_grade) ?? 0) + 1);
  const grade = [...grades].sort((a, b) => b[1] - a[1])[0]![0];
  const scores = open.filter((r) => r.quality_grade === grade).map((r) => r.quality_score);
  const floor = [...scores].sort((a, b) => a - b)[Math.floor(scores.length / 2)]!;
  const matching = before.filter((r) => r.quality_grade === grade && r.quality_score >= floor);
  const toAdopt = matching.filter((r) => r.consumer_feedback === null);
  expect(toAdopt.length).toBeGreaterThan(0);

  await openItemsOf(page, SUB);
  await page.getByRole('spinbutton', { name: 'Quality from' }).fill(String(floor));
  await page.getByRole('spinbutton', { name: 'Quality from' }).press('Enter');
  await page.getByRole('checkbox', { name: `Grade ${grade}` }).check();
  await expect(page.getByRole('status').filter({ hasText: 'items match' })).toHaveText(`${n(matching.length)} of ${n(before.length)} items match`);

  // The confirmation names what is sent and what is skipped; live items charge nothing.
  await page.getByRole('button', { name: `Adopt all ${n(matching.length)} matching` }).click();
  const confirm = page.getByRole('alertdialog', { name: `Adopt ${n(toAdopt.length)} item${toAdopt.length === 1 ? '' : 's'}?` });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: `Adopt ${n(toAdopt.length)}`, exact: true }).click();
  await expect(page.getByRole('progressbar', { name: 'Bulk decisions sent' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Bulk decisions sent' })).toContainText(`${n(toAdopt.length)} of ${n(toAdopt.length)} confirmed`, {
    timeout: 90_000,
  });

  // The service recorded exactly the matches that were undecided; nothing else changed.
  const after = new Map(((await serviceApi(request, liveKey).reread(SUB)) as unknown as LiveRecord[]).map((r) => [r.submission_id, r.consumer_feedback]));
  const adoptedNow = new Set(toAdopt.map((r) => r.submission_id));
  for (const r of before) expect(after.get(r.submission_id), r.submission_id).toBe(adoptedNow.has(r.submission_id) ? 'adopt' : r.consumer_feedback);

  // Export the adopted items: every item the service holds as adopted, with its record as delivered.
  const adopted = before.filter((r) => after.get(r.submission_id) === 'adopt');
  const adoptedIds = new Set(adopted.map((r) => r.submission_id));
  const selection = new RegExp(`^Adopted items \\(${n(adopted.length)} items?\\)$`);

  const jsonl = (await exportFile(page, selection, 'JSON Lines (.jsonl)')).trim().split('\n');
  const manifest = JSON.parse(jsonl[0]!).manifest;
  expect(manifest).toMatchObject({ format: 'jsonl', selection: 'adopted', count: adopted.length, subscription: { id: SUB } });
  const lines = jsonl.slice(1).map((line) => JSON.parse(line) as { item_id: string; decision: string; state: string; record: LiveRecord });
  expect(new Set(lines.map((l) => l.item_id))).toEqual(adoptedIds);
  expect(lines).toHaveLength(adopted.length);
  const delivered = new Map(before.map((r) => [r.submission_id, r]));
  for (const line of lines) {
    expect(line.decision).toBe('adopt');
    // The record as delivered (the service's copy now carries the decision).
    const { consumer_feedback: _was, ...record } = line.record;
    const { consumer_feedback: _is, ...expected } = delivered.get(line.item_id)!;
    expect(record, line.item_id).toEqual(expected);
  }

  const csv = await exportFile(page, selection, 'CSV (.csv)');
  const rows = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true }).data;
  expect(new Set(rows.map((r) => r.item_id))).toEqual(adoptedIds);
  expect(rows).toHaveLength(adopted.length);
  for (const row of rows) {
    const record = delivered.get(row.item_id!)!;
    expect(row.decision).toBe('adopt');
    expect(Number(row.quality_score)).toBe(record.quality_score);
    expect(row.quality_grade).toBe(record.quality_grade);
  }

  // COCO: one image per adopted item whose content has an annotated image, the rest counted as left out.
  const withImages = adopted.filter((r) => findImage(r.data)?.shapes.length);
  expect(withImages.length).toBeGreaterThan(0);
  const coco = JSON.parse(await exportFile(page, selection, 'COCO JSON (.coco.json)')) as {
    images: { id: number; item_id: string; file_name: string }[];
    annotations: { image_id: number; category_id: number }[];
    categories: { id: number; name: string }[];
  };
  expect(new Set(coco.images.map((i) => i.item_id))).toEqual(new Set(withImages.map((r) => r.submission_id)));
  const shapes = withImages.reduce((sum, r) => sum + findImage(r.data)!.shapes.length, 0);
  expect(coco.annotations).toHaveLength(shapes);
  const categories = new Set(coco.categories.map((c) => c.id));
  for (const a of coco.annotations) expect(categories.has(a.category_id)).toBe(true);
});

test('adopt all simulated items above a quality floor: the receipts equal the preview total, each charged once', async ({ page, request }) => {
  const SUB = SIM;
  await connectWith(page, 'Bulk', liveKey, [
    { id: LIVE, kind: 'Live' },
    { id: SIM, kind: 'Simulated' },
  ]);
  const chosen = (await serviceApi(request, liveKey).pending(SUB, 40)) as { id: string; unit_price_usd: number; quality_score: number }[];
  expect(chosen.length).toBeGreaterThan(4);
  await page.goto(`/review/${SUB}?limit=40`);
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  // The list is virtual (only the rows in view are in the page): the store's count is the witness.
  await expect(page.getByText(`${n(chosen.length)} items kept on this device`)).toBeVisible();

  const floor = [...chosen.map((i) => i.quality_score)].sort((a, b) => a - b)[Math.floor(chosen.length / 2)]!;
  const expected = chosen.filter((i) => i.quality_score >= floor);
  const total = expected.reduce((sum, i) => sum + micros(i.unit_price_usd), 0);

  await openItemsOf(page, SUB);
  await page.getByRole('spinbutton', { name: 'Quality from' }).fill(String(floor));
  await page.getByRole('spinbutton', { name: 'Quality from' }).press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'items match' })).toHaveText(`${n(expected.length)} of ${n(chosen.length)} items match`);
  await page.getByRole('button', { name: `Adopt all ${n(expected.length)} matching` }).click();
  const confirm = page.getByRole('alertdialog', { name: `Adopt ${n(expected.length)} items?` });
  // The preview names the exact charge before anything is sent.
  await confirm.getByRole('button', { name: `Adopt ${n(expected.length)} and pay ${formatMicros(total)}` }).click();
  await expect(page.getByRole('region', { name: 'Bulk decisions sent' })).toContainText(`${n(expected.length)} of ${n(expected.length)} confirmed`, {
    timeout: 60_000,
  });

  const receipts = (await serviceApi(request, liveKey).usage()).filter((r) => r.subscription_id === SUB && r.kind === 'adopt');
  for (const item of expected)
    expect(
      receipts.filter((r) => r.item_id === item.id),
      item.id,
    ).toHaveLength(1);
  const notChosen = chosen.filter((i) => !expected.includes(i));
  for (const item of notChosen)
    expect(
      receipts.filter((r) => r.item_id === item.id),
      item.id,
    ).toHaveLength(0);
  const charged = receipts.filter((r) => expected.some((i) => i.id === r.item_id)).reduce((sum, r) => sum + micros(r.amount_usd), 0);
  expect(charged).toBe(total);
});
