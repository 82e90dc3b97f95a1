import { localDb, type ConsoleDb } from '../../domain/store';
import type { TriageRow } from '../../domain/triage';
import type { ExportRecord, RecordSource } from './export-record';

/** Page rows read per transaction: a page holds up to 200 records (as written: a pull's page). */
const PAGES_PER_READ = 10;

/**
 * The rows in delivery order: items of one page were written together, so consecutive rows share
 * their page row and each page row is read once, whatever order the view sorted them in.
 */
function inDeliveryOrder(rows: readonly TriageRow[]): TriageRow[] {
  return [...rows].sort((a, b) => a.item.seq - b.item.seq);
}

/**
 * The delivered records of these rows, in delivery order, read from the local store a few page rows
 * at a time (never all at once: memory holds the current batch and the one read ahead, each at
 * most PAGES_PER_READ pages' records). The records of a page's other items are dropped with the batch.
 */
export async function* readRecords(rows: readonly TriageRow[], db: ConsoleDb = localDb()): AsyncGenerator<ExportRecord, void, undefined> {
  const batches = batchesOf(inDeliveryOrder(rows));
  // One batch is read ahead while the current one is written: the store's wait overlaps the work.
  let next = batches.length ? readBatch(db, batches[0]!) : null;
  for (let index = 0; next; index++) {
    const current = await next;
    next = index + 1 < batches.length ? readBatch(db, batches[index + 1]!) : null;
    // A batch not awaited (the reader stopped early) must not be an unhandled rejection.
    next?.catch(() => undefined);
    for (const row of current.rows) {
      const { item } = row;
      const record = item.page === undefined ? undefined : current.byPage.get(item.page)?.get(item.itemId);
      yield { row, record: record ?? null };
    }
  }
}

interface Batch {
  rows: TriageRow[];
  pageIds: number[];
}

/** Consecutive rows up to the PAGES_PER_READ-th distinct page row. */
function batchesOf(ordered: readonly TriageRow[]): Batch[] {
  const batches: Batch[] = [];
  let start = 0;
  while (start < ordered.length) {
    const pageIds = new Set<number>();
    let end = start;
    for (; end < ordered.length; end++) {
      const { item } = ordered[end]!;
      if (item.page !== undefined && !pageIds.has(item.page)) {
        if (pageIds.size >= PAGES_PER_READ) break;
        pageIds.add(item.page);
      }
    }
    batches.push({ rows: ordered.slice(start, end), pageIds: [...pageIds] });
    start = end;
  }
  return batches;
}

/** One batch's records, in one read: the page rows' records by page. */
async function readBatch(db: ConsoleDb, batch: Batch) {
  const pages = await db.pages.bulkGet(batch.pageIds);
  const byPage = new Map<number, Map<string, unknown>>();
  for (const page of pages) if (page?.id !== undefined) byPage.set(page.id, page.records);
  return { rows: batch.rows, byPage };
}

/** A source reading the rows afresh on every pass. */
export const storeSource =
  (rows: readonly TriageRow[], db?: ConsoleDb): RecordSource =>
  () =>
    readRecords(rows, db);
