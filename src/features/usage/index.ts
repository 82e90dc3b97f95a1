/** Public entry of the usage feature. */
export { SPEC_WARNINGS, UsagePage } from './components/usage-page';
export { usageQuery } from './queries';
export { usageSearchSchema } from './search';
