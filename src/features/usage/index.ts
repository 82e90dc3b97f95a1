/** Public entry of the usage feature. */
export { SPEC_WARNINGS, UsagePage } from './components/usage-page';
export { usageSearchSchema } from './search';
