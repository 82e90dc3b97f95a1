import { localDb } from './db';

/**
 * Small per-scope documents (dispute reason codes, budgets), kept with the organization on a
 * base URL like everything else in the store, so every tab and every key of it sees the same one.
 * The owner of a name checks what it reads (`parse`): a damaged or older document gives `null`.
 * Writes are told on the change feed (table `settings`, the name as the ID).
 */
export async function readSetting<T>(scope: string, name: string, parse: (value: unknown) => T | null): Promise<T | null> {
  const row = await localDb().settings.get([scope, name]);
  return row ? parse(row.value) : null;
}

/** Writes a document whole; resolves once it is committed. */
export async function writeSetting(scope: string, name: string, value: unknown): Promise<void> {
  const db = localDb();
  await db.settings.put({ scope, name, value, updatedAt: Date.now() });
  db.changes.publish({ scope, table: 'settings', ids: [name] });
}

/**
 * Reads and rewrites a document in one IndexedDB transaction: two tabs changing it at once are
 * serialised by the database, so neither overwrites the other's change unseen.
 */
export async function updateSetting<T>(scope: string, name: string, parse: (value: unknown) => T | null, change: (current: T | null) => T): Promise<T> {
  const db = localDb();
  const next = await db.transaction('rw', db.settings, async () => {
    const row = await db.settings.get([scope, name]);
    const next = change(row ? parse(row.value) : null);
    await db.settings.put({ scope, name, value: next, updatedAt: Date.now() });
    return next;
  });
  db.changes.publish({ scope, table: 'settings', ids: [name] });
  return next;
}
