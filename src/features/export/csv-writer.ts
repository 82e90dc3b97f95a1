import { cellOf, csvLines } from '../../lib/csv';
import {
  contentOf,
  decidedAtOf,
  decidedByOf,
  decisionOf,
  reasonCodeOf,
  reasonOf,
  taskNameOf,
  unitPriceOf,
  verticalNameOf,
  type ExportRecord,
  type RecordSource,
} from './export-record';
import type { ExportManifest } from './manifest';
import type { ExportWriter, WriteSummary } from './writer';

/** What every row has, before the delivered content (docs/export.md). */
export const FIXED_COLUMNS = [
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
] as const;

/** Content keys deeper than this are written as JSON text in the column of their depth-3 parent. */
const MAX_DEPTH = 3;
/** Content columns past this many (in first-seen order) go together, as JSON, into `content._more`. */
export const MAX_CONTENT_COLUMNS = 500;
const MORE = 'content._more';
const ROWS_PER_CHUNK = 250;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The delivered content as dotted paths under `content`: objects are opened up to MAX_DEPTH keys,
 * what is deeper (and every array) stays one value, written as JSON text.
 */
export function flattenContent(content: unknown, out = new Map<string, unknown>(), path = 'content', depth = 0): Map<string, unknown> {
  if (isRecord(content) && depth < MAX_DEPTH && Object.keys(content).length > 0) {
    for (const [key, value] of Object.entries(content)) flattenContent(value, out, `${path}.${key}`, depth + 1);
  } else {
    out.set(path, content);
  }
  return out;
}

/**
 * A cell's text: JSON for objects and arrays; text a spreadsheet could run as a formula (or whose
 * first character it strips) is led by an apostrophe (src/lib/csv.ts). Numbers are values, never
 * formulas: -5 stays -5.
 */
export const cellText = cellOf;

function fixedCells(record: ExportRecord, manifest: ExportManifest): unknown[] {
  const { row } = record;
  const item = row.item;
  return [
    item.itemId,
    item.subscriptionId,
    item.kind,
    decisionOf(row),
    row.state,
    decidedAtOf(row, record.record),
    decidedByOf(row, manifest.connection.member),
    reasonOf(row),
    reasonCodeOf(row, manifest.reason_codes),
    item.taskId,
    taskNameOf(row, manifest.names),
    item.campaignId,
    item.verticalId,
    verticalNameOf(row, manifest.names),
    item.qualityScore,
    item.qualityGrade,
    item.source,
    unitPriceOf(row),
    item.createdAt,
    new Date(item.receivedAt).toISOString(),
  ];
}

/** The content columns of a selection: a first pass over it (keys only), in first-seen order, capped. */
async function contentColumns(source: RecordSource): Promise<{ columns: string[]; more: boolean }> {
  const seen = new Set<string>();
  let more = false;
  for await (const { row, record } of source()) {
    for (const path of flattenContent(contentOf(row, record)).keys()) {
      if (seen.has(path)) continue;
      if (seen.size < MAX_CONTENT_COLUMNS) seen.add(path);
      else more = true;
    }
  }
  return { columns: [...seen], more };
}

/**
 * CSV (RFC 4180, CRLF, every cell quoted): the header row first, then one row per item; the
 * manifest is a file of its own beside it (any CSV reader takes a first line for the header). The
 * header is one for the whole file, so the content columns come from a first pass over the
 * selection; the rows from a second.
 */
async function* writeCsv(manifest: ExportManifest, source: RecordSource): AsyncGenerator<string, WriteSummary, undefined> {
  const { columns, more } = await contentColumns(source);
  const header = [...FIXED_COLUMNS, ...columns, ...(more ? [MORE] : [])];
  const position = new Map(columns.map((column, index) => [column, FIXED_COLUMNS.length + index]));
  yield `${csvLines([header.map(cellText)])}\r\n`;
  let written = 0;
  let batch: string[][] = [];
  const flush = () => {
    const text = `${csvLines(batch)}\r\n`;
    batch = [];
    return text;
  };
  for await (const record of source()) {
    const cells: unknown[] = fixedCells(record, manifest);
    cells.length = header.length;
    let rest: Record<string, unknown> | null = null;
    for (const [path, value] of flattenContent(contentOf(record.row, record.record))) {
      const at = position.get(path);
      if (at !== undefined) cells[at] = value;
      else (rest ??= {})[path] = value;
    }
    if (more) cells[header.length - 1] = rest;
    batch.push(Array.from(cells, cellText));
    written++;
    if (batch.length >= ROWS_PER_CHUNK) yield flush();
  }
  if (batch.length) yield flush();
  return { written, leftOut: 0 };
}

export const csvWriter: ExportWriter = { passes: 2, write: writeCsv };
