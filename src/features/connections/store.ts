import type { Connection } from './model';
import { loadConnections, saveConnections } from './storage';

export interface AuthFailure {
  code: string;
  message: string;
}

export interface ConnectionsSnapshot {
  connections: readonly Connection[];
  active: Connection | null;
  /** Connections whose key the server refused (401), by id. */
  failures: Readonly<Record<string, AuthFailure>>;
}

/**
 * The connections and which one is active, outside React so loaders, the client and
 * components share one source. Components read it with useSyncExternalStore.
 */
export class ConnectionStore {
  private snapshot: ConnectionsSnapshot;
  private readonly listeners = new Set<() => void>();

  constructor(initial = loadConnections()) {
    const active = initial.connections.find((c) => c.id === initial.activeId) ?? initial.connections[0] ?? null;
    this.snapshot = { connections: initial.connections, active, failures: {} };
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
    saveConnections([...this.snapshot.connections], this.snapshot.active?.id ?? null);
    for (const listener of this.listeners) listener();
  }

  /** Adds or replaces a connection and makes it active; a new key clears a past refusal. */
  save(connection: Connection): void {
    const exists = this.snapshot.connections.some((c) => c.id === connection.id);
    const connections = exists
      ? this.snapshot.connections.map((c) => (c.id === connection.id ? connection : c))
      : [...this.snapshot.connections, connection];
    const { [connection.id]: _cleared, ...failures } = this.snapshot.failures;
    this.commit({ connections, active: connection, failures });
  }

  activate(id: string): void {
    const active = this.snapshot.connections.find((c) => c.id === id);
    if (active) this.commit({ active });
  }

  /** Clears a connection's secrets; its name, URL and subscriptions stay for reconnecting. */
  disconnect(id: string): void {
    const connections = this.snapshot.connections.map((c) =>
      c.id === id ? { ...c, apiKey: '' as const, jwt: undefined } : c,
    );
    const { [id]: _cleared, ...failures } = this.snapshot.failures;
    this.commit({ connections, active: connections.find((c) => c.id === this.snapshot.active?.id) ?? null, failures });
  }

  remove(id: string): void {
    const connections = this.snapshot.connections.filter((c) => c.id !== id);
    const active = this.snapshot.active?.id === id ? (connections[0] ?? null) : this.snapshot.active;
    this.commit({ connections, active });
  }

  /** Records that the server refused this connection's key: its requests stop until it is replaced. */
  markRefused(id: string, failure: AuthFailure): void {
    if (this.snapshot.failures[id]?.code === failure.code) return;
    this.commit({ failures: { ...this.snapshot.failures, [id]: failure } });
  }
}
