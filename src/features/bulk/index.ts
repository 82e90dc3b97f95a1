/** Public entry of bulk decisions by query: adopt or dispute every matching item, through the outbox. */
export { BulkActions } from './components/bulk-actions';
