/** Public entry of triage: filters, facets, bulk decisions by query, statistics and export over the local store. */
export { describeFilters } from './describe';
export { loadSubscriptionItems } from './load-rows';
export { facetCounts, filterRows, listValue, sortRows, type Bounds, type Facets, type TextIndex } from './query';
export {
  FILTER_KEYS,
  filtersOf,
  hasFilters,
  joinList,
  LIST_FACETS,
  RANGE_FACETS,
  RANGE_KEYS,
  SORT_FIELDS,
  splitList,
  triageFilterShape,
  triageSearchSchema,
  type ListFacet,
  type RangeFacet,
  type SortField,
  type TriageFilters,
  type TriageSearch,
} from './search';
export { textIndexOf, type BuiltIndex } from './text-index';
export { useTextIndex, useTriageRows } from './use-triage-rows';
export { latestEntries, toTriageRows, triageStateOf, TRIAGE_STATE_LABELS, TRIAGE_STATES, type TriageRow, type TriageState } from './triage-state';
