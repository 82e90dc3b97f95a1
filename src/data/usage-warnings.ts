/**
 * What the service's interface says receipts do and do not prove, shown wherever spend is read
 * (Usage and Reconciliation).
 */
export const SPEC_WARNINGS = [
  'A per-item unit price is not proof of a charge: only receipts are.',
  'An empty receipt on a historical re-read does not mean that an API or a subscription is free. To check cost, compare the actual receipts with what was adopted (see Reconciliation).',
];
