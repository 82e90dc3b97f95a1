/** Public entry of the outbox: the persisted, undoable, retrying queue of decisions. */
export { OutboxNotices } from './components/outbox-notices';
export { OutboxStatus } from './components/outbox-status';
export { RemoveConnectionDialog } from './components/remove-connection-dialog';
