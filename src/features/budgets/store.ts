import { BUDGETS_SETTING, NO_BUDGETS, parseBudgets, type Budgets } from './model';

/**
 * Budgets in the durable local store (its `settings` table, one document per scope), and the
 * word that they changed: to this tab's listeners at once, to other tabs by a BroadcastChannel.
 * The local store carries Dexie: it is imported on first use, not with the first page.
 */
const localStore = () => import('../local-store');

/**
 * A scope's budgets; `damaged` when a document is stored that cannot be read: the page says so
 * (the outbox's gate sends nothing charged meanwhile) and saving the limits replaces it.
 */
export async function readBudgets(scope: string): Promise<{ budgets: Budgets; damaged: boolean }> {
  const { readSetting } = await localStore();
  const stored = await readSetting(scope, BUDGETS_SETTING, (value) => ({ parsed: parseBudgets(value) }));
  return { budgets: stored?.parsed ?? NO_BUDGETS, damaged: stored !== null && stored.parsed === null };
}

/** Changes a scope's budgets in one transaction (two tabs changing them at once do not overwrite each other), then tells every tab. */
export async function changeBudgets(scope: string, change: (current: Budgets) => Budgets): Promise<Budgets> {
  const { updateSetting } = await localStore();
  const next = await updateSetting(scope, BUDGETS_SETTING, parseBudgets, (current) => change(current ?? NO_BUDGETS));
  announce(scope);
  return next;
}

const listeners = new Set<(scope: string) => void>();
const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('dds.budgets');
channel?.addEventListener('message', (event: MessageEvent<unknown>) => {
  const data = event.data as { scope?: unknown } | null;
  if (typeof data?.scope === 'string') for (const listener of listeners) listener(data.scope);
});

function announce(scope: string): void {
  for (const listener of listeners) listener(scope);
  channel?.postMessage({ scope });
}

/** Calls `listener` with each scope whose budgets changed, in this tab or another; returns the unsubscribe. */
export function onBudgetsChange(listener: (scope: string) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
