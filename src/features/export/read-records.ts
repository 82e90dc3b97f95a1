import { localDb, type ConsoleDb, type ItemKey } from '../local-store';
import type { TriageRow } from '../triage';
import type { ExportRecord, RecordSource } from './export-record';

/** Page rows read per transaction: a page holds up to 200 records (as written: a pull's page). */
const PAGES_PER_READ = 10;
/** Legacy items (one `payloads` row each) read per transaction. */
const ITEMS_PER_READ = 2_000;

/**
 * The rows in delivery order: items of one page were written together, so consecutive rows share
 * their page row and each page row is read once, whatever order the view sorted them in.
 */
export function inDeliveryOrder(rows: readonly TriageRow[]): TriageRow[] {
  return [...rows].sort((a, b) => a.item.seq - b.item.seq);
}

/**
 * The delivered records of these rows, in delivery order, read from the local store a few page rows
 * at a time (never all at once: a read holds at most PAGES_PER_READ pages' records). The records
 * of a page's other items are dropped with the batch.
 */
export async function* readRecords(rows: readonly TriageRow[], db: ConsoleDb = localDb()): AsyncGenerator<ExportRecord, void, undefined> {
  const ordered = inDeliveryOrder(rows);
  let start = 0;
  while (start < ordered.length) {
    // The next batch: rows up to the PAGES_PER_READ-th distinct page, or ITEMS_PER_READ legacy items.
    const pageIds = new Set<number>();
    const legacy: TriageRow[] = [];
    let end = start;
    for (; end < ordered.length; end++) {
      const page = ordered[end]!.item.page;
      if (page === undefined) {
        if (legacy.length >= ITEMS_PER_READ) break;
        legacy.push(ordered[end]!);
      } else if (!pageIds.has(page)) {
        if (pageIds.size >= PAGES_PER_READ) break;
        pageIds.add(page);
      }
    }
    const batch = ordered.slice(start, end);
    start = end;
    const records = await db.transaction('r', db.pages, db.payloads, async () => {
      const [pages, payloads] = await Promise.all([
        db.pages.bulkGet([...pageIds]),
        legacy.length ? db.payloads.bulkGet(legacy.map(({ item }): ItemKey => [item.scope, item.subscriptionId, item.itemId])) : [],
      ]);
      const byPage = new Map<number, Map<string, unknown>>();
      for (const page of pages) if (page?.id !== undefined) byPage.set(page.id, page.records);
      const byItem = new Map<string, unknown>();
      for (const payload of payloads) if (payload) byItem.set(payload.itemId, payload.record);
      return { byPage, byItem };
    });
    for (const row of batch) {
      const { item } = row;
      const record = item.page === undefined ? records.byItem.get(item.itemId) : records.byPage.get(item.page)?.get(item.itemId);
      yield { row, record: record ?? null };
    }
  }
}

/** A source reading the rows afresh on every pass. */
export const storeSource =
  (rows: readonly TriageRow[], db?: ConsoleDb): RecordSource =>
  () =>
    readRecords(rows, db);
