import { outboxEntrySchema, type OutboxEntry } from './model';

/**
 * Where earlier versions kept decisions: one Web Storage item per entry
 * (`dds.outbox.<connection>.<entry>`), before that one array per connection. Read once to move
 * them into the local store (see instance.ts), then removed. Those entries had no scope: it is
 * left empty here and set by whoever moves them.
 */
const prefixFor = (connectionId: string) => `dds.outbox.${connectionId}.`;
/** Earlier versions kept a connection's whole outbox in one array under this key. */
const legacyKeyFor = (connectionId: string) => `dds.outbox.${connectionId}`;

function parseEntry(value: unknown, connectionId: string): OutboxEntry[] {
  const parsed = outboxEntrySchema.safeParse(value && typeof value === 'object' ? { scope: '', ...value } : value);
  return parsed.success && parsed.data.connectionId === connectionId ? [parsed.data] : [];
}

function parseJson(raw: string | null): unknown {
  if (!raw) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** Reads a connection's outbox, oldest first; damaged entries are dropped, the rest kept. */
export function readEntries(storage: Storage | null, connectionId: string): OutboxEntry[] {
  if (!storage) return [];
  const prefix = prefixFor(connectionId);
  const byId = new Map<string, OutboxEntry>();
  const legacy = parseJson(storage.getItem(legacyKeyFor(connectionId)));
  for (const entry of (Array.isArray(legacy) ? legacy : []).flatMap((value) => parseEntry(value, connectionId))) byId.set(entry.id, entry);
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (!key?.startsWith(prefix)) continue;
    for (const entry of parseEntry(parseJson(storage.getItem(key)), connectionId)) byId.set(entry.id, entry);
  }
  return [...byId.values()].sort((a, b) => a.createdAt - b.createdAt);
}

export function removeEntry(storage: Storage | null, connectionId: string, entryId: string): void {
  storage?.removeItem(prefixFor(connectionId) + entryId);
}

/** Drops the old single-array item once its entries are written one by one. */
export function removeLegacy(storage: Storage | null, connectionId: string): void {
  storage?.removeItem(legacyKeyFor(connectionId));
}
