import { describe, expect, it, vi } from 'vitest';
import { outboxEntry } from '../../test/outbox-entry';
import type { OutboxEntry } from './model';
import { splitRows, TabOwnership, type TabOwnershipDeps } from './tab-ownership';
import type { TabRegistry } from './tabs';

const NOW = Date.UTC(2026, 10, 21);
const entry = (id: string, owner: string | undefined, state: OutboxEntry['state'] = 'queued', extra: Partial<OutboxEntry> = {}): OutboxEntry =>
  outboxEntry({
    id,
    connectionId: 'c',
    kind: 'live',
    itemId: `item-${id}`,
    subscriptionId: 'sub',
    priceMicros: null,
    createdAt: NOW + (Number(id.replace(/\D/g, '')) || 0),
    state,
    attempts: 0,
    owner,
    ...extra,
  });
const ids = (entries: readonly OutboxEntry[]) => entries.map((e) => e.id);
const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('splitRows', () => {
  it('keeps this tab’s unfinished decisions and unwritten changes as memory holds them, records final rows, and shows other tabs’ apart', () => {
    const rows = [
      entry('e1', 'me', 'queued'),
      entry('e2', 'other', 'queued'),
      entry('e3', 'other', 'sent'),
      entry('e4', 'me', 'grace'),
      entry('e5', 'other', 'grace'),
    ];
    // e1 in memory is further on; e5 was undone here (memory has no e5) but the removal is not written yet.
    const memory = [entry('e1', 'me', 'sending'), entry('e6', 'me', 'grace')];
    const { entries, others } = splitRows(rows, memory, 'me', (id) => id === 'e5');
    expect(entries.map((e) => [e.id, e.state])).toEqual([
      ['e1', 'sending'],
      ['e3', 'sent'],
      ['e4', 'grace'],
      ['e6', 'grace'],
    ]);
    expect(ids(others)).toEqual(['e2']);
  });

  it('drops this tab’s final decisions from memory for the stored row, unless changed and unwritten', () => {
    const rows = [entry('e1', 'me', 'sent', { sentAt: 1 }), entry('e2', 'me', 'sent', { sentAt: 1 })];
    const memory = [entry('e1', 'me', 'sent'), entry('e2', 'me', 'discarded')];
    const { entries } = splitRows(rows, memory, 'me', (id) => id === 'e2');
    expect(entries.map((e) => [e.id, e.state, e.sentAt])).toEqual([
      ['e1', 'sent', 1],
      ['e2', 'discarded', undefined],
    ]);
  });
});

/** Tabs whose closing the test decides; the claim is the store's (atomic per call). */
function world(overrides: Partial<TabOwnershipDeps> = {}) {
  const gone = new Map<string | undefined, (() => void)[]>();
  const announced: ((scope: string) => void)[] = [];
  const tabs: TabRegistry = {
    id: 'me',
    whenGone: (owner, onGone) => void gone.set(owner, [...(gone.get(owner) ?? []), onGone]),
    announce: vi.fn(),
    onAnnounce: (listener) => void announced.push(listener),
  };
  const stored = [entry('e1', 'other', 'queued'), entry('e2', 'other', 'queued', { kind: 'simulated', priceMicros: 1 }), entry('e3', 'third', 'queued')];
  const claims: (string | undefined)[] = [];
  const taken: OutboxEntry[][] = [];
  const read = vi.fn(async () => {
    await flush();
  });
  const deps: TabOwnershipDeps = {
    tabs,
    store: {
      async claim(_scope, owner, take) {
        claims.push(owner);
        return stored.filter((e) => e.owner === owner).map(take);
      },
    },
    now: () => NOW,
    read,
    taken: (_scope, entries) => void taken.push([...entries]),
    fail: vi.fn(),
    ...overrides,
  };
  const ownership = new TabOwnership(deps);
  const close = (owner: string | undefined) => {
    for (const onGone of gone.get(owner) ?? []) onGone();
    gone.delete(owner);
  };
  return { ownership, deps, gone, close, claims, taken, read, announce: (scope: string) => announced.forEach((l) => l(scope)) };
}

describe('tab ownership', () => {
  it('watches each other tab once, and takes its decisions over once it is gone: free ones queued, charged ones to confirm', async () => {
    const w = world();
    w.ownership.watch('S', ['other', 'third']);
    w.ownership.watch('S', ['other']);
    expect([...w.gone.keys()]).toEqual(['other', 'third']);
    expect(w.gone.get('other')).toHaveLength(1);
    w.close('other');
    await flush();
    expect(w.claims).toEqual(['other']);
    expect(w.taken).toHaveLength(1);
    expect(w.taken[0]!.map((e) => [e.id, e.state, e.owner])).toEqual([
      ['e1', 'queued', 'me'],
      ['e2', 'needs-confirmation', 'me'],
    ]);
    // Gone, it is no longer watched: a later read watches it again.
    w.ownership.watch('S', ['other']);
    expect(w.gone.get('other')).toHaveLength(1);
  });

  it('a tab that cannot send leaves a gone tab’s decisions alone', async () => {
    const w = world({ canSend: () => false });
    w.ownership.watch('S', ['other']);
    w.close('other');
    await flush();
    expect(w.claims).toEqual([]);
    expect(w.taken).toEqual([]);
  });

  it('tells nobody when there was nothing to take, and reports a failed claim', async () => {
    const failing = world({
      store: {
        claim: async () => {
          throw new Error('storage');
        },
      },
    });
    failing.ownership.watch('S', ['other']);
    failing.close('other');
    await flush();
    expect(failing.deps.fail).toHaveBeenCalledTimes(1);
    const empty = world();
    empty.ownership.watch('S', ['nobody']);
    empty.close('nobody');
    await flush();
    expect(empty.taken).toEqual([]);
  });

  it('reads a scope again when another tab announces a change: a burst while a read runs costs one more read, not one each', async () => {
    const w = world();
    w.announce('S');
    w.announce('S');
    w.announce('S');
    const last = w.ownership.sync('S');
    expect(w.read).toHaveBeenCalledTimes(1);
    await last;
    expect(w.read).toHaveBeenCalledTimes(2);
    await w.ownership.sync('S');
    expect(w.read).toHaveBeenCalledTimes(3);
  });
});
