import type { DecisionRow } from '../store/decisions';

/*
 * What a browser is told about a decision, first time or repeat: the vendor's own answer once it
 * has one (plus `hub.state: 'sent'`), the vendor's success shape with 202 and `hub.state:
 * 'queued'` while the hub holds it, 409 BUDGET_HELD while a budget holds it.
 */

export interface Answer {
  status: number;
  body: unknown;
}

/** The vendor's success shape for the endpoint (4.8/4.9 or 4.11/4.12), for a decision not yet delivered. */
function vendorSuccess(row: Pick<DecisionRow, 'family' | 'item_id' | 'kind'>) {
  return row.family === 'live'
    ? { ok: true, submission_id: row.item_id, feedback: row.kind }
    : { ok: true, item_id: row.item_id, status: row.kind === 'adopt' ? 'adopted' : 'disputed' };
}

export const queuedAnswer = (row: DecisionRow): Answer => ({ status: 202, body: { ...vendorSuccess(row), hub: { state: 'queued', decision_id: row.id } } });

export function sentAnswer(row: Pick<DecisionRow, 'id'>, status: number, parsed: unknown): Answer {
  const body = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? { ...parsed, hub: { state: 'sent', decision_id: row.id } } : parsed;
  return { status, body };
}

export const heldAnswer = (holdId: string, limit: string): Answer => ({
  status: 409,
  body: {
    success: false,
    errorCode: 'BUDGET_HELD',
    errorMessage: `this adopt would pass the ${limit.replace('.', ' ')} budget: it is held on the hub until an admin releases it`,
    hold_id: holdId,
  },
});

/** The recorded outcome of an item's decision, for a repeat (never sent again). */
export function recordedAnswer(row: DecisionRow, hold: { id: string; limit_name: string } | undefined): Answer {
  if (row.state === 'sent') return sentAnswer(row, row.response_status ?? 200, JSON.parse(row.response_body ?? 'null'));
  if (row.state === 'held' && hold) return heldAnswer(hold.id, hold.limit_name);
  return queuedAnswer(row);
}
