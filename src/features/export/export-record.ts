import { microsToDecimal } from '../../lib/money';
import { NO_REASON, parseReason } from '../dispute-reasons';
import type { TriageRow, TriageState } from '../../domain/triage';

/** One item on its way into a file: its triage row and the record exactly as it was delivered. */
export interface ExportRecord {
  row: TriageRow;
  /** The delivered record as received, or null when the store no longer holds it. */
  record: unknown;
}

/** Where the records come from: called once per pass (CSV and COCO read the selection twice). */
export type RecordSource = () => AsyncIterable<ExportRecord>;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The decision as far as this console knows it: a confirmed one, or one recorded here and not yet
 * confirmed (waiting, failed; `state` tells which). A discarded decision was dropped: none.
 */
export function decisionOf(row: TriageRow): 'adopt' | 'dispute' | null {
  const byState: Partial<Record<TriageState, 'adopt' | 'dispute'>> = { adopted: 'adopt', disputed: 'dispute' };
  const settled = byState[row.state];
  if (settled) return settled;
  if ((row.state === 'waiting' || row.state === 'failed') && row.entry) return row.entry.decision;
  return null;
}

/** When the decision was recorded: here (the outbox), else the record's own `decided_at` (delivery items). */
export function decidedAtOf(row: TriageRow, record: unknown): string | null {
  if (row.decidedAt !== null && decisionOf(row)) return new Date(row.decidedAt).toISOString();
  if (decisionOf(row) && isRecord(record) && typeof record.decided_at === 'string') return record.decided_at;
  return null;
}

/**
 * Who decided, on a team hub: the teammate the hub names for their decision, else the member
 * signed in (`member`) for one recorded here; null in personal mode, for no decision, or for a
 * decision only the service reported (nobody on this hub is known to have made it).
 */
export function decidedByOf(row: TriageRow, member: string | null): string | null {
  if (member === null || !decisionOf(row) || !row.entry) return null;
  return row.entry.decidedBy ?? member;
}

/** The names the service published for a selection's task and vertical IDs (the manifest's `names`). */
export interface ExportNames {
  tasks: Record<string, string>;
  verticals: Record<string, string>;
}

/** The name the service published for the item's task (the manifest's `names`), or null. */
export const taskNameOf = (row: TriageRow, names: ExportNames): string | null =>
  row.item.taskId === null || !Object.hasOwn(names.tasks, row.item.taskId) ? null : names.tasks[row.item.taskId]!;

/** The name the service published for the item's vertical, or null. */
export const verticalNameOf = (row: TriageRow, names: ExportNames): string | null =>
  row.item.verticalId === null || !Object.hasOwn(names.verticals, row.item.verticalId) ? null : names.verticals[row.item.verticalId]!;

export const reasonOf = (row: TriageRow): string | null => (decisionOf(row) ? (row.entry?.reason ?? null) : null);

/**
 * The code a dispute's reason starts with (among `codes`, the organization's), `other` for a
 * reason naming none, null without a reason or for an adopt.
 */
export function reasonCodeOf(row: TriageRow, codes: readonly string[]): string | null {
  if (decisionOf(row) !== 'dispute') return null;
  const { code } = parseReason(reasonOf(row), codes);
  return code === NO_REASON ? null : code;
}

/** The delivered content inside a record: `data` of a live submission, `payload` of a simulated item. */
export function contentOf(row: TriageRow, record: unknown): unknown {
  if (!isRecord(record)) return record;
  const key = row.item.kind === 'live' ? 'data' : 'payload';
  return key in record ? record[key] : record;
}

/** The unit price as exact decimal text (integer micro-USD in the store; never a float on the way). */
export const unitPriceOf = (row: TriageRow): string | null => (row.item.priceMicros === null ? null : microsToDecimal(row.item.priceMicros));
