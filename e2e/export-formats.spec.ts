import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Download, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import { serviceApi } from './support/api';
import { connectWith } from './support/console';
import { createKey, importFixture } from './support/service';

test.describe.configure({ mode: 'serial' });

/**
 * A live subscription of its own (issue 22.5, 23.2–23.5): text items whose content a spreadsheet
 * would run as formulas, an image with more boxes than the viewer draws, an image with one box of
 * negative size, and an image of negative size. Its receipts carry formula-like text too.
 */
const SUB = 'sub_e2e_formats';
const DENSE_BOXES = 5_000;
const DENSE = '42000001';
const BROKEN = '42000002';
const BAD_SIZE = '42000003';
const HOSTILE = {
  equals: '=2+5',
  space: ' =1+1',
  nbsp: '\u00A0=1+1',
  zwsp: '\u200B=1+1',
  fullwidth: '\uFF1DSUM(A1)',
  comma: 'n3,=2+5,',
};
// The connection's own name would have become a `=2+5` cell in the old manifest line.
const CONNECTION = 'n3,=2+5,';
let key: string;

test.beforeAll(() => {
  const base = { task_id: '9601', quality_grade: 'A', source: 'vendor-f', created_at: '2026-04-01T00:00:00Z' };
  importFixture('formats', {
    frontiers: [{ frontier_id: '9600', title: 'Formats stream', status: 'ONLINE' }],
    tasks: [{ task_id: '9601', frontier_id: '9600', name: 'Formats boxes', task_type: 'OBJECT_DETECTION', status: 'COLLECTING' }],
    submissions: [
      {
        ...base,
        submission_id: DENSE,
        quality_score: 0.9,
        data: {
          image: { url: '/media/scenes/1.svg', width: 640, height: 480 },
          annotations: Array.from({ length: DENSE_BOXES }, (_, i) => ({ label: i % 2 ? 'car' : 'bus', bbox: { x: i % 600, y: i % 440, width: 8, height: 6 } })),
        },
      },
      {
        ...base,
        submission_id: BROKEN,
        quality_score: 0.8,
        data: {
          image: { url: '/media/scenes/2.svg', width: 640, height: 480 },
          annotations: [
            { label: 'car', bbox: { x: 10, y: 10, width: 50, height: 40 } },
            { label: 'broken', bbox: { x: 100, y: 100, width: -20, height: 30 } },
          ],
        },
      },
      {
        ...base,
        submission_id: BAD_SIZE,
        quality_score: 0.7,
        data: { image: { url: '/media/scenes/3.svg', width: -1, height: 1e308 }, annotations: [{ label: 'car', bbox: { x: 1, y: 1, width: 2, height: 2 } }] },
      },
      ...Object.values(HOSTILE).map((text, i) => ({ ...base, submission_id: String(42_000_010 + i), quality_score: 0.5, data: { text } })),
    ],
    subscriptions: [{ subscription_id: SUB, kind: 'live', frontier_id: '9600', task_ids: ['9601'], name: 'Formats', org_id: 'org_e2e_formats' }],
    receipts: [
      { receipt_id: 'rcpt_e2e_formats_1', subscription_id: SUB, kind: 'adopt', item_id: ' =1+1', quantity: 1, amount_usd: 0.0125 },
      { receipt_id: 'rcpt_e2e_formats_2', subscription_id: SUB, kind: 'pull', item_id: '\uFF1DSUM(A1)', quantity: 3, amount_usd: 0 },
    ],
  });
  key = createKey('Formats', [SUB]).key;
});

interface LiveRecord {
  submission_id: string;
  task_id: string;
  quality_score: number;
  quality_grade: string;
  source: string;
  data: Record<string, unknown>;
}

// Headless Chromium offers showSaveFilePicker but closes it at once: without it the console downloads.
async function withoutSavePicker(page: Page) {
  await page.addInitScript(() => Object.defineProperty(window, 'showSaveFilePicker', { value: undefined }));
}

/** Connects as a person would, pulls every item of the subscription and opens its Items view. */
async function pullAndOpenItems(page: Page) {
  await withoutSavePicker(page);
  await connectWith(page, CONNECTION, key, [{ id: SUB, kind: 'Live' }]);
  await page.goto(`/review/${SUB}?limit=200`);
  await page.getByRole('button', { name: 'Pull all new' }).click();
  await expect(page.getByText(/^Up to date: /)).toBeVisible({ timeout: 60_000 });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Items' }).click();
  await page.getByRole('link', { name: `Items of ${SUB}`, exact: true }).click();
}

/** Every download the page makes from now on, by file name. */
function collectDownloads(page: Page) {
  const downloads: Download[] = [];
  page.on('download', (download) => downloads.push(download));
  return {
    async text(name: string): Promise<string> {
      await expect.poll(() => downloads.map((d) => d.suggestedFilename())).toContain(name);
      return readFileSync((await downloads.find((d) => d.suggestedFilename() === name)!.path())!, 'utf8');
    },
  };
}

/** Runs Export… for everything in a format; returns the file's name as the dialog says it was saved. */
async function exportEverything(page: Page, format: string | RegExp): Promise<string> {
  const dialog = page.getByRole('dialog');
  if (!(await dialog.isVisible())) await page.getByRole('button', { name: 'Export…' }).click();
  else await dialog.getByRole('button', { name: 'Export again' }).click();
  await dialog.getByRole('radio', { name: /^Everything/ }).check();
  await dialog.getByRole('radio', { name: format }).check();
  await dialog.getByRole('button', { name: /^Export [\d,]+ items?$/ }).click();
  const saved = dialog.getByText(/^Saved [\d,]+ items? as /);
  await expect(saved).toBeVisible();
  return /as (\S+?)(;|\.$)/.exec((await saved.textContent())!)![1]!;
}

/** The columns every CSV export starts with, as docs/export.md lists them. */
const FIXED = [
  'item_id',
  'subscription_id',
  'kind',
  'decision',
  'state',
  'decided_at',
  'decided_by',
  'reason',
  'reason_code',
  'task_id',
  'task_name',
  'campaign_id',
  'vertical_id',
  'vertical_name',
  'quality_score',
  'quality_grade',
  'source',
  'unit_price_usd',
  'created_at',
  'received_at',
];

test('CSV opens in any CSV reader (header first, manifest beside it, formula text neutralised); COCO keeps every shape and names bad geometry', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const downloads = collectDownloads(page);
  await pullAndOpenItems(page);
  const records = (await serviceApi(request, key).reread(SUB)) as unknown as LiveRecord[];

  const name = await exportEverything(page, 'CSV (.csv)');
  const csv = await downloads.text(name);
  // papaparse with its defaults and a header row: no comment lines skipped, nothing taken for a column that is not one.
  const parsed = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  const fields = parsed.meta.fields!;
  expect(fields.slice(0, FIXED.length)).toEqual(FIXED);
  expect(fields).toContain('content.text');
  expect(parsed.data).toHaveLength(records.length);

  // One row against the service's record of the same item, and its task's name as the service publishes it.
  const record = records.find((r) => r.data.text === HOSTILE.equals)!;
  const row = parsed.data.find((r) => r.item_id === record.submission_id)!;
  const task = (await serviceApi(request, key).tasks('9600')).find((t) => t.task_id === record.task_id)!;
  expect(row).toMatchObject({
    subscription_id: SUB,
    kind: 'live',
    task_id: record.task_id,
    task_name: task.name,
    quality_grade: record.quality_grade,
    source: record.source,
    decision: '',
    'content.text': `'${HOSTILE.equals}`,
  });
  expect(Number(row.quality_score)).toBe(record.quality_score);

  // Every formula-like text is led by an apostrophe; text with commas stays one cell.
  const texts = parsed.data.map((r) => r['content.text']).filter(Boolean);
  for (const text of Object.values(HOSTILE)) expect(texts).toContain(text === HOSTILE.comma ? text : `'${text}`);
  const cells = Papa.parse<string[]>(csv).data.flat();
  expect(cells).not.toContain('=2+5');
  // Numbers are values, never formulas (the image's width -1 stays -1); no text starts with a formula or blank character.
  const number = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;
  expect(cells.filter((cell) => /^[=+\-@\s\uFF1D]/u.test(cell) && !number.test(cell))).toEqual([]);

  // The manifest is its own file beside the CSV, and parses as JSON.
  const manifest = JSON.parse(await downloads.text(`${name}.manifest.json`)) as Record<string, unknown>;
  expect(manifest).toMatchObject({
    format: 'csv',
    file: name,
    selection: 'all',
    count: records.length,
    written: records.length,
    // A personal console: no member, and nobody named in decided_by.
    connection: { name: CONNECTION, member: null },
    names: { tasks: { [task.task_id]: task.name } },
  });

  // COCO, from the same dialog (the items were delivered once: a new browser would pull none).
  const cocoName = await exportEverything(page, /COCO JSON/);
  const coco = JSON.parse(await downloads.text(cocoName)) as {
    images: { id: number; item_id: string; width: number | null; height: number | null }[];
    annotations: { image_id: number; bbox: number[]; area: number }[];
  };
  const imageOf = (itemId: string) => coco.images.find((i) => i.item_id === itemId);
  // More boxes than the viewer draws (2,000): every one is in the file.
  expect(coco.annotations.filter((a) => a.image_id === imageOf(DENSE)!.id)).toHaveLength(DENSE_BOXES);
  // The good box of the broken item is kept; its negative one is not; the image of negative size is left out whole.
  expect(coco.annotations.filter((a) => a.image_id === imageOf(BROKEN)!.id).map((a) => a.bbox)).toEqual([[10, 10, 50, 40]]);
  expect(imageOf(BAD_SIZE)).toBeUndefined();
  for (const a of coco.annotations) expect(a.bbox.every((v) => Number.isFinite(v) && v >= 0) && Number.isFinite(a.area)).toBe(true);

  // The dialog names both by item and place.
  const named = page.getByRole('dialog').getByRole('list', { name: 'Left out for their geometry' });
  await expect(named.getByRole('listitem').filter({ hasText: `Item ${BROKEN}, annotations[1] (broken): a size is negative` })).toHaveCount(1);
  await expect(named.getByRole('listitem').filter({ hasText: `Item ${BAD_SIZE}, image size: a size is negative` })).toHaveCount(1);
  await expect(page.getByRole('dialog').getByText(/Left out for their geometry .*: 1 shape and 1 image\./)).toBeVisible();
  expect((await new AxeBuilder({ page }).include('dialog').analyze()).violations).toEqual([]);

  // The manifest beside it counts them.
  const cocoManifest = JSON.parse(await downloads.text(`${cocoName}.manifest.json`)) as { left_out: { bad_geometry: { shapes: number; images: number } } };
  expect(cocoManifest.left_out.bad_geometry).toMatchObject({ shapes: 1, images: 1 });
});

test('the Usage CSV parses the same way: header first, every receipt, formula text neutralised', async ({ page, request }) => {
  await connectWith(page, CONNECTION, key, [{ id: SUB, kind: 'Live' }]);
  const receipts = await serviceApi(request, key).usage();
  expect(receipts.length).toBeGreaterThan(1);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage' }).click();
  await expect(page.getByText(new RegExp(`^${receipts.length} receipts shown`))).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = readFileSync((await (await download).path())!, 'utf8');

  const parsed = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  expect(parsed.meta.fields!.slice(0, 8)).toEqual([
    'created_at',
    'subscription_id',
    'kind',
    'item_id',
    'submission_id',
    'quantity',
    'amount_usd',
    'receipt_id',
  ]);
  expect(parsed.data).toHaveLength(receipts.length);
  // One row against the service's receipt: its formula-like item ID is led by an apostrophe.
  const receipt = receipts.find((r) => r.receipt_id === 'rcpt_e2e_formats_1')!;
  const row = parsed.data.find((r) => r.receipt_id === receipt.receipt_id)!;
  expect(row).toMatchObject({ subscription_id: SUB, kind: 'adopt', item_id: `'${receipt.item_id}`, amount_usd: String(receipt.amount_usd) });
  expect(parsed.data.find((r) => r.receipt_id === 'rcpt_e2e_formats_2')!.item_id).toBe("'\uFF1DSUM(A1)");
});
