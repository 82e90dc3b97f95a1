/** Public entry of the outbox: the persisted, undoable, retrying queue of decisions. */
export { OutboxNotices } from './components/outbox-notices';
export { OutboxStatus } from './components/outbox-status';
export { RemoveConnectionDialog } from './components/remove-connection-dialog';
export { outboxCounts, useOtherTabsEntries, useOutboxEntries } from './hooks';
export { outbox } from './instance';
export { isCharged, type Decision, type NewDecision, type OutboxEntry } from '../../domain/outbox/model';
export { GRACE_MAX_S, GRACE_MIN_S, loadSettings, saveSettings } from '../../domain/outbox/settings';
