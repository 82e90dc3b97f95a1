import { ApiError, ConnectionBlockedError } from '../../api/errors';
import { clientFor, connectionStore, type Connection } from '../connections';
import { OutboxEngine } from './engine';
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

/** The console's one outbox. */
export const outbox = new OutboxEngine({
  storageFor,
  send,
  onKeyRefused: (connectionId, error: ApiError) =>
    connectionStore.markRefused(connectionId, { code: error.code ?? `HTTP_${error.status}`, message: error.message }),
  isOnline: () => (typeof navigator === 'undefined' ? true : navigator.onLine),
  graceMs: () => loadSettings().graceSeconds * 1000,
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
  connectionStore.subscribe(syncWithConnections);
  syncWithConnections();
}
