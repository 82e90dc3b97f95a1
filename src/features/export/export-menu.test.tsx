import 'fake-indexeddb/auto';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Connection } from '../../data';
import { ConsoleDb, saveDelivered, setDatabaseForTests, summaryOfLive } from '../../domain/store';
import { loadSubscriptionItems, toTriageRows, type TriageRow } from '../../domain/triage';
import { testQueryClient } from '../../test/query-client';
import { ExportMenu } from './export-menu';

const connection: Connection = { id: 'c1', name: 'Local demo', baseUrl: 'http://127.0.0.1:8787', apiKey: '', subscriptions: [], remember: false };
const subscription = { id: 'sub_live', kind: 'live' as const };

const submission = (n: number, data: Record<string, unknown>) => ({
  submission_id: String(n),
  task_id: '1002',
  frontier_id: '101',
  data,
  quality_score: n / 10,
  quality_grade: 'B',
  source: 'web',
  created_at: '2026-11-01T10:00:00',
  consumer_feedback: n <= 2 ? ('adopt' as const) : null,
});
// Items 1–2 adopted (the service says so), 1 and 3 are images with boxes, 2 and 4 text.
const SUBMISSIONS = [
  submission(1, { image_url: 'https://cdn.example/1.jpg', annotations: [{ label: 'car', bbox: [1, 2, 11, 22] }] }),
  submission(2, { text: 'two' }),
  submission(3, { image_url: 'https://cdn.example/3.jpg', annotations: [{ label: 'bus', x: 0, y: 0, width: 5, height: 5 }] }),
  submission(4, { text: '=cmd|calc' }),
];

let db: ConsoleDb;
let name = 0;
let allRows: TriageRow[];
let downloads: { blob: Blob; name: string }[];
beforeEach(async () => {
  db = new ConsoleDb(`export-menu-${++name}`);
  setDatabaseForTests(db);
  await saveDelivered(
    db,
    'S',
    'sub_live',
    'incremental',
    SUBMISSIONS.map((s) => ({ summary: summaryOfLive(s), record: s })),
  );
  allRows = toTriageRows(await loadSubscriptionItems('S', 'sub_live'), []);
  downloads = [];
  // jsdom has no object URLs: the download's Blob is caught where it is handed to the link.
  let blob: Blob | null = null;
  URL.createObjectURL = vi.fn((b: Blob) => ((blob = b), 'blob:test'));
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push({ blob: blob!, name: this.download });
  });
});
afterEach(async () => {
  vi.restoreAllMocks();
  delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  setDatabaseForTests(null);
  await db.delete();
});

const today = () => new Date().toISOString().slice(0, 10);

function renderMenu(rows: TriageRow[] = allRows.slice(1, 3)) {
  render(<ExportMenu connection={connection} subscription={subscription} rows={rows} allRows={allRows} filters={{ grade: 'B' }} />, testQueryClient());
}

describe('ExportMenu', () => {
  it('offers adopted items, the current filter and everything with their counts, and COCO only where images are', async () => {
    const user = userEvent.setup();
    renderMenu([allRows[1]!, allRows[3]!]);
    await user.click(screen.getByRole('button', { name: 'Export…' }));
    const dialog = screen.getByRole('dialog', { name: 'Export sub_live' });
    expect(within(dialog).getByRole('radio', { name: 'Adopted items (2 items)' })).toBeChecked();
    expect(within(dialog).getByRole('radio', { name: 'The current filter (2 items)' })).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: 'Everything (4 items)' })).toBeInTheDocument();
    const coco = within(dialog).getByRole('radio', { name: /COCO JSON/ });
    // Adopted: item 1 is an image with a box.
    await waitFor(() => expect(coco).toBeEnabled());
    expect(coco).toHaveAccessibleDescription('1 item with image annotations; 1 left out.');
    // The filter holds text items only: COCO says why it cannot.
    await user.click(within(dialog).getByRole('radio', { name: /The current filter/ }));
    expect(coco).toBeDisabled();
    expect(coco).toHaveAccessibleDescription('None of these items is an image with boxes, polygons or keypoints.');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('exports the adopted items as JSONL (a download without the File System Access API) and says where', async () => {
    const user = userEvent.setup();
    renderMenu();
    await user.click(screen.getByRole('button', { name: 'Export…' }));
    await user.click(screen.getByRole('button', { name: 'Export 2 items' }));
    const fileName = `sub_live-adopted-${today()}.jsonl`;
    expect(await screen.findByText(`Saved 2 items as ${fileName}.`)).toHaveRole('status');
    // The file, then its manifest beside it.
    expect(downloads.map((d) => d.name)).toEqual([fileName, `${fileName}.manifest.json`]);
    expect(JSON.parse(await downloads[1]!.blob.text())).toMatchObject({ format: 'jsonl', file: fileName, count: 2, written: 2, left_out: { items: 0 } });
    const lines = (await downloads[0]!.blob.text())
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ manifest: { selection: 'adopted', count: 2, subscription: { id: 'sub_live' } } });
    // Every adopted item, whatever the view's filters: the manifest names none.
    expect((lines[0]!.manifest as { filters: unknown }).filters).toEqual({});
    expect(lines.slice(1)).toEqual([
      expect.objectContaining({ item_id: '1', decision: 'adopt', record: SUBMISSIONS[0] }),
      expect.objectContaining({ item_id: '2', decision: 'adopt', record: SUBMISSIONS[1] }),
    ]);
  });

  it('names the view’s filters in the manifest of "The current filter"', async () => {
    const user = userEvent.setup();
    renderMenu();
    await user.click(screen.getByRole('button', { name: 'Export…' }));
    const dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: /The current filter/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Export 2 items' }));
    expect(await screen.findByText(/^Saved 2 items as /)).toHaveRole('status');
    const manifest = JSON.parse(await downloads[1]!.blob.text()) as { selection: string; filters: unknown };
    expect(manifest.selection).toBe('filter');
    expect(manifest.filters).toEqual({ grade: 'B' });
  });

  it('exports everything as CSV and the images as COCO', async () => {
    const user = userEvent.setup();
    renderMenu();
    await user.click(screen.getByRole('button', { name: 'Export…' }));
    const dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: /Everything/ }));
    await user.click(within(dialog).getByRole('radio', { name: 'CSV (.csv)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Export 4 items' }));
    const csvName = `sub_live-all-${today()}.csv`;
    expect(await screen.findByText(`Saved 4 items as ${csvName}.`)).toHaveRole('status');
    expect(downloads.map((d) => d.name)).toEqual([csvName, `${csvName}.manifest.json`]);
    const csv = await downloads[0]!.blob.text();
    // The header is the first line: any CSV reader opens the file.
    expect(csv.split('\r\n')[0]).toMatch(/^"item_id","subscription_id","kind","decision"/);
    expect(csv).toContain(`"'=cmd|calc"`);
    const everything = JSON.parse(await downloads[1]!.blob.text()) as { filters: unknown };
    expect(everything).toMatchObject({ format: 'csv', file: csvName, written: 4, connection: { name: 'Local demo' } });
    expect(everything.filters).toEqual({});

    await user.click(screen.getByRole('button', { name: 'Export again' }));
    await waitFor(() => expect(within(dialog).getByRole('radio', { name: /COCO JSON/ })).toBeEnabled());
    await user.click(within(dialog).getByRole('radio', { name: /COCO JSON/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Export 4 items' }));
    expect(await screen.findByText(`Saved 2 items as sub_live-all-${today()}.coco.json; 2 left out (no image annotations).`)).toHaveRole('status');
    const coco = JSON.parse(await downloads[2]!.blob.text()) as { images: { file_name: string }[]; categories: { name: string }[] };
    expect(coco.images.map((i) => i.file_name)).toEqual(['https://cdn.example/1.jpg', 'https://cdn.example/3.jpg']);
    expect(coco.categories.map((c) => c.name)).toEqual(['car', 'bus']);
  });

  it('writes to the file chosen in the picker with a progress bar, and Cancel discards it', async () => {
    const user = userEvent.setup();
    let release: () => void = () => undefined;
    const writable = {
      // The first write waits: the export is in flight until the test lets it go.
      write: vi.fn(() => new Promise<void>((resolve) => (release = resolve))),
      close: vi.fn(async () => undefined),
      abort: vi.fn(async () => undefined),
    };
    const picker = vi.fn(async () => ({ createWritable: async () => writable }));
    Object.assign(window, { showSaveFilePicker: picker });
    renderMenu();
    await user.click(screen.getByRole('button', { name: 'Export…' }));
    await user.click(screen.getByRole('radio', { name: /Everything/ }));
    await user.click(screen.getByRole('button', { name: 'Export 4 items' }));
    expect(picker).toHaveBeenCalledWith(expect.objectContaining({ suggestedName: `sub_live-all-${today()}.jsonl` }));
    expect(await screen.findByRole('progressbar', { name: 'Export progress' })).toBeInTheDocument();
    await waitFor(() => expect(writable.write).toHaveBeenCalledTimes(1));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    release();
    expect(await screen.findByRole('status')).toHaveTextContent('Export cancelled: nothing was saved.');
    expect(writable.abort).toHaveBeenCalled();
    expect(writable.close).not.toHaveBeenCalled();
    expect(downloads).toEqual([]);
  });
});
