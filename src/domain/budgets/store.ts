import { localChanges, touches } from '../../domain/store/change-feed';
import { BUDGETS_MARKER, BUDGETS_SETTING, markerValue, readBudgetsDocument } from './budgets-document';
import { NO_BUDGETS, setsAnyLimit, type Budgets } from './model';

/**
 * Budgets in the durable local store (its `settings` table, one document per scope), and the
 * word that they changed: the local store's change feed, to this tab's listeners and the other tabs.
 * The local store carries Dexie: it is imported on first use, not with the first page.
 */
const localStore = () => import('../store');

/**
 * A scope's budgets; `damaged` (why, in words) when what is stored cannot be trusted: the page says
 * so (the outbox's gate sends nothing charged meanwhile) and saving the limits replaces it.
 */
export async function readBudgets(scope: string): Promise<{ budgets: Budgets; damaged: string | null }> {
  const db = (await localStore()).localDb();
  const [document, marker] = await db.settings.bulkGet([
    [scope, BUDGETS_SETTING],
    [scope, BUDGETS_MARKER],
  ]);
  const read = readBudgetsDocument(document, marker);
  return read.status === 'ok' ? { budgets: read.budgets, damaged: null } : { budgets: NO_BUDGETS, damaged: read.status === 'damaged' ? read.why : null };
}

/**
 * Changes a scope's budgets in one transaction (two tabs changing them at once do not overwrite
 * each other), then tells every tab. A damaged document is replaced (the change applies to no
 * limits). The first save that sets a limit writes the marker beside it: from then on a missing
 * document is damage, not "no limit".
 */
export async function changeBudgets(scope: string, change: (current: Budgets) => Budgets): Promise<Budgets> {
  const db = (await localStore()).localDb();
  const next = await db.transaction('rw', db.settings, async () => {
    const [document, marker] = await db.settings.bulkGet([
      [scope, BUDGETS_SETTING],
      [scope, BUDGETS_MARKER],
    ]);
    const read = readBudgetsDocument(document, marker);
    const changed = change(read.status === 'ok' ? read.budgets : NO_BUDGETS);
    const now = Date.now();
    await db.settings.put({ scope, name: BUDGETS_SETTING, value: changed, updatedAt: now });
    if (!marker && setsAnyLimit(changed)) await db.settings.put({ scope, name: BUDGETS_MARKER, value: markerValue(now), updatedAt: now });
    return changed;
  });
  db.changes.publish({ scope, table: 'settings', ids: [BUDGETS_SETTING] });
  return next;
}

/** Calls `listener` with each scope whose budgets changed, in this tab or another; returns the unsubscribe. */
export function onBudgetsChange(listener: (scope: string) => void): () => void {
  return localChanges().subscribe((change) => {
    if (touches(change, change.scope, 'settings', BUDGETS_SETTING)) listener(change.scope);
  });
}
