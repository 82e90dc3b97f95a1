/** Public entry of the usage feature. */
export { SPEC_WARNINGS, UsagePage } from './components/usage-page';
export { dayOf, receiptMicros } from './model';
export { usageSearchSchema, type UsageSearch } from './search';
