/** Public entry of the reconciliation feature. */
export { ReconciliationPage } from './components/reconciliation-page';
export { reconcile, type Mismatch, type Reconciliation } from './model';
