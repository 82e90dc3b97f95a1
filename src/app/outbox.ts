import { ConnectionBlockedError } from '../api/errors';
import { rememberSecret } from '../lib/redact';
import { afterPaint } from '../lib/after-paint';
import { decideRefusal, isConnected, type Connection, type connectionStore } from '../data';
import { followOtherTabs } from '../data/connection-sync';
import { knownScope, localScope } from '../data/local-scope';
import type { Outbox } from '../data/outbox';
import { budgetGate } from '../domain/outbox/budget-gate';
import { OutboxEngine, type OutboxDeps } from '../domain/outbox/engine';
import { loadSettings } from '../domain/outbox/settings';
import { indexedDbStore, type DecisionStore } from '../domain/outbox/store';
import { browserTabs } from '../domain/outbox/tabs';
import type { ChangeFeed } from '../domain/store/change-feed';
import { holdsResponse } from '../api/contract/hub-budgets';
import { hubCall } from '../api/hub';
import { startTeamInboxSync } from './team-inbox-sync';
import { watchTeamHolds } from './team-holds-watcher';
import { unwrittenJournal } from './unwritten-journal';
import { paintedSubscription } from '../lib/after-paint';

export interface OutboxComposition {
  connections: typeof connectionStore;
  /** The local store's change feed: tabs tell each other of changed decisions on it. */
  changes: ChangeFeed;
  /** Hub mode's change stream, once started (src/app/live-stream.ts): the holds watcher follows it. */
  live?: () => { isLive: () => boolean; onChange: (read: () => void) => () => void } | null;
  /** Where decisions are kept (tests: a database of their own). */
  store?: DecisionStore;
  /** Tests: instead of the service. */
  send?: OutboxDeps['send'];
  /** Where a page left puts its unwritten decisions (tests: a storage of their own). */
  journalStorage?: Storage | null;
}

/**
 * The console's one outbox: the engine (keyed by scope) with what it needs from the app (the
 * connections that send, the budget gate, the tabs over the change feed), and the view the UI
 * uses, by connection id. Loaded on first use (src/app/outbox-handle.ts), never at import; `start`
 * loads every connection's decisions, follows the connections, and returns the stop.
 */
export function createOutbox({ connections: store, changes, ...given }: OutboxComposition): { outbox: Outbox; start(): () => void } {
  const connections = () => store.getSnapshot().connections;
  /** A connection's scope (docs/architecture.md, "Words"): null while its organization is not known. */
  const knownScopeOf = (connectionId: string): string | null => {
    const connection = connections().find((c) => c.id === connectionId);
    return connection ? knownScope(connection) : null;
  };
  // Lists offer decisions only once the scope is known (useLocalScope verifies the key first).
  const requireScope = (connectionId: string): string => {
    const scope = knownScopeOf(connectionId);
    if (scope === null) throw new Error('This connection’s organization is not known yet: verify its key before deciding.');
    return scope;
  };

  // The last line against a viewer's decision (the pages disable deciding first): nothing is recorded or sent.
  const requireDecider = (connectionId: string): string => {
    const refusal = decideRefusal(connections().find((c) => c.id === connectionId) ?? null);
    if (refusal) throw new Error(refusal);
    return requireScope(connectionId);
  };

  /** A connected connection of the scope sends its decisions: the active one first (any key of the organization will do). */
  const senderFor = (scope: string): Connection | undefined => {
    const active = store.getSnapshot().active;
    if (isConnected(active) && knownScope(active) === scope) return active;
    return connections().find((c) => isConnected(c) && knownScope(c) === scope);
  };

  const send = async (entry: Parameters<OutboxDeps['send']>[0]): Promise<unknown> => {
    const connection = senderFor(entry.scope);
    if (!connection) throw new ConnectionBlockedError('no connection of this organization is connected');
    const client = store.clientFor(connection);
    if (entry.kind === 'live') {
      return entry.decision === 'adopt'
        ? client.adoptLive(entry.itemId, entry.subscriptionId)
        : client.disputeLive(entry.itemId, entry.subscriptionId, entry.reason);
    }
    return entry.decision === 'adopt' ? client.adoptItem(entry.itemId) : client.disputeItem(entry.itemId);
  };

  const tabs = browserTabs(changes);
  const journal = unwrittenJournal(given.journalStorage === undefined ? localStorageOrNull() : given.journalStorage, tabs.id);
  const engine = new OutboxEngine({
    store: given.store ?? indexedDbStore(),
    send: given.send ?? send,
    onKeyRefused: (scope, error) => {
      for (const c of connections()) {
        if (isConnected(c) && knownScope(c) === scope) store.markRefused(c.id, { code: error.code ?? `HTTP_${error.status}`, message: error.message });
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
    journal,
    canSend: (scope) => senderFor(scope) !== undefined,
    // Through a team hub a repeat is answered with the team's decision, and the hub's budgets hold every adopt.
    resumesCharged: (scope) => connections().some((c) => c.hub !== undefined && knownScope(c) === scope),
    // The organization's newest receipts (at most 200: usage has no cursor), read by any connected key of it.
    // Through a team hub the hub's budget decides (409 BUDGET_HELD holds an adopt there): no gate here.
    budget: connections().some((c) => c.hub)
      ? undefined
      : budgetGate({
          receipts: async (scope) => {
            const connection = senderFor(scope);
            return connection ? (await store.clientFor(connection).usage(200)).data : null;
          },
        }),
  });

  const outbox: Outbox = {
    subscribe: engine.subscribe,
    subscribeAfterPaint: paintedSubscription(engine.subscribe),
    getSnapshot: engine.getSnapshot,
    pump: engine.pump,
    tab: tabs.id,
    enqueue: (connectionId, decision, group) => engine.enqueue(requireDecider(connectionId), decision, group, connectionId),
    enqueueMany: (connectionId, decisions, group) => engine.enqueueMany(requireDecider(connectionId), decisions, group, connectionId),
    whenWritten: () => engine.whenWritten(),
    holdGroup: (connectionId, group) => engine.holdGroup(requireScope(connectionId), group),
    releaseGroup: (connectionId, group) => engine.releaseGroup(requireScope(connectionId), group),
    cancelGroup: (connectionId, group) => engine.cancelGroup(requireScope(connectionId), group),
    undoGroup: (connectionId, group) => engine.undoGroup(requireScope(connectionId), group),
    undoLast: (connectionId) => engine.undoLast(requireScope(connectionId)),
    undoLatest: (connectionId) => engine.undoLatest(requireScope(connectionId)),
    undo: (connectionId, entryId) => engine.undo(requireScope(connectionId), entryId),
    retry: (connectionId, entryId) => engine.retry(requireScope(connectionId), entryId),
    confirm: (connectionId, entryIds) => engine.confirm(requireScope(connectionId), entryIds),
    releaseBudget: (connectionId, entryIds) => engine.releaseBudget(requireScope(connectionId), entryIds),
    discard: (connectionId, entryIds) => engine.discard(requireScope(connectionId), entryIds),
    isDiscardable: (connectionId, entry) => engine.isDiscardable(requireScope(connectionId), entry),
    sendNow: (connectionId) => engine.sendNow(requireScope(connectionId)),
    discardAll: (connectionId) => {
      const scope = knownScopeOf(connectionId);
      if (scope) engine.discardAll(scope);
    },
    isPaused: (connectionId) => {
      const scope = knownScopeOf(connectionId);
      return scope ? engine.isPaused(scope) : null;
    },
    retryWrites: () => engine.retryWrites(),
    forget: (connectionId) => {
      const scope = knownScopeOf(connectionId);
      if (scope) engine.forget(scope);
    },
    clearErrors: async (connectionId) => {
      const scope = knownScopeOf(connectionId);
      if (scope) await engine.clearErrors(scope);
    },
  };

  /** Loads every known connection's decisions, and resumes sending once a key is fixed. */
  const start = () => {
    // The key each connection had when last seen (a hub member's role): a new key lifts the refusals of the old one.
    const keys = new Map<string, string>();
    const sync = () => {
      const { failures } = store.getSnapshot();
      for (const connection of connections()) {
        // Every key and JWT the console holds is redacted from error texts, even before it is used.
        rememberSecret(connection.apiKey);
        rememberSecret(connection.jwt);
        // On a team hub the member's role stands for the key: made a reviewer again, what the hub refused (403) is sent.
        const credential = connection.hub ? `role:${connection.hub.member.role}` : connection.apiKey;
        const newKey = keys.has(connection.id) && keys.get(connection.id) !== credential;
        keys.set(connection.id, credential);
        // Its organization unknown, the connection waits for its verify (useLocalScope) and is seen again then.
        const scope = knownScope(connection);
        if (!scope) continue;
        void engine.load(scope);
        // A connected key (a new one, or after a disconnect) sends what waits, and takes over closed tabs' decisions.
        if (isConnected(connection) && !failures[connection.id]) engine.resume(scope, newKey);
      }
    };
    // A page being left or hidden writes what waited for a paint at once (a hidden page paints no more
    // frames); one being left also journals what is not written yet (unwritten-journal.ts).
    const hidden = () => document.visibilityState === 'hidden' && engine.runDeferred();
    // Back from the back/forward cache: this page holds its decisions itself again, and sends again.
    const shown = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      journal.clearOwn();
      engine.returned();
    };
    window.addEventListener('online', engine.pump);
    window.addEventListener('pagehide', engine.leave);
    window.addEventListener('pageshow', shown);
    document.addEventListener('visibilitychange', hidden);
    const unsubscribe = store.subscribe(sync);
    // A key disconnected or a connection removed in another tab is so here: nothing is sent with it.
    // Not in hub mode: its one connection is the hub's, and the stored ones are left as they are.
    const stopFollowing = connections().some((c) => c.hub) ? undefined : followOtherTabs(store);
    sync();
    // Hub mode: what became of the adopts the team hub holds (released, dropped) reaches the outbox.
    const stopHolds = connections().some((c) => c.hub)
      ? watchTeamHolds({
          outbox: engine,
          scopes: () => connections().flatMap((c) => (c.hub ? [knownScope(c)].filter((s): s is string => s !== null) : [])),
          holds: async () => (await hubCall(holdsResponse, '/holds?state=all')).holds,
          live: given.live?.() ?? undefined,
        })
      : undefined;
    // Hub mode: what teammates pulled reaches this browser's store (team-inbox-sync.ts).
    // And what teammates decided reaches its outbox (team-decisions-sync.ts): their items read decided here.
    const stopInbox = connections().some((c) => c.hub)
      ? startTeamInboxSync({
          connections,
          scopeOf: localScope,
          decisions: (scope, news, connectionId) => engine.applyTeamDecisions(scope, news, connectionId),
          closeDecided: (scope, subscriptionId, itemIds) => engine.closeDecided(scope, subscriptionId, itemIds),
          isLive: () => given.live?.()?.isLive() ?? false,
        })
      : undefined;
    return () => {
      unsubscribe();
      stopFollowing?.();
      stopHolds?.();
      stopInbox?.();
      window.removeEventListener('online', engine.pump);
      window.removeEventListener('pagehide', engine.leave);
      window.removeEventListener('pageshow', shown);
      document.removeEventListener('visibilitychange', hidden);
    };
  };

  return { outbox, start };
}

function localStorageOrNull(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: no journal, the IndexedDB write is all there is
  }
}
