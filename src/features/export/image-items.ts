import type { TriageRow } from '../../domain/triage';
import { cocoImageOf, hasAnnotations } from './coco-shapes';
import { contentOf, type RecordSource } from './export-record';

/**
 * Which items are images with annotations (what COCO can write): the records are read once, in
 * delivery order, a batch of pages at a time. Stops early when the signal aborts.
 */
export async function findImageItems(source: RecordSource, signal?: AbortSignal): Promise<Set<string>> {
  const ids = new Set<string>();
  for await (const { row, record } of source()) {
    if (signal?.aborted) break;
    const image = cocoImageOf(contentOf(row, record));
    if (hasAnnotations(image)) ids.add(row.item.itemId);
  }
  return ids;
}

export const countImageRows = (rows: readonly TriageRow[], images: ReadonlySet<string>): number =>
  rows.reduce((sum, row) => sum + (images.has(row.item.itemId) ? 1 : 0), 0);
