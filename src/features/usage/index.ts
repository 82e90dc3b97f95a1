/** Public entry of the usage feature. */
export { UsagePage } from './components/usage-page';
export { usageSearchSchema } from './search';
