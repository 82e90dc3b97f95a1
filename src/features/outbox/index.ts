/** Public entry of the outbox: the persisted, undoable, retrying queue of decisions. */
export { OutboxNotices } from './components/outbox-notices';
export { OutboxStatus } from './components/outbox-status';
export { RemoveConnectionDialog } from './components/remove-connection-dialog';
export { OutboxEngine, type OutboxDeps } from './engine';
export { indexedDbStore, type DecisionStore } from './store';
export { outboxCounts, useOtherTabsEntries, useOutboxEntries, useOutboxPaused, useOutboxPausedSubscriptions, useOutboxWriteError } from './hooks';
export { outbox, scopeFor, scopeOfConnection } from './instance';
export { isCharged, type Decision, type NewDecision, type OutboxEntry } from './model';
export { GRACE_MAX_S, GRACE_MIN_S, loadSettings, saveSettings, type ReviewSettings } from './settings';
