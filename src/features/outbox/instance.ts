import { ConnectionBlockedError } from '../../api/errors';
import { rememberSecret } from '../../lib/redact';
import { afterPaint } from '../../lib/after-paint';
import { clientFor, connectionStore, scopeOf, type Connection } from '../../data';
import { provideDecisions } from '../budgets';
import { budgetGate } from '../../domain/outbox/budget-gate';
import { OutboxEngine } from '../../domain/outbox/engine';
import type { NewDecision, OutboxEntry } from '../../domain/outbox/model';
import { loadSettings } from '../../domain/outbox/settings';
import { readEntries, removeLegacy, removeEntry } from '../../domain/outbox/storage';
import { indexedDbStore } from '../../domain/outbox/store';
import { browserTabs } from '../../domain/outbox/tabs';

const connections = () => connectionStore.getSnapshot().connections;
const connectionOf = (id: string): Connection | undefined => connections().find((c) => c.id === id);

/**
 * A connection's scope: its organization on its base URL, once the service said whose key it is.
 * Until then (a connection stored by an earlier version), its own provisional scope; its
 * decisions move to the organization's once verify-key answered.
 */
export function scopeOfConnection(connection: Connection): string {
  return connection.verified ? scopeOf(connection.baseUrl, connection.verified.org_id) : scopeOf(connection.baseUrl, `connection:${connection.id}`);
}
/** Scopes worked out for the connections as they are now: every outbox hook asks on every change. */
let known: { of: unknown; scopes: Map<string, string> } = { of: null, scopes: new Map() };
export const scopeFor = (connectionId: string): string => {
  const current = connections();
  if (known.of !== current) known = { of: current, scopes: new Map() };
  let scope = known.scopes.get(connectionId);
  if (scope === undefined) {
    const connection = connectionOf(connectionId);
    scope = connection ? scopeOfConnection(connection) : `connection:${connectionId}`;
    known.scopes.set(connectionId, scope);
  }
  return scope;
};

/** A connected connection of the scope sends its decisions: the active one first (any key of the organization will do). */
function senderFor(scope: string): Connection | undefined {
  const active = connectionStore.getSnapshot().active;
  if (active?.apiKey && scopeOfConnection(active) === scope) return active;
  return connections().find((c) => c.apiKey && scopeOfConnection(c) === scope);
}

async function send(entry: OutboxEntry): Promise<unknown> {
  const connection = senderFor(entry.scope);
  if (!connection) throw new ConnectionBlockedError('no connection of this organization is connected');
  const client = clientFor(connection);
  if (entry.kind === 'live') {
    return entry.decision === 'adopt'
      ? client.adoptLive(entry.itemId, entry.subscriptionId)
      : client.disputeLive(entry.itemId, entry.subscriptionId, entry.reason);
  }
  return entry.decision === 'adopt' ? client.adoptItem(entry.itemId) : client.disputeItem(entry.itemId);
}

const tabs = browserTabs();

/** The console's one outbox engine (keyed by scope). */
const outboxEngine = new OutboxEngine({
  store: indexedDbStore(),
  send,
  onKeyRefused: (scope, error) => {
    for (const c of connections()) {
      if (c.apiKey && scopeOfConnection(c) === scope) connectionStore.markRefused(c.id, { code: error.code ?? `HTTP_${error.status}`, message: error.message });
    }
  },
  isOnline: () => (typeof navigator === 'undefined' ? true : navigator.onLine),
  graceMs: () => loadSettings().graceSeconds * 1000,
  tabs,
  // A decision is painted first, then written (a frame later at most; never sent before).
  afterPaint,
  // The browser opens at most 6 HTTP/1.1 connections per origin; 6 in flight keeps a bulk run's
  // stream steady (each answer frees a slot at once) and leaves other requests one answer's wait.
  concurrency: 6,
  canSend: (scope) => senderFor(scope) !== undefined,
  // The organization's newest receipts (at most 200: usage has no cursor), read by any connected key of it.
  budget: budgetGate({
    receipts: async (scope) => {
      const connection = senderFor(scope);
      return connection ? (await clientFor(connection).usage(200)).data : null;
    },
  }),
});

/** The outbox as the UI uses it: by connection id, resolved to the connection's scope. */
export const outbox = {
  subscribe: outboxEngine.subscribe,
  getSnapshot: outboxEngine.getSnapshot,
  pump: outboxEngine.pump,
  enqueue: (connectionId: string, decision: NewDecision, group?: string) => outboxEngine.enqueue(scopeFor(connectionId), decision, group, connectionId),
  /** Records many decisions at once as one group (one write, one undo); skipped ones name the decision that stands. */
  enqueueMany: (connectionId: string, decisions: readonly NewDecision[], group: string) =>
    outboxEngine.enqueueMany(scopeFor(connectionId), decisions, group, connectionId),
  /** Resolves once everything recorded so far is written to this device (false when a write failed). */
  whenWritten: () => outboxEngine.whenWritten(),
  holdGroup: (connectionId: string, group: string) => outboxEngine.holdGroup(scopeFor(connectionId), group),
  releaseGroup: (connectionId: string, group: string) => outboxEngine.releaseGroup(scopeFor(connectionId), group),
  cancelGroup: (connectionId: string, group: string) => outboxEngine.cancelGroup(scopeFor(connectionId), group),
  undoGroup: (connectionId: string, group: string) => outboxEngine.undoGroup(scopeFor(connectionId), group),
  undoLast: (connectionId: string) => outboxEngine.undoLast(scopeFor(connectionId)),
  undoLatest: (connectionId: string) => outboxEngine.undoLatest(scopeFor(connectionId)),
  undo: (connectionId: string, entryId: string) => outboxEngine.undo(scopeFor(connectionId), entryId),
  retry: (connectionId: string, entryId: string) => outboxEngine.retry(scopeFor(connectionId), entryId),
  confirm: (connectionId: string, entryIds: readonly string[]) => outboxEngine.confirm(scopeFor(connectionId), entryIds),
  /** Sends decisions a budget held, past their limit (after the user confirmed their total); returns how many. */
  releaseBudget: (connectionId: string, entryIds: readonly string[]) => outboxEngine.releaseBudget(scopeFor(connectionId), entryIds),
  discard: (connectionId: string, entryIds: readonly string[]) => outboxEngine.discard(scopeFor(connectionId), entryIds),
  isDiscardable: (connectionId: string, entry: OutboxEntry) => outboxEngine.isDiscardable(scopeFor(connectionId), entry),
  sendNow: (connectionId: string) => outboxEngine.sendNow(scopeFor(connectionId)),
  discardAll: (connectionId: string) => outboxEngine.discardAll(scopeFor(connectionId)),
  isPaused: (connectionId: string) => outboxEngine.isPaused(scopeFor(connectionId)),
  retryWrites: () => outboxEngine.retryWrites(),
  /** After the connection's local data was deleted: forget its decisions in memory too. */
  forget: (connectionId: string) => outboxEngine.forget(scopeFor(connectionId)),
  /** On Disconnect: the error texts of the connection's decisions go (they are a server's words). */
  clearErrors: (connectionId: string) => outboxEngine.clearErrors(scopeFor(connectionId)),
};

const NONE: readonly OutboxEntry[] = [];
// Budgets' pages read the decisions through this view (budgets cannot import the outbox: it imports them).
provideDecisions({
  subscribe: outboxEngine.subscribe,
  entries: (connectionId) => outboxEngine.getSnapshot().entries[scopeFor(connectionId)] ?? NONE,
  others: (connectionId) => outboxEngine.getSnapshot().others[scopeFor(connectionId)] ?? NONE,
  scopeOf: scopeFor,
  release: (connectionId, entryIds) => outboxEngine.releaseBudget(scopeFor(connectionId), entryIds),
  discard: (connectionId, entryIds) => outboxEngine.discard(scopeFor(connectionId), entryIds),
  tab: tabs.id,
});

/** Decisions earlier versions kept in localStorage or sessionStorage, moved into the local store once. */
async function migrateLegacy(connection: Connection, scope: string): Promise<void> {
  const stores = [globalThis.localStorage, globalThis.sessionStorage].filter((s): s is Storage => !!s);
  const found = stores.flatMap((storage) => readEntries(storage, connection.id).map((e) => ({ ...e, scope })));
  await outboxEngine.load(scope, found);
  if (found.length === 0 || outboxEngine.getSnapshot().writeError) return;
  for (const storage of stores) {
    for (const e of found) removeEntry(storage, connection.id, e.id);
    removeLegacy(storage, connection.id);
  }
}

const verifying = new Set<string>();
/** A connection stored without its organization is verified (spec 4.5) before its decisions load under it. */
function verify(connection: Connection): void {
  const key = `${connection.id} ${connection.apiKey}`;
  if (verifying.has(key)) return;
  verifying.add(key);
  clientFor(connection)
    .verifyKey()
    .then((result) => {
      const verified = { org_id: result.org_id, key_id: result.key_id, key_name: result.key_name };
      connectionStore.recordVerified(connection.id, verified);
    })
    .catch(() => verifying.delete(key));
}

/** The key each connection had when last seen: a new key lifts the refusals of the old one. */
const keys = new Map<string, string>();

/** Loads every known connection's decisions, and resumes sending once a key is fixed. */
function syncWithConnections() {
  const { failures } = connectionStore.getSnapshot();
  for (const connection of connections()) {
    // Every key and JWT the console holds is redacted from error texts, even before it is used.
    rememberSecret(connection.apiKey);
    rememberSecret(connection.jwt);
    const scope = scopeOfConnection(connection);
    if (!connection.verified && connection.apiKey) verify(connection);
    void migrateLegacy(connection, scope);
    const newKey = keys.has(connection.id) && keys.get(connection.id) !== connection.apiKey;
    keys.set(connection.id, connection.apiKey);
    // A connected key (a new one, or after a disconnect) sends what waits, and takes over closed tabs' decisions.
    if (connection.apiKey && !failures[connection.id]) outboxEngine.resume(scope, newKey);
  }
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', outboxEngine.pump);
  // A page being left or hidden writes what waited for a paint at once (a hidden page paints no more frames).
  window.addEventListener('pagehide', outboxEngine.runDeferred);
  document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && outboxEngine.runDeferred());
  connectionStore.subscribe(syncWithConnections);
  syncWithConnections();
}
