import { ApiError, ConnectionBlockedError } from '../../api/errors';
import { clientFor, connectionStore, type Connection } from '../connections';
import { OutboxEngine, type TabRegistry } from './engine';
import type { OutboxEntry } from './model';
import { loadSettings } from './settings';

const connectionOf = (id: string): Connection | undefined => connectionStore.getSnapshot().connections.find((c) => c.id === id);

/** The outbox follows its connection's storage choice: the tab's, or this device's when remembered. */
function storageFor(connectionId: string): Storage | null {
  try {
    return connectionOf(connectionId)?.remember ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

async function send(entry: OutboxEntry): Promise<unknown> {
  const connection = connectionOf(entry.connectionId);
  if (!connection?.apiKey) throw new ConnectionBlockedError('the connection is disconnected');
  const client = clientFor(connection);
  if (entry.kind === 'live') {
    return entry.decision === 'adopt'
      ? client.adoptLive(entry.itemId, entry.subscriptionId)
      : client.disputeLive(entry.itemId, entry.subscriptionId, entry.reason);
  }
  return entry.decision === 'adopt' ? client.adoptItem(entry.itemId) : client.disputeItem(entry.itemId);
}

/**
 * Open tabs, through Web Locks: each tab holds a lock named after it for as long as it is open
 * (the browser releases it when the tab closes or crashes), so asking for another tab's lock
 * is granted exactly when that tab is gone. Web Locks need a secure context (https or
 * localhost); without them every stored decision is resumed as after a reload.
 */
function openTabs(): TabRegistry | undefined {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks || !globalThis.crypto?.randomUUID) return undefined;
  const id = globalThis.crypto.randomUUID();
  const lockOf = (tab: string) => `dds.outbox.tab.${tab}`;
  // If the browser refuses locks here, other tabs take this tab's decisions over as after a reload.
  locks.request(lockOf(id), () => new Promise<never>(() => {})).catch(() => undefined);
  return {
    id,
    // Refused, the owner cannot be told alive: its decisions are resumed rather than left unsent.
    whenGone: (owner, onGone) => void locks.request(lockOf(owner), () => onGone()).catch(() => onGone()),
  };
}

/** The console's one outbox. */
export const outbox = new OutboxEngine({
  storageFor,
  send,
  onKeyRefused: (connectionId, error: ApiError) =>
    connectionStore.markRefused(connectionId, { code: error.code ?? `HTTP_${error.status}`, message: error.message }),
  isOnline: () => (typeof navigator === 'undefined' ? true : navigator.onLine),
  graceMs: () => loadSettings().graceSeconds * 1000,
  tabs: typeof window === 'undefined' ? undefined : openTabs(),
});

/** Loads every known connection's outbox and resumes a paused one once its key is fixed. */
function syncWithConnections() {
  const { connections, failures } = connectionStore.getSnapshot();
  for (const connection of connections) {
    outbox.load(connection.id);
    if (outbox.isPaused(connection.id) && connection.apiKey && !failures[connection.id]) outbox.resume(connection.id);
  }
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', outbox.pump);
  // Another tab recorded, sent or undid a decision of a remembered connection: show it here too.
  window.addEventListener('storage', (event) => {
    if (event.key !== null && !event.key.startsWith('dds.outbox.')) return;
    for (const connection of connectionStore.getSnapshot().connections) outbox.syncOthers(connection.id);
  });
  connectionStore.subscribe(syncWithConnections);
  syncWithConnections();
}
