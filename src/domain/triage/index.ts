/** Public entry of the triage engine: filters, facets, sorting and text search over the local store's rows (no React). */
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
export { textIndexOf } from './text-index';
export { toTriageRows, TRIAGE_STATE_LABELS, TRIAGE_STATES, type TriageRow, type TriageState } from './triage-state';
