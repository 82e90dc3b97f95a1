/** Public entry of the items view: a subscription's stored items with filters, facets, sort and text search. */
export { ItemsIndex } from './components/items-index';
export { ItemsPage } from './components/items-page';
