import { createClient, type DdsClient } from '../api/client';
import { scopeOf, type Connection } from './connection';
import { loadConnections, saveConnections } from './connection-storage';
import { ImageOrigins } from './image-origins';

export interface AuthFailure {
  code: string;
  message: string;
}

/** What the console last saw of a connection's service (kept in memory only, never persisted). */
export type Observation = { state: 'connected'; at: number } | { state: 'unreachable'; since: number };

export interface ConnectionsSnapshot {
  connections: readonly Connection[];
  active: Connection | null;
  /** Connections whose key the server refused (401), by id. */
  failures: Readonly<Record<string, AuthFailure>>;
  /** The last outcome seen per connection: absent until something was checked. */
  observed: Readonly<Record<string, Observation>>;
}

/**
 * The connections and which one is active, outside React so loaders, the client and
 * components share one source. Components read it with useSyncExternalStore.
 */
export class ConnectionStore {
  private snapshot: ConnectionsSnapshot;
  private readonly listeners = new Set<() => void>();
  /** A client per connection record (an edit saves a new record, so it gets a new client with its key). */
  private readonly clients = new WeakMap<Connection, DdsClient>();
  /** The verify-key request running per connection id (`localScope`): asked once, whoever asks. */
  private readonly verifying = new Map<string, Promise<string>>();
  /** The image origins each connection allowed, kept apart from the connection record (it may hold the key). */
  readonly imageOrigins = new ImageOrigins();

  /** Hub mode (src/data/hub-mode.ts): one connection derived from the hub, never written to storage. */
  private hubMode = false;

  constructor(initial = loadConnections()) {
    const active = initial.connections.find((c) => c.id === initial.activeId) ?? initial.connections[0] ?? null;
    this.snapshot = { connections: initial.connections, active, failures: {}, observed: {} };
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = () => this.snapshot;

  get active(): Connection | null {
    return this.snapshot.active;
  }

  failureOf(id: string): AuthFailure | null {
    return this.snapshot.failures[id] ?? null;
  }

  private commit(next: Partial<ConnectionsSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...next };
    // In hub mode the personal connections stored in this browser are left as they are.
    if (!this.hubMode) saveConnections([...this.snapshot.connections], this.snapshot.active?.id ?? null);
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  observedOf(id: string): Observation | null {
    return this.snapshot.observed[id] ?? null;
  }

  /**
   * Records what a request just showed: the service answered the key, or could not be reached.
   * In memory only (nothing to persist), and "unreachable" keeps the time it started.
   */
  observe(id: string, outcome: 'connected' | 'unreachable', now = Date.now()): void {
    const previous = this.snapshot.observed[id];
    if (previous?.state === outcome) return;
    const next: Observation = outcome === 'connected' ? { state: 'connected', at: now } : { state: 'unreachable', since: now };
    this.snapshot = { ...this.snapshot, observed: { ...this.snapshot.observed, [id]: next } };
    this.notify();
  }

  /**
   * Adds or replaces a connection and makes it active. A new key clears a past refusal; an
   * edit that keeps the key (a new JWT, other subscriptions) keeps it.
   */
  save(connection: Connection): void {
    const previous = this.snapshot.connections.find((c) => c.id === connection.id);
    const connections = previous ? this.snapshot.connections.map((c) => (c.id === connection.id ? connection : c)) : [...this.snapshot.connections, connection];
    if (previous && previous.apiKey === connection.apiKey) {
      this.commit({ connections, active: connection });
      return;
    }
    const { [connection.id]: _cleared, ...failures } = this.snapshot.failures;
    const { [connection.id]: _unseen, ...observed } = this.snapshot.observed;
    this.commit({ connections, active: connection, failures, observed });
  }

  /**
   * Hub mode: the connection the hub gives (its member, the team's subscriptions) is the only
   * one, or none before sign-in. Called once at start, before anything reads the store.
   */
  enterHub(connection: Connection | null): void {
    this.hubMode = true;
    this.snapshot = { connections: connection ? [connection] : [], active: connection, failures: {}, observed: {} };
    this.notify();
  }

  activate(id: string): void {
    const active = this.snapshot.connections.find((c) => c.id === id);
    if (active) this.commit({ active });
  }

  /** Takes the connections another tab stored (connection-sync.ts; not in hub mode), as they are: not written back. */
  adopt(connections: Connection[]): void {
    this.snapshot = { ...this.snapshot, connections, active: connections.find((c) => c.id === this.snapshot.active?.id) ?? connections[0] ?? null };
    this.notify();
  }

  /** Clears a connection's secrets; its name, URL and subscriptions stay for reconnecting. */
  disconnect(id: string): void {
    const connections = this.snapshot.connections.map((c) => (c.id === id ? { ...c, apiKey: '' as const, jwt: undefined } : c));
    const { [id]: _cleared, ...failures } = this.snapshot.failures;
    const { [id]: _unseen, ...observed } = this.snapshot.observed;
    this.commit({ connections, active: connections.find((c) => c.id === this.snapshot.active?.id) ?? null, failures, observed });
  }

  /** Removes the connection and what is kept under its id apart from it (the image origins it allowed). */
  remove(id: string): void {
    const connections = this.snapshot.connections.filter((c) => c.id !== id);
    const active = this.snapshot.active?.id === id ? (connections[0] ?? null) : this.snapshot.active;
    this.commit({ connections, active });
    this.imageOrigins.forget(id);
  }

  /** Records whose key it is (verify-key answered for a connection stored without it), without activating it. */
  recordVerified(id: string, verified: NonNullable<Connection['verified']>): void {
    if (!this.snapshot.connections.some((c) => c.id === id)) return;
    const connections = this.snapshot.connections.map((c) => (c.id === id ? { ...c, verified } : c));
    this.commit({ connections, active: connections.find((c) => c.id === this.snapshot.active?.id) ?? null });
  }

  /** Records that the server refused this connection's key: its requests stop until it is replaced. */
  markRefused(id: string, failure: AuthFailure): void {
    if (this.snapshot.failures[id]?.code === failure.code) return;
    this.commit({ failures: { ...this.snapshot.failures, [id]: failure } });
  }

  /** The client of a connection: it asks this store whether the key was refused, and tells it what each request showed. */
  clientFor(connection: Connection): DdsClient {
    let client = this.clients.get(connection);
    if (!client) {
      const id = connection.id;
      client = createClient({
        baseUrl: connection.baseUrl,
        // Through a hub: no key or JWT (the hub holds the vendor's), the session cookie instead.
        apiKey: connection.hub ? undefined : connection.apiKey || undefined,
        jwt: connection.hub ? undefined : connection.jwt,
        credentials: connection.hub ? 'same-origin' : 'omit',
        member: connection.hub?.member.id,
        blockedReason: () => {
          const failure = this.failureOf(id);
          return failure ? `the service refused this connection's key (${failure.code})` : null;
        },
        observe: (outcome) => this.observe(id, outcome),
      });
      this.clients.set(connection, client);
    }
    return client;
  }

  /**
   * Where this connection's local data lives: its organization on its base URL. A connection
   * saved without a verified organization ("save without verifying") is verified once, and the
   * answer recorded.
   */
  localScope(connection: Connection): Promise<string> {
    const org = connection.verified?.org_id;
    if (org) return Promise.resolve(scopeOf(connection.baseUrl, org));
    let pending = this.verifying.get(connection.id);
    if (!pending) {
      pending = this.clientFor(connection)
        .verifyKey()
        .then((verified) => {
          this.recordVerified(connection.id, { org_id: verified.org_id, key_id: verified.key_id, key_name: verified.key_name });
          return scopeOf(connection.baseUrl, verified.org_id);
        })
        .finally(() => this.verifying.delete(connection.id));
      this.verifying.set(connection.id, pending);
    }
    return pending;
  }
}
