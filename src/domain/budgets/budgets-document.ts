import { parseBudgetsStrictly, type Budgets } from './model';

/**
 * The stored budgets of a scope as the gate and the pages read them: two rows of the local
 * store's `settings`, the document (BUDGETS_SETTING) and a marker (BUDGETS_MARKER) written, with
 * the first save that set a limit, beside it. Any damage fails closed, never as "no limit":
 *  - a document that is not exactly the budgets' shape (a limit that is no amount, an unknown key
 *    such as `{"organization":{"Daily":50000}}`) is damaged;
 *  - once the marker says limits were set, a missing document is damaged too (a deleted row).
 * The reason is kept in words the Budgets page shows.
 */
export const BUDGETS_SETTING = 'budgets';
export const BUDGETS_MARKER = 'budgets-set';

export type BudgetsRead = { status: 'none' } | { status: 'ok'; budgets: Budgets } | { status: 'damaged'; why: string };

interface Row {
  value: unknown;
}

const when = (marker: Row) => {
  const since = (marker.value as { since?: unknown } | null)?.since;
  return typeof since === 'number' && Number.isFinite(since) ? ` on ${new Date(since).toLocaleDateString()}` : '';
};

export function readBudgetsDocument(document: Row | undefined, marker: Row | undefined): BudgetsRead {
  if (!document) {
    return marker
      ? { status: 'damaged', why: `the record of the limits is missing, though limits were set on this device${when(marker)}` }
      : { status: 'none' };
  }
  const parsed = parseBudgetsStrictly(document.value);
  return parsed.success ? { status: 'ok', budgets: parsed.budgets } : { status: 'damaged', why: parsed.why };
}

/** The marker's value: when limits were first set. */
export const markerValue = (now: number) => ({ since: now });
