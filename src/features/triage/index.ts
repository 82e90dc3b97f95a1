/** Public entry of triage: filters, facets, bulk decisions by query, statistics and export over the local store. */
export { loadSubscriptionItems } from './load-rows';
export { latestEntries, toTriageRows, triageStateOf, TRIAGE_STATE_LABELS, TRIAGE_STATES, type TriageRow, type TriageState } from './triage-state';
