/** Public entry of triage: filters, facets, bulk decisions by query, statistics and export over the local store. */
export { describeFilters } from './describe';
export { loadSubscriptionItems } from './load-rows';
export { facetCounts, filterRows, sortRows, type Facets } from './query';
export {
  FILTER_KEYS,
  filtersOf,
  hasFilters,
  joinList,
  splitList,
  triageFilterShape,
  triageSearchSchema,
  type ListFacet,
  type SortField,
  type TriageFilters,
  type TriageSearch,
} from './search';
export { useTextIndex, useTriageRows } from './use-triage-rows';
export { toTriageRows, TRIAGE_STATE_LABELS, TRIAGE_STATES, type TriageRow, type TriageState } from './triage-state';
