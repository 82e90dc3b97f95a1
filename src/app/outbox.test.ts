import { describe, expect, it } from 'vitest';
import { scopeOf, type Connection } from '../data';
import { ConnectionStore } from '../data/connection-store';
import type { OutboxEntry } from '../domain/outbox/model';
import type { DecisionStore } from '../domain/outbox/store';
import { createChangeFeed, type LocalChange } from '../domain/store/change-feed';
import { testConnection } from '../test/connection';
import { createOutbox } from './outbox';

const BASE = 'http://127.0.0.1:8787';
const verified = testConnection({ baseUrl: BASE });
const unverified: Connection = { ...verified, id: 'c2', verified: undefined };

/** Decisions kept in memory: what the composition wrote. */
function memoryStore(): DecisionStore & { rows: Map<string, OutboxEntry> } {
  const rows = new Map<string, OutboxEntry>();
  return {
    rows,
    read: async (scope) => [...rows.values()].filter((e) => e.scope === scope),
    write: async (puts, deletes) => {
      for (const id of deletes) rows.delete(id);
      for (const e of puts) rows.set(e.id, e);
    },
    claim: async () => [],
    settle: async () => [],
    markOpen: async () => undefined,
    closeWhereStanding: async () => undefined,
    clearErrors: async () => undefined,
  };
}

const decision = { kind: 'live', itemId: 'i1', subscriptionId: 's1', decision: 'adopt', priceMicros: null } as const;

describe('the outbox the app composes', () => {
  it('is a fresh one per call, records under the connection’s scope and tells the other tabs on the change feed', async () => {
    const connections = new ConnectionStore({ connections: [verified, unverified], activeId: 'c1' });
    const changes = createChangeFeed(null);
    const heard: LocalChange[] = [];
    changes.subscribe((change) => heard.push(change));
    const store = memoryStore();
    const { outbox } = createOutbox({ connections, changes, store, send: async () => undefined });
    const other = createOutbox({ connections, changes, store: memoryStore(), send: async () => undefined }).outbox;

    const entry = outbox.enqueue('c1', decision);
    expect(await outbox.whenWritten()).toBe(true);
    const scope = scopeOf(BASE, 'org_1');
    expect(entry.scope).toBe(scope);
    expect([...store.rows.values()].map((e) => e.scope)).toEqual([scope]);
    expect(heard).toContainEqual({ scope, table: 'decisions' });
    expect(outbox.getSnapshot().entries[scope]).toHaveLength(1);
    expect(other.getSnapshot().entries[scope]).toBeUndefined();
    expect(other.tab).not.toBe(outbox.tab);
  });

  it('refuses a decision on a connection whose organization is not known: no provisional scope', () => {
    const connections = new ConnectionStore({ connections: [verified, unverified], activeId: 'c2' });
    const store = memoryStore();
    const { outbox } = createOutbox({ connections, changes: createChangeFeed(null), store, send: async () => undefined });
    expect(() => outbox.enqueue('c2', decision)).toThrow(/not known yet/);
    expect(store.rows.size).toBe(0);
  });
});
