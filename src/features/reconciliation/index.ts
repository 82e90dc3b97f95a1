/** Public entry of the reconciliation feature. */
export { ReconciliationPage } from './components/reconciliation-page';
export { booksDeliveryItemsQuery } from './queries';
