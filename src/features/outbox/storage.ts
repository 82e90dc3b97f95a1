import { z } from '../../api/contract/zod';
import { outboxEntrySchema, type OutboxEntry } from './model';

const keyFor = (connectionId: string) => `dds.outbox.${connectionId}`;

/** Reads a connection's outbox; damaged entries are dropped, the rest kept. */
export function readEntries(storage: Storage | null, connectionId: string): OutboxEntry[] {
  const raw = storage?.getItem(keyFor(connectionId));
  if (!raw) return [];
  try {
    return z
      .array(z.unknown())
      .parse(JSON.parse(raw))
      .flatMap((entry) => {
        const parsed = outboxEntrySchema.safeParse(entry);
        return parsed.success && parsed.data.connectionId === connectionId ? [parsed.data] : [];
      });
  } catch {
    return [];
  }
}

/** Writes synchronously: a decision is on disk before anything else happens. */
export function writeEntries(storage: Storage | null, connectionId: string, entries: readonly OutboxEntry[]): void {
  if (!storage) return;
  if (entries.length === 0) storage.removeItem(keyFor(connectionId));
  else storage.setItem(keyFor(connectionId), JSON.stringify(entries));
}
