import { z } from '../api/contract/zod';
import { outboxEntrySchema, type OutboxEntry } from '../domain/outbox/model';
import type { UnwrittenJournal } from '../domain/outbox/engine';
import { redactSecrets } from '../lib/redact';

/** One key per page load (tab id), so tabs closed together never overwrite each other's. */
export const JOURNAL_PREFIX = 'dds.outbox.unwritten.';

const entries = z.array(z.unknown());

/**
 * The outbox's journal of decisions a page had not written when it was left (engine-types.ts,
 * `UnwrittenJournal`), in localStorage: its writes are synchronous, so they are done before the
 * page goes, where an IndexedDB transaction started in `pagehide` may be dropped with the page.
 * It holds what the outbox holds anyway (ids, decisions, prices; never a key), and only until the
 * next load of the scope has written it to IndexedDB.
 */
export function unwrittenJournal(storage: Storage | null, tab: string): UnwrittenJournal & { clearOwn(): void } {
  const own = JOURNAL_PREFIX + tab;
  const keys = () => {
    if (!storage) return [];
    const found: string[] = [];
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key?.startsWith(JOURNAL_PREFIX)) found.push(key);
    }
    return found;
  };
  /** A key's entries; damaged ones (another version, a hand edit) are skipped. */
  const readKey = (key: string): OutboxEntry[] => {
    try {
      const parsed = entries.safeParse(JSON.parse(storage?.getItem(key) ?? '[]'));
      if (!parsed.success) return [];
      return parsed.data.flatMap((row) => {
        const entry = outboxEntrySchema.safeParse(row);
        return entry.success ? [entry.data] : [];
      });
    } catch {
      return [];
    }
  };
  const writeKey = (key: string, kept: readonly OutboxEntry[]) => {
    try {
      if (kept.length) storage?.setItem(key, JSON.stringify(kept));
      else storage?.removeItem(key);
    } catch {
      // Storage full or disabled: the IndexedDB write started beside it is all there is.
    }
  };
  return {
    // A decision's error text is a server's words: redacted before it is kept, as in IndexedDB.
    save: (left) =>
      writeKey(
        own,
        left.map((e) => (e.lastError === undefined ? e : { ...e, lastError: redactSecrets(e.lastError) })),
      ),
    read: (scope) => keys().flatMap((key) => readKey(key).filter((e) => e.scope === scope)),
    drop: (scope, ids) => {
      for (const key of keys()) {
        const all = readKey(key);
        const kept = all.filter((e) => e.scope !== scope || (ids !== null && !ids.has(e.id)));
        if (kept.length !== all.length) writeKey(key, kept);
      }
    },
    /** The page came back from the back/forward cache: it holds its decisions itself again. */
    clearOwn: () => writeKey(own, []),
  };
}
