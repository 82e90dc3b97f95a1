import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NetworkError } from '../../api/errors';
import { OutboxEngine, type OutboxDeps } from './engine';
import type { UnwrittenJournal } from './engine-types';
import { FINAL_STATES, type NewDecision, type OutboxEntry } from './model';
import { stands } from './entry-changes';
import type { DecisionStore } from './store';
import type { TeamDecisionNews } from './team-decisions';
import type { TeamHold } from './team-holds';
import type { TabRegistry } from './tabs';

/** A shared store, as IndexedDB is shared by the tabs of one origin; writes may be made to fail. */
function memoryStore() {
  const rows = new Map<string, OutboxEntry>();
  const opened: [string, string, 0 | 1][] = [];
  /** Each write (one transaction): how many rows it put and removed. */
  const writes: { puts: number; deletes: number }[] = [];
  let failing: Error | null = null;
  const tick = () => new Promise<void>((resolve) => queueMicrotask(resolve));
  const store: DecisionStore = {
    async read(scope) {
      await tick();
      return [...rows.values()].filter((e) => e.scope === scope).sort((a, b) => a.createdAt - b.createdAt);
    },
    async write(puts, deletes) {
      await tick();
      if (failing) throw failing;
      writes.push({ puts: puts.length, deletes: deletes.length });
      for (const id of deletes) rows.delete(id);
      for (const e of puts) rows.set(e.id, e);
    },
    async claim(scope, gone, take) {
      await tick();
      const taken = [...rows.values()].filter((e) => e.scope === scope && e.owner === gone && !FINAL_STATES.has(e.state)).map(take);
      for (const e of taken) rows.set(e.id, e);
      return taken;
    },
    async settle(scope, change) {
      await tick();
      const changed = [...rows.values()]
        .filter((e) => e.scope === scope)
        .flatMap((e) => {
          const next = change(e);
          return next === e ? [] : [next];
        });
      for (const e of changed) rows.set(e.id, e);
      return changed;
    },
    async markOpen(scope, sub, itemIds, open) {
      // 'unless-decided': reopened only if no decision row on the item stands, as the real store does.
      const decided = (id: string) => [...rows.values()].some((e) => e.scope === scope && e.itemId === id && e.subscriptionId === sub && stands(e));
      for (const id of itemIds) if (open !== 'unless-decided' || !decided(id)) opened.push([sub, id, open === 'unless-decided' ? 1 : open]);
    },
    async closeWhereStanding(scope, entries) {
      // Written after a frame (a timer here), as the real store's flags are.
      await new Promise((resolve) => setTimeout(resolve, 0));
      for (const e of entries) {
        const row = rows.get(e.id);
        if (row && row.scope === scope && (row.state === e.state || stands(row))) opened.push([e.subscriptionId, e.itemId, 0]);
      }
    },
    async clearErrors(scope) {
      await tick();
      for (const [id, e] of rows) {
        if (e.scope !== scope) continue;
        const { lastError: _dropped, ...rest } = e;
        rows.set(id, rest);
      }
    },
  };
  return { store, rows, opened, writes, fail: (error: Error | null) => (failing = error) };
}

/** Tabs that open and close on command, as Web Locks report them, with a broadcast channel between them. */
function fakeTabs() {
  const open = new Set<string>();
  const waiting = new Map<string, (() => void)[]>();
  const channel = new Map<string, (scope: string) => void>();
  return {
    open(id: string): TabRegistry {
      open.add(id);
      return {
        id,
        whenGone(owner, onGone) {
          if (owner && open.has(owner)) waiting.set(owner, [...(waiting.get(owner) ?? []), onGone]);
          else queueMicrotask(onGone);
        },
        isOpen: async (owner) => !!owner && open.has(owner),
        announce: (scope) => {
          for (const [tab, listener] of channel) if (tab !== id && open.has(tab)) queueMicrotask(() => listener(scope));
        },
        onAnnounce: (listener) => void channel.set(id, listener),
      };
    },
    close(id: string) {
      open.delete(id);
      channel.delete(id);
      for (const onGone of waiting.get(id) ?? []) queueMicrotask(onGone);
      waiting.delete(id);
    },
  };
}

const live = (itemId: string, decision: 'adopt' | 'dispute' = 'adopt', subscriptionId = 'sub'): NewDecision => ({
  kind: 'live',
  itemId,
  subscriptionId,
  decision,
  priceMicros: null,
});
const charged = (itemId: string): NewDecision => ({ kind: 'simulated', itemId, subscriptionId: 'sim', decision: 'adopt', priceMicros: 12_500 });

let shared = memoryStore();
let tabs = fakeTabs();
let tabNo = 0;

function setup(overrides: Partial<OutboxDeps> = {}) {
  const sent: OutboxEntry[] = [];
  const send = vi.fn(async (entry: OutboxEntry) => {
    sent.push(entry);
  });
  const deps: OutboxDeps = {
    store: shared.store,
    send,
    onKeyRefused: vi.fn(),
    isOnline: () => true,
    graceMs: () => 3_000,
    random: () => 0.5,
    tabs: tabs.open(`tab${++tabNo}`),
    ...overrides,
  };
  return { engine: new OutboxEngine(deps), deps, sent };
}

/** The pagehide journal in memory (src/app/unwritten-journal.ts keeps it in localStorage): what it holds, and the journal. */
function memoryJournal() {
  const kept: OutboxEntry[] = [];
  const journal: UnwrittenJournal = {
    save: (entries) => void kept.push(...entries),
    read: (scope) => kept.filter((e) => e.scope === scope),
    drop: (_scope, ids) => void kept.splice(0, kept.length, ...kept.filter((e) => ids !== null && !ids.has(e.id))),
  };
  return { kept, journal };
}

/** A send whose first request gets no answer until `drop` (the browser dropping it as the page goes); later ones are answered. */
function firstRequestDropped() {
  let drop: (() => void) | undefined;
  let calls = 0;
  const send = vi.fn(() =>
    ++calls === 1 ? new Promise<void>((_, reject) => (drop = () => reject(new NetworkError('Could not reach the service', false)))) : Promise.resolve(),
  );
  return { send, drop: () => drop!() };
}

const S = 'http://dds org_1';
const stateOf = (engine: OutboxEngine, itemId: string) => engine.entriesOf(S).find((e) => e.itemId === itemId)?.state;
const storedStates = () => [...shared.rows.values()].map((e) => [e.itemId, e.state]);

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 10, 21), toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  shared = memoryStore();
  tabs = fakeTabs();
});
afterEach(() => vi.useRealTimers());

describe('outbox engine', () => {
  it('shows a decision at once, writes it, and sends it only after the undo window', async () => {
    const { engine, sent } = setup();
    engine.enqueue(S, live('1'));
    expect(stateOf(engine, '1')).toBe('grace');
    await vi.advanceTimersByTimeAsync(0);
    expect(storedStates()).toEqual([['1', 'grace']]);
    expect(shared.opened).toEqual([['sub', '1', 0]]);
    await vi.advanceTimersByTimeAsync(2_900);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(200);
    expect(sent).toHaveLength(1);
    // Kept as the record, confirmed: never sent again.
    expect(storedStates()).toEqual([['1', 'sent']]);
    engine.enqueue(S, live('1', 'dispute'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toHaveLength(1);
  });

  it('never sends a decision whose write failed, and says so until it is written', async () => {
    const { engine, sent } = setup({ graceMs: () => 0 });
    shared.fail(new Error('QuotaExceededError'));
    engine.enqueue(S, live('1'));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent).toHaveLength(0);
    expect(engine.getSnapshot().writeError).toMatch(/could not be saved.*QuotaExceeded/);
    shared.fail(null);
    engine.retryWrites();
    await vi.advanceTimersByTimeAsync(100);
    expect(sent.map((e) => e.itemId)).toEqual(['1']);
    expect(engine.getSnapshot().writeError).toBeNull();
  });

  it('undo inside the window cancels, removes the write and reopens the item', async () => {
    const { engine, sent } = setup();
    engine.enqueue(S, live('1'));
    engine.enqueue(S, live('2'));
    expect(engine.undoLast(S)?.itemId).toBe('2');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent.map((e) => e.itemId)).toEqual(['1']);
    expect(storedStates()).toEqual([['1', 'sent']]);
    expect(shared.opened).toContainEqual(['sub', '2', 1]);
    expect(engine.undoLast(S)).toBeNull();
  });

  it('reopens an undone or discarded decision’s item only once its row’s change is written, and not where a decision stands again by then', async () => {
    const send = vi.fn(async (entry: OutboxEntry) => {
      if (entry.subscriptionId === 'narrow') throw new ApiError(403, 'SUBSCRIPTION_NOT_IN_SCOPE', 'not in scope', '');
    });
    const { engine } = setup({ send });
    // Each reopen, with whether the item's decision row was still standing in the store when it was asked.
    const reopened: [string, boolean][] = [];
    const markOpen = shared.store.markOpen;
    shared.store.markOpen = async (scope, sub, itemIds, open) => {
      if (open !== 0) for (const id of itemIds) reopened.push([id, [...shared.rows.values()].some((e) => e.itemId === id && stands(e))]);
      return markOpen(scope, sub, itemIds, open);
    };
    engine.enqueue(S, live('undone'));
    engine.enqueue(S, live('again'));
    await engine.whenWritten();
    expect(engine.undo(S, engine.entriesOf(S).find((e) => e.itemId === 'undone')!.id)).toBe(true);
    // Undone, then decided again before the undo's delete is written: it stays closed.
    expect(engine.undo(S, engine.entriesOf(S).find((e) => e.itemId === 'again')!.id)).toBe(true);
    engine.enqueue(S, live('again', 'dispute'));
    await vi.advanceTimersByTimeAsync(0);
    expect(reopened).toEqual([['undone', false]]);
    // A discard (of a decision stuck behind a refused subscription) likewise waits for its row.
    engine.enqueue(S, live('dropped', 'adopt', 'narrow'));
    await vi.advanceTimersByTimeAsync(4_000);
    expect(stateOf(engine, 'dropped')).toBe('queued');
    engine.discard(S, [engine.entriesOf(S).find((e) => e.itemId === 'dropped')!.id]);
    await vi.advanceTimersByTimeAsync(0);
    expect(reopened).toEqual([
      ['undone', false],
      ['dropped', false],
    ]);
    expect(shared.opened.filter(([, id]) => id === 'again').at(-1)).toEqual(['sub', 'again', 0]);
  });

  it('an undo whose delete could not be written reopens its item only once “Save decisions again” wrote it', async () => {
    const { engine } = setup({ isOnline: () => false });
    engine.enqueue(S, live('x'));
    await engine.whenWritten();
    shared.fail(new Error('QuotaExceededError'));
    engine.enqueue(S, live('y'));
    await vi.advanceTimersByTimeAsync(0);
    expect(engine.getSnapshot().writeError).not.toBeNull();
    expect(engine.undo(S, engine.entriesOf(S).find((e) => e.itemId === 'x')!.id)).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    // Its row still stands in the store: another tab's load may close the item, so it is not reopened yet.
    expect(shared.rows.size).toBe(1);
    expect(shared.opened.filter(([, id, open]) => id === 'x' && open === 1)).toEqual([]);
    shared.fail(null);
    engine.retryWrites();
    await vi.advanceTimersByTimeAsync(0);
    expect([...shared.rows.values()].map((e) => e.itemId)).toEqual(['y']);
    expect(shared.opened.filter(([, id, open]) => id === 'x' && open === 1)).toEqual([['sub', 'x', 1]]);
  });

  it('a load closes another tab’s item only if that decision still stands when the flag is written (its tab may undo it meanwhile)', async () => {
    const a = setup({ isOnline: () => false });
    a.engine.enqueue(S, live('kept'));
    a.engine.enqueue(S, live('undone'));
    await a.engine.whenWritten();
    shared.opened.length = 0;
    // B reads both rows standing; A's undo is written before B's flag is.
    const b = setup({ isOnline: () => false });
    const loading = b.engine.load(S);
    await loading;
    expect(a.engine.undo(S, a.engine.entriesOf(S).find((e) => e.itemId === 'undone')!.id)).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(shared.opened.filter(([, , open]) => open === 0)).toEqual([['sub', 'kept', 0]]);
    expect(shared.opened.filter(([, , open]) => open === 1)).toEqual([['sub', 'undone', 1]]);
  });

  it('writes a change made while a write is in flight: an undo during the decision’s write does not come back after a reload', async () => {
    const { engine, sent } = setup();
    // The first write (the decision) waits until the test lets it go; the undo is made meanwhile.
    const write = shared.store.write;
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    let writes = 0;
    shared.store.write = async (puts, deletes) => {
      if (++writes === 1) await held;
      return write(puts, deletes);
    };
    engine.enqueue(S, live('1'));
    await vi.advanceTimersByTimeAsync(0);
    expect(writes).toBe(1);
    expect(engine.undoLast(S)?.itemId).toBe('1');
    letGo();
    expect(await engine.whenWritten()).toBe(true);
    // The flush cleared only the marks it wrote: the undo, made after the write began, is written too.
    expect(storedStates()).toEqual([]);
    tabs.close(`tab${tabNo}`);
    const reloaded = setup();
    await reloaded.engine.load(S);
    await vi.advanceTimersByTimeAsync(60_000);
    expect([...sent, ...reloaded.sent]).toEqual([]);
  });

  it('paints a decision before anything else: its write, its item’s flag and the pump wait for the paint', async () => {
    const painted: (() => void)[] = [];
    const { engine, sent } = setup({ afterPaint: (fn) => void painted.push(fn) });
    engine.enqueue(S, live('1'));
    expect(stateOf(engine, '1')).toBe('grace');
    await vi.advanceTimersByTimeAsync(100);
    expect(storedStates()).toEqual([]);
    expect(shared.opened).toEqual([]);
    for (const fn of painted.splice(0)) fn();
    await vi.advanceTimersByTimeAsync(0);
    expect(storedStates()).toEqual([['1', 'grace']]);
    expect(shared.opened).toEqual([['sub', '1', 0]]);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(sent.map((e) => e.itemId)).toEqual(['1']);
    expect(storedStates()).toEqual([['1', 'sent']]);
  });

  it('writes what waits for a paint at once when asked (whenWritten, a page left), and an undo before the paint reopens the item last', async () => {
    const painted: (() => void)[] = [];
    const { engine } = setup({ afterPaint: (fn) => void painted.push(fn) });
    engine.enqueue(S, live('1'));
    expect(await engine.whenWritten()).toBe(true);
    expect(storedStates()).toEqual([['1', 'grace']]);
    engine.enqueue(S, live('2'));
    engine.runDeferred();
    await vi.advanceTimersByTimeAsync(0);
    expect(storedStates()).toEqual([
      ['1', 'grace'],
      ['2', 'grace'],
    ]);
    engine.enqueue(S, live('3'));
    expect(engine.undoLast(S)?.itemId).toBe('3');
    for (const fn of painted.splice(0)) fn();
    await vi.advanceTimersByTimeAsync(0);
    expect(shared.opened.filter(([, id]) => id === '3')).toEqual([
      ['sub', '3', 0],
      ['sub', '3', 1],
    ]);
    expect(storedStates().map(([id]) => id)).toEqual(['1', '2']);
  });

  it('undoes decisions recorded together with one undo', async () => {
    const { engine, sent } = setup();
    engine.enqueue(S, live('single'));
    for (const id of ['b1', 'b2', 'b3']) engine.enqueue(S, live(id, 'dispute'), 'bulk');
    expect(engine.undoLatest(S).map((e) => e.itemId)).toEqual(['b1', 'b2', 'b3']);
    expect(engine.undoLatest(S).map((e) => e.itemId)).toEqual(['single']);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent).toEqual([]);
  });

  it('shows another tab’s decisions live, leaves them to it, and records them once it sent them', async () => {
    const a = setup();
    const b = setup();
    await b.engine.load(S);
    a.engine.enqueue(S, live('x'));
    const y = a.engine.enqueue(S, live('y'));
    await vi.advanceTimersByTimeAsync(0);
    expect(b.engine.othersOf(S).map((e) => [e.itemId, e.state])).toEqual([
      ['x', 'grace'],
      ['y', 'grace'],
    ]);
    a.engine.undo(S, y.id);
    await vi.advanceTimersByTimeAsync(0);
    expect(b.engine.othersOf(S).map((e) => e.itemId)).toEqual(['x']);
    // B may not decide an item A decided.
    expect(b.engine.enqueue(S, live('x', 'dispute')).owner).toBe(a.deps.tabs.id);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(a.sent.map((e) => e.itemId)).toEqual(['x']);
    expect(b.sent).toHaveLength(0);
    expect(b.engine.entriesOf(S).map((e) => [e.itemId, e.state])).toEqual([['x', 'sent']]);
    expect(b.engine.othersOf(S)).toEqual([]);
  });

  it('takes over a closed tab’s decisions within the window it learns of them, exactly once across tabs', async () => {
    const a = setup({ graceMs: () => 30_000 });
    const b = setup();
    const c = setup();
    await Promise.all([b.engine.load(S), c.engine.load(S)]);
    a.engine.enqueue(S, live('undone'));
    a.engine.enqueue(S, live('free'));
    a.engine.enqueue(S, charged('paid'));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(b.sent).toHaveLength(0);
    a.engine.undo(S, a.engine.entriesOf(S).find((e) => e.itemId === 'undone')!.id);
    await vi.advanceTimersByTimeAsync(0);
    tabs.close(a.deps.tabs.id);
    await vi.advanceTimersByTimeAsync(1_000);
    const all = [...b.sent, ...c.sent].map((e) => e.itemId);
    expect(all).toEqual(['free']);
    const owner = b.engine.entriesOf(S).some((e) => e.itemId === 'paid') ? b : c;
    expect(stateOf(owner.engine, 'paid')).toBe('needs-confirmation');
    owner.engine.confirm(
      S,
      owner.engine
        .entriesOf(S)
        .filter((e) => e.state === 'needs-confirmation')
        .map((e) => e.id),
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect([...b.sent, ...c.sent].map((e) => e.itemId).sort()).toEqual(['free', 'paid']);
  });

  it('a tab that takes over a closed tab’s decisions closes their items (that tab may have gone before its flags were written)', async () => {
    const b = setup({ isOnline: () => false });
    await b.engine.load(S);
    // Written by a tab that then closed before its items' flags were written (they are written after the paint).
    const gone = tabs.open('gone');
    const row = (itemId: string, state: OutboxEntry['state']): OutboxEntry => ({
      ...live(itemId),
      id: `e-${itemId}`,
      scope: S,
      connectionId: '',
      owner: 'gone',
      createdAt: Date.now(),
      sendAfter: Date.now(),
      state,
      attempts: 0,
      nextAttemptAt: Date.now(),
    });
    for (const e of [row('decided', 'queued'), row('discarded', 'discarded')]) shared.rows.set(e.id, e);
    gone.announce(S);
    await vi.advanceTimersByTimeAsync(0);
    expect(b.engine.othersOf(S).map((e) => e.itemId)).toEqual(['decided']);
    expect(shared.opened).toEqual([]);
    tabs.close('gone');
    await vi.advanceTimersByTimeAsync(0);
    expect(stateOf(b.engine, 'decided')).toBe('queued');
    expect(shared.opened).toEqual([['sub', 'decided', 0]]);
  });

  it('writes a decision’s in-flight mark before its request leaves, and a tab that takes it over sends it only once the mark has passed', async () => {
    const answers: (() => void)[] = [];
    const stored: (number | undefined)[] = [];
    const send = vi.fn((entry: OutboxEntry) => {
      stored.push(shared.rows.get(entry.id)?.inFlightUntil);
      return new Promise<void>((resolve) => answers.push(resolve));
    });
    const a = setup({ graceMs: () => 0, send });
    a.engine.enqueue(S, live('wire'));
    await vi.advanceTimersByTimeAsync(10);
    expect(send).toHaveBeenCalledTimes(1);
    // The stored row said "on the wire until" before the request left.
    expect(stored[0]).toBeGreaterThan(Date.now());
    // The page goes (a navigation) with the request on the wire: its answer is lost.
    tabs.close(a.deps.tabs.id);
    const b = setup({ graceMs: () => 0 });
    await b.engine.load(S);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(stateOf(b.engine, 'wire')).toBe('sending');
    expect(b.sent).toHaveLength(0);
    // Once the mark has passed, the answer is taken as lost: sent again, once.
    await vi.advanceTimersByTimeAsync(40_000);
    expect(b.sent.map((e) => e.itemId)).toEqual(['wire']);
    expect(stateOf(b.engine, 'wire')).toBe('sent');
  });

  it('a charged decision whose answer was lost is told to listeners as waiting for confirmation once its mark passes', async () => {
    const a = setup({ graceMs: () => 0, send: () => new Promise<never>(() => undefined) });
    a.engine.enqueue(S, charged('wire'));
    await vi.advanceTimersByTimeAsync(10);
    tabs.close(a.deps.tabs.id);
    // The frame a notice waits for is a timer here: listeners hear of changes once per frame.
    const b = setup({ nextFrame: (fn) => void setTimeout(fn, 16) });
    await b.engine.load(S);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(stateOf(b.engine, 'wire')).toBe('sending');
    const seen: (string | undefined)[] = [];
    b.engine.subscribe(() => seen.push(b.engine.getSnapshot().entries[S]?.find((e) => e.itemId === 'wire')?.state));
    await vi.advanceTimersByTimeAsync(45_000);
    expect(seen.at(-1)).toBe('needs-confirmation');
  });

  it('a tab that cannot send leaves a closed tab’s decisions to one that can, and takes them once it can', async () => {
    const a = setup({ graceMs: () => 30_000 });
    let connected = false;
    const b = setup({ canSend: () => connected });
    await b.engine.load(S);
    a.engine.enqueue(S, live('1'));
    await vi.advanceTimersByTimeAsync(0);
    tabs.close(a.deps.tabs.id);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(b.engine.entriesOf(S)).toEqual([]);
    expect(b.engine.othersOf(S).map((e) => e.itemId)).toEqual(['1']);
    connected = true;
    b.engine.resume(S);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(b.sent.map((e) => e.itemId)).toEqual(['1']);
  });

  it('forgets a scope whose local data was deleted', async () => {
    const { engine } = setup({ isOnline: () => false });
    engine.enqueue(S, live('1'));
    await vi.advanceTimersByTimeAsync(0);
    expect(engine.getSnapshot().loaded[S]).toBe(true);
    engine.forget(S);
    expect(engine.entriesOf(S)).toEqual([]);
    expect(engine.getSnapshot().loaded[S]).toBeUndefined();
  });

  it('a duplicated tab (new id, same store) never sends an undone or confirmed decision', async () => {
    const a = setup({ graceMs: () => 5_000 });
    a.engine.enqueue(S, live('kept'));
    const undone = a.engine.enqueue(S, live('undone'));
    await vi.advanceTimersByTimeAsync(0);
    const dup = setup();
    await dup.engine.load(S);
    a.engine.undo(S, undone.id);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(a.sent.map((e) => e.itemId)).toEqual(['kept']);
    expect(dup.sent).toEqual([]);
    tabs.close(a.deps.tabs.id);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(dup.sent).toEqual([]);
    expect(dup.engine.entriesOf(S).map((e) => [e.itemId, e.state])).toEqual([['kept', 'sent']]);
  });

  it('resumes a reloaded tab’s decisions: free ones sent, charged ones wait for confirmation, old ones expire', async () => {
    const first = setup({ isOnline: () => false });
    first.engine.enqueue(S, live('free'));
    first.engine.enqueue(S, charged('paid'));
    await vi.advanceTimersByTimeAsync(5_000);
    tabs.close(first.deps.tabs.id);
    const second = setup();
    // Until the store is read, the new page knows nothing of them: it may not say they are saved.
    const loading = second.engine.load(S);
    expect(second.engine.getSnapshot().loaded[S]).toBeUndefined();
    await loading;
    // Read once the page before's decisions are taken over (at once here: its tab is gone).
    await vi.advanceTimersByTimeAsync(0);
    expect(second.engine.getSnapshot().loaded[S]).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    expect(second.sent.map((e) => e.itemId)).toEqual(['free']);
    expect(stateOf(second.engine, 'paid')).toBe('needs-confirmation');
    tabs.close(second.deps.tabs.id);
    vi.setSystemTime(Date.now() + 25 * 60 * 60 * 1000);
    const third = setup();
    await third.engine.load(S);
    await vi.advanceTimersByTimeAsync(100);
    expect(stateOf(third.engine, 'paid')).toBe('expired');
  });

  it('after a reload, the page before’s decisions are never shown as another tab’s once the store is read', async () => {
    const first = setup({ isOnline: () => false });
    first.engine.enqueue(S, live('a'));
    first.engine.enqueue(S, live('b'));
    await vi.advanceTimersByTimeAsync(5_000);
    tabs.close(first.deps.tabs.id);
    // Taking them over takes a while (a lock, then a transaction): frames are painted meanwhile.
    const slowClaim: typeof shared.store.claim = async (...args) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return shared.store.claim(...args);
    };
    const second = setup({ isOnline: () => false, store: { ...shared.store, claim: slowClaim } });
    // Every snapshot the page shows: read yet, and how many decisions it calls another tab's.
    const seen: [boolean, number][] = [];
    second.engine.subscribe(() => {
      const snapshot = second.engine.getSnapshot();
      seen.push([snapshot.loaded[S] === true, snapshot.others[S]?.length ?? 0]);
    });
    const loading = second.engine.load(S);
    await vi.advanceTimersByTimeAsync(1_000);
    await loading;
    expect(seen.length).toBeGreaterThan(1);
    expect(second.engine.getSnapshot().loaded[S]).toBe(true);
    expect(second.engine.entriesOf(S).map((e) => e.itemId)).toEqual(['a', 'b']);
    expect(seen.filter(([read, others]) => read && others > 0)).toEqual([]);
    // A tab still open keeps its decisions, shown as its own, and the read does not wait for it to close.
    const third = setup({ isOnline: () => false });
    await third.engine.load(S);
    expect(third.engine.getSnapshot().loaded[S]).toBe(true);
    expect(third.engine.othersOf(S).map((e) => e.itemId)).toEqual(['a', 'b']);
  });

  it('after a reload whose connection is not verified yet, the page before’s decisions wait to be this page’s, never another tab’s', async () => {
    const first = setup({ isOnline: () => false });
    first.engine.enqueue(S, live('a'));
    await vi.advanceTimersByTimeAsync(5_000);
    tabs.close(first.deps.tabs.id);
    let connected = false;
    const second = setup({ canSend: () => connected, tabs: { ...tabs.open(`tab${++tabNo}`), pageBefore: first.deps.tabs.id } });
    await second.engine.load(S);
    await vi.advanceTimersByTimeAsync(1_000);
    // Not taken over yet (no connection to send with): the header keeps saying it has not read them.
    expect(second.engine.getSnapshot().loaded[S]).toBeUndefined();
    expect(second.sent).toEqual([]);
    connected = true;
    second.engine.resume(S);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(second.engine.getSnapshot().loaded[S]).toBe(true);
    expect(second.engine.othersOf(S)).toEqual([]);
    expect(second.sent.map((e) => e.itemId)).toEqual(['a']);
  });

  it('a page left before its write committed: the journal keeps the decision, the next load writes it once, and it is sent once', async () => {
    const { kept, journal } = memoryJournal();
    // The first page's write never commits (the page ends first); its paint never comes either.
    const never = { ...shared.store, write: () => new Promise<void>(() => undefined) };
    const first = setup({ store: never, journal, afterPaint: () => undefined });
    first.engine.enqueue(S, charged('c1'));
    first.engine.leave();
    expect(kept.map((e) => e.itemId)).toEqual(['c1']);
    expect(shared.rows.size).toBe(0);
    tabs.close(first.deps.tabs.id);

    const second = setup({ journal, graceMs: () => 0 });
    await second.engine.load(S);
    expect([...shared.rows.values()].map((e) => [e.itemId, e.owner === second.deps.tabs.id])).toEqual([['c1', true]]);
    expect(kept).toEqual([]);
    // A charged adopt from an earlier page waits for the user's confirmation, as one written in time does.
    expect(stateOf(second.engine, 'c1')).toBe('needs-confirmation');
    second.engine.confirm(S, [second.engine.entriesOf(S)[0]!.id]);
    await vi.advanceTimersByTimeAsync(1_000);
    const third = setup({ journal });
    await third.engine.load(S);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(second.sent.map((e) => e.itemId)).toEqual(['c1']);
    expect(third.sent).toEqual([]);
    expect(shared.rows.size).toBe(1);
  });

  it('a page left mid-run: the next load keeps the answers it had not written yet, and does not take marks taken ahead for requests on the wire', async () => {
    const { kept, journal } = memoryJournal();
    // The page ends right after it is left: nothing it writes from then on commits.
    let ended = false;
    const store = {
      ...shared.store,
      write: (...args: Parameters<typeof shared.store.write>) => (ended ? new Promise<void>(() => undefined) : shared.store.write(...args)),
    };
    let answered = 0;
    const send = vi.fn(() => (++answered <= 3 ? Promise.resolve() : new Promise<never>(() => undefined)));
    const first = setup({ store, journal, send, graceMs: () => 0, concurrency: 2 });
    for (const id of ['c1', 'c2', 'c3', 'c4', 'c5', 'c6']) first.engine.enqueue(S, charged(id));
    // Three answers are in, two requests on the wire, one queued; the answers' write waits for its batch.
    await vi.advanceTimersByTimeAsync(20);
    expect(send).toHaveBeenCalledTimes(5);
    expect(['c1', 'c2', 'c3'].map((id) => stateOf(first.engine, id))).toEqual(['sent', 'sent', 'sent']);
    ended = true;
    first.engine.leave();
    tabs.close(first.deps.tabs.id);

    const second = setup({ journal });
    await second.engine.load(S);
    await vi.advanceTimersByTimeAsync(100);
    // Answered: kept as sent, never sent again nor offered for payment again.
    expect(['c1', 'c2', 'c3'].map((id) => stateOf(second.engine, id))).toEqual(['sent', 'sent', 'sent']);
    // On the wire when the page went: their answer may yet have landed, so they wait out their mark.
    expect(['c4', 'c5'].map((id) => stateOf(second.engine, id))).toEqual(['sending', 'sending']);
    // Never sent: it waits for the user's confirmation at once, as any charged adopt of an earlier page.
    expect(stateOf(second.engine, 'c6')).toBe('needs-confirmation');
    expect(second.sent).toEqual([]);
    expect(kept).toEqual([]);
  });

  it('a request the browser drops as the page is left (before or after pagehide) is never taken as failed: the next page waits out its mark', async () => {
    for (const order of ['dropped, then pagehide', 'pagehide, then dropped'] as const) {
      shared = memoryStore();
      tabs = fakeTabs();
      const { kept, journal } = memoryJournal();
      const { send, drop } = firstRequestDropped();
      // The page ends once it is left: nothing it writes from then on commits.
      let ended = false;
      const store = {
        ...shared.store,
        write: (...args: Parameters<typeof shared.store.write>) => (ended ? new Promise<void>(() => undefined) : shared.store.write(...args)),
      };
      const first = setup({ store, journal, send, graceMs: () => 0, concurrency: 1 });
      first.engine.enqueue(S, live('wire'));
      first.engine.enqueue(S, live('never-sent'));
      await vi.advanceTimersByTimeAsync(10);
      expect(send).toHaveBeenCalledTimes(1);
      if (order === 'dropped, then pagehide') {
        // Chromium: the page's requests are aborted, their rejections handled, then pagehide, all in one task.
        drop();
        for (let i = 0; i < 10; i++) await Promise.resolve();
        first.engine.leave();
      } else {
        first.engine.leave();
        drop();
      }
      ended = true;
      await vi.advanceTimersByTimeAsync(0);
      tabs.close(first.deps.tabs.id);
      // Nothing more left the page, and it journaled the request on the wire as nothing.
      expect(send, order).toHaveBeenCalledTimes(1);
      expect(
        kept.map((e) => e.itemId),
        order,
      ).toEqual(['never-sent']);

      const second = setup({ journal, graceMs: () => 0 });
      await second.engine.load(S);
      await vi.advanceTimersByTimeAsync(1_000);
      // It may have reached the service: sent again only once its mark has passed. The one never sent goes at once.
      expect(stateOf(second.engine, 'wire'), order).toBe('sending');
      expect(
        second.sent.map((e) => e.itemId),
        order,
      ).toEqual(['never-sent']);
      await vi.advanceTimersByTimeAsync(40_000);
      expect(
        second.sent.map((e) => e.itemId),
        order,
      ).toEqual(['never-sent', 'wire']);
    }
  });

  it('a request dropped just before pagehide, its failure weighed only once the page is back from the back/forward cache, still waits out its mark', async () => {
    const { send, drop } = firstRequestDropped();
    const page = setup({ send, graceMs: () => 0, concurrency: 1 });
    page.engine.enqueue(S, live('wire'));
    await vi.advanceTimersByTimeAsync(10);
    // Dropped, pagehide in the same task; the page is frozen before the failure's task runs, and shown again.
    drop();
    for (let i = 0; i < 10; i++) await Promise.resolve();
    page.engine.leave();
    page.engine.returned();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(stateOf(page.engine, 'wire')).toBe('sending');
    expect(send).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(40_000);
    expect(stateOf(page.engine, 'wire')).toBe('sent');
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('a page back from the back/forward cache sends again; a request dropped as it was left waits out its mark', async () => {
    const { send, drop } = firstRequestDropped();
    const page = setup({ send, graceMs: () => 0, concurrency: 1 });
    page.engine.enqueue(S, live('wire'));
    page.engine.enqueue(S, live('queued'));
    await vi.advanceTimersByTimeAsync(10);
    page.engine.leave();
    drop();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(send).toHaveBeenCalledTimes(1);
    page.engine.returned();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(stateOf(page.engine, 'queued')).toBe('sent');
    expect(stateOf(page.engine, 'wire')).toBe('sending');
    await vi.advanceTimersByTimeAsync(40_000);
    expect(stateOf(page.engine, 'wire')).toBe('sent');
    expect(send).toHaveBeenCalledTimes(3);
  });

  it('pauses only the refused subscription on a 403, and lets the user discard its decisions', async () => {
    const send = vi.fn(async (entry: OutboxEntry) => {
      if (entry.subscriptionId === 'narrow') throw new ApiError(403, 'SUBSCRIPTION_NOT_IN_SCOPE', 'not in scope', '');
    });
    const { engine, deps } = setup({ send, graceMs: () => 0 });
    engine.enqueue(S, live('a', 'adopt', 'narrow'));
    engine.enqueue(S, live('b', 'adopt', 'narrow'));
    engine.enqueue(S, live('c', 'adopt', 'wide'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(engine.getSnapshot().pausedSubscriptions[S]).toEqual({ narrow: 'not in scope' });
    expect(engine.isPaused(S)).toBeNull();
    expect(deps.onKeyRefused).not.toHaveBeenCalled();
    expect(stateOf(engine, 'c')).toBe('sent');
    expect(stateOf(engine, 'a')).toBe('queued');
    const calls = send.mock.calls.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(send.mock.calls.length).toBe(calls);
    engine.discard(
      S,
      engine
        .entriesOf(S)
        .filter((e) => e.subscriptionId === 'narrow')
        .map((e) => e.id),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(storedStates()).toEqual([
      ['a', 'discarded'],
      ['b', 'discarded'],
      ['c', 'sent'],
    ]);
    expect(shared.opened).toContainEqual(['narrow', 'a', 1]);
    engine.resume(S);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(send.mock.calls.length).toBe(calls);
  });

  it('pauses the scope on a 401, loses nothing, and sends after resume', async () => {
    let refused = true;
    const send = vi.fn(async () => {
      if (refused) throw new ApiError(401, 'KEY_REVOKED', 'revoked', '');
    });
    const { engine, deps } = setup({ send, graceMs: () => 0 });
    engine.enqueue(S, live('1'));
    engine.enqueue(S, live('2', 'adopt', 'other'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(deps.onKeyRefused).toHaveBeenCalled();
    expect(engine.isPaused(S)).toBe('revoked');
    const calls = send.mock.calls.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(send.mock.calls.length).toBe(calls);
    refused = false;
    engine.resume(S);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(engine.entriesOf(S).map((e) => e.state)).toEqual(['sent', 'sent']);
  });

  it('retries network errors, 5xx and 429, then saves exactly once', async () => {
    let calls = 0;
    const send = vi.fn(async () => {
      calls++;
      if (calls === 1) throw new NetworkError('offline', false);
      if (calls === 2) throw new ApiError(500, 'INTERNAL_ERROR', 'boom', '');
      if (calls === 3) throw new ApiError(429, null, 'slow down', '');
    });
    const { engine } = setup({ send, graceMs: () => 0, retryBaseMs: 100 });
    engine.enqueue(S, live('1'));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls).toBe(4);
    expect(stateOf(engine, '1')).toBe('sent');
  });

  it('gives up at the 8th failure, and retries on request', async () => {
    let fail = true;
    const send = vi.fn(async () => {
      if (fail) throw new ApiError(503, null, 'down', '');
    });
    const { engine } = setup({ send, graceMs: () => 0, retryBaseMs: 10 });
    engine.enqueue(S, live('1'));
    await vi.advanceTimersByTimeAsync(120_000);
    expect(send).toHaveBeenCalledTimes(8);
    expect(stateOf(engine, '1')).toBe('failed');
    fail = false;
    engine.retry(S, engine.entriesOf(S)[0]!.id);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(stateOf(engine, '1')).toBe('sent');
  });

  it('stops at a 409 with the service’s recorded decision', async () => {
    const send = vi.fn(async () => {
      throw new ApiError(409, 'FEEDBACK_CONFLICT', 'already adopt', '', 'adopt');
    });
    const { engine } = setup({ send, graceMs: () => 0 });
    engine.enqueue(S, live('1', 'dispute'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(send).toHaveBeenCalledTimes(1);
    expect(engine.entriesOf(S)[0]).toMatchObject({ state: 'conflict', recorded: 'adopt' });
  });

  it('keeps a team hub’s 409 ITEM_LEASED as a conflict saying who holds the item, sent again on Retry once it is free', async () => {
    let leased = true;
    const send = vi.fn(async () => {
      if (leased) throw new ApiError(409, 'ITEM_LEASED', 'item 1 is leased to bob@team', '', 'leased to bob@team now');
    });
    const { engine } = setup({ send, graceMs: () => 0 });
    engine.enqueue(S, live('1'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(send).toHaveBeenCalledTimes(1);
    expect(engine.entriesOf(S)[0]).toMatchObject({ state: 'conflict', recorded: 'leased to bob@team now', decision: 'adopt' });
    leased = false;
    engine.retry(S, engine.entriesOf(S)[0]!.id);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(send).toHaveBeenCalledTimes(2);
    expect(engine.entriesOf(S)[0]).toMatchObject({ state: 'sent' });
  });

  it('does not spin while decisions wait: offline, or with every slot busy', async () => {
    let online = false;
    const isOnline = vi.fn(() => online);
    const answers: (() => void)[] = [];
    const send = vi.fn((_entry: OutboxEntry) => new Promise<void>((resolve) => answers.push(resolve)));
    const { engine } = setup({ send, graceMs: () => 0, concurrency: 1, isOnline });
    engine.enqueue(S, live('1'));
    engine.enqueue(S, live('2'));
    await vi.advanceTimersByTimeAsync(0);
    isOnline.mockClear();
    await vi.advanceTimersByTimeAsync(5_000);
    // A timer that kept re-checking would have asked ~1,250 times in 5 s (every 4 ms).
    expect(isOnline.mock.calls.length).toBeLessThanOrEqual(2);
    online = true;
    engine.pump();
    await vi.advanceTimersByTimeAsync(0);
    expect(send).toHaveBeenCalledTimes(1);
    isOnline.mockClear();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(isOnline.mock.calls.length).toBeLessThanOrEqual(2);
    answers.shift()!();
    await vi.advanceTimersByTimeAsync(0);
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('sends with bounded concurrency, and waits while offline', async () => {
    // Each send stays in flight until the test answers it, so the number in flight is read, not raced.
    const answers: (() => void)[] = [];
    let online = false;
    const send = vi.fn((_entry: OutboxEntry) => new Promise<void>((resolve) => answers.push(resolve)));
    const { engine } = setup({ send, graceMs: () => 0, concurrency: 3, isOnline: () => online });
    for (let i = 0; i < 12; i++) engine.enqueue(S, live(String(i)));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(send).not.toHaveBeenCalled();
    expect(engine.entriesOf(S).every((e) => e.state === 'queued')).toBe(true);
    online = true;
    engine.pump();
    await vi.advanceTimersByTimeAsync(0);
    // However long the answers take, no fourth send starts while three are in flight.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(send).toHaveBeenCalledTimes(3);
    expect(send.mock.calls.map(([e]) => e.itemId)).toEqual(['0', '1', '2']);
    // Each answer frees one slot for the next, oldest first.
    answers.shift()!();
    await vi.advanceTimersByTimeAsync(0);
    expect(send).toHaveBeenCalledTimes(4);
    expect(send.mock.calls[3]![0].itemId).toBe('3');
    while (answers.length) {
      answers.shift()!();
      await vi.advanceTimersByTimeAsync(0);
    }
    expect(send).toHaveBeenCalledTimes(12);
    expect(engine.entriesOf(S).map((e) => e.state)).toEqual(Array(12).fill('sent'));
  });

  it('sends everything at once when asked, and discards all but what is in flight on removal', async () => {
    const { engine, sent } = setup({ graceMs: () => 60_000 });
    engine.enqueue(S, live('free'));
    engine.sendNow(S);
    await vi.advanceTimersByTimeAsync(100);
    expect(sent.map((e) => e.itemId)).toEqual(['free']);
    engine.enqueue(S, charged('paid'));
    engine.discardAll(S);
    await vi.advanceTimersByTimeAsync(100_000);
    expect(sent).toHaveLength(1);
    expect(storedStates()).toEqual([
      ['free', 'sent'],
      ['paid', 'discarded'],
    ]);
  });

  it('stores and shows a failure’s words redacted, and forgets them all on request (Disconnect)', async () => {
    const key = `dds_live_sk_${'k'.repeat(32)}`;
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvcmcifQ.c2lnbmF0dXJl';
    const send = vi.fn(async (entry: OutboxEntry) => {
      if (entry.itemId === 'conflict') throw new ApiError(409, 'FEEDBACK_CONFLICT', `item ${key} is already adopted`, '', 'adopt');
      // Not the client's own error (those redact themselves): the engine redacts whatever it keeps.
      throw new Error(`proxy refused Bearer ${key} with token ${jwt}`);
    });
    let online = true;
    const a = setup({ send, graceMs: () => 0, isOnline: () => online });
    a.engine.enqueue(S, live('conflict', 'dispute'));
    a.engine.enqueue(S, live('retried'));
    await vi.advanceTimersByTimeAsync(1_000);
    online = false;
    const texts = [...a.engine.entriesOf(S), ...shared.rows.values()].map((e) => e.lastError ?? '');
    expect(texts.filter(Boolean)).toHaveLength(4);
    for (const text of texts) {
      expect(text).not.toContain(key.slice(12));
      expect(text).not.toContain('eyJzdWIiOiJvcmcifQ');
    }
    expect(a.engine.entriesOf(S).find((e) => e.itemId === 'conflict')?.lastError).toBe('item [redacted key] is already adopted');
    expect(a.engine.entriesOf(S).find((e) => e.itemId === 'retried')?.lastError).toBe('proxy refused Bearer [redacted key] with token [redacted token]');

    // A row of this scope in another tab's hands, with a text, and one of another scope.
    shared.rows.set('foreign', { ...shared.rows.values().next().value!, id: 'foreign', itemId: 'foreign', owner: 'gone-tab', lastError: 'old words' });
    shared.rows.set('kept', { ...shared.rows.values().next().value!, id: 'kept', scope: 'other scope', lastError: 'not this scope' });
    await a.engine.clearErrors(S);
    expect(a.engine.entriesOf(S).map((e) => e.lastError)).toEqual([undefined, undefined]);
    const inScope = () => [...shared.rows.values()].filter((e) => e.scope === S);
    expect(inScope().map((e) => [e.itemId, 'lastError' in e])).toEqual([
      ['conflict', false],
      ['retried', false],
      ['foreign', false],
    ]);
    expect(shared.rows.get('kept')?.lastError).toBe('not this scope');
    // The decisions stay, and later writes of them do not bring a text back.
    a.engine.sendNow(S);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(inScope().map((e) => [e.itemId, e.state, e.lastError])).toEqual([
      ['conflict', 'conflict', undefined],
      ['retried', 'queued', undefined],
      ['foreign', 'conflict', undefined],
    ]);
  });
});

describe('outbox engine: bulk runs', () => {
  const many = (n: number, decision: 'adopt' | 'dispute' = 'adopt') => Array.from({ length: n }, (_, i) => live(`q${i}`, decision));
  /** Lets the engine's microtask chains (writes, answers) run, with the clock moved on by `ms` in steps. */
  const settle = async (ms = 0, until = () => false) => {
    for (let i = 0; i < 2_000 && !until(); i++) await vi.advanceTimersByTimeAsync(ms);
  };

  it('records a bulk decision in one write, skips what stands on an item and says why, and sends none before the write', async () => {
    const other = setup();
    other.engine.enqueue(S, live('theirs'));
    await vi.advanceTimersByTimeAsync(0);
    const { engine, sent } = setup({ graceMs: () => 60_000, isOnline: () => false });
    await engine.load(S);
    engine.enqueue(S, live('on-its-way'));
    engine.sendNow(S);
    const undoable = engine.enqueue(S, live('in-window', 'dispute'));
    await vi.advanceTimersByTimeAsync(0);
    shared.writes.length = 0;

    const { recorded, skipped } = engine.enqueueMany(
      S,
      [live('theirs'), live('on-its-way'), live('in-window'), live('fresh'), live('fresh'), ...many(3)],
      'run-1',
      'c1',
    );
    expect(recorded.map((e) => e.itemId)).toEqual(['in-window', 'fresh', 'q0', 'q1', 'q2']);
    expect(recorded.every((e) => e.group === 'run-1' && e.connectionId === 'c1' && e.state === 'grace')).toBe(true);
    expect(skipped.map(({ decision, standing }) => [decision.itemId, standing.state, standing.owner === other.deps.tabs.id])).toEqual([
      ['theirs', 'grace', true],
      ['on-its-way', 'queued', false],
      ['fresh', 'grace', false],
    ]);
    // The decision in its undo window was replaced by the bulk one.
    expect(engine.entriesOf(S).some((e) => e.id === undoable.id)).toBe(false);
    expect(sent).toEqual([]);
    expect(await engine.whenWritten()).toBe(true);
    expect(shared.writes).toEqual([{ puts: 5, deletes: 1 }]);
    expect(shared.opened.filter(([, , open]) => open === 0).map(([, id]) => id)).toEqual(expect.arrayContaining(['fresh', 'q0', 'q1', 'q2']));
  });

  it('undoes a whole bulk run with one undo inside its window, and reopens its items', async () => {
    const { engine, sent } = setup();
    engine.enqueue(S, live('before'));
    engine.enqueueMany(S, many(500), 'run');
    expect(engine.undoLatest(S)).toHaveLength(500);
    await settle(1_000, () => sent.length > 0);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(sent.map((e) => e.itemId)).toEqual(['before']);
    expect(shared.opened.filter(([, , open]) => open === 1)).toHaveLength(500);
    // And by its group, whatever was decided after it.
    engine.enqueueMany(S, many(3), 'run-2');
    engine.enqueue(S, live('after'));
    expect(engine.undoGroup(S, 'run-2').map((e) => e.itemId)).toEqual(['q0', 'q1', 'q2']);
    expect(engine.entriesOf(S).find((e) => e.itemId === 'after')?.state).toBe('grace');
  });

  it('pauses a run (its queued decisions are not picked, others are), keeps it paused across a reload, and resumes it', async () => {
    const answers: (() => void)[] = [];
    const send = vi.fn((_entry: OutboxEntry) => new Promise<void>((resolve) => answers.push(resolve)));
    const first = setup({ send, graceMs: () => 0, concurrency: 2 });
    first.engine.enqueueMany(S, many(10), 'run');
    await settle(0, () => send.mock.calls.length === 2);
    expect(first.engine.holdGroup(S, 'run')).toBe(8);
    first.engine.enqueue(S, live('single'));
    answers.shift()!();
    await settle(10, () => send.mock.calls.length === 3);
    // The one in flight finishes; the next picked is the decision outside the run.
    expect(send.mock.calls.map(([e]) => e.itemId)).toEqual(['q0', 'q1', 'single']);
    while (answers.length) answers.shift()!();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(send).toHaveBeenCalledTimes(3);
    expect(storedStates().filter(([, state]) => state === 'queued' || state === 'grace')).toHaveLength(8);

    // A reload: the new tab takes the run over, still paused.
    tabs.close(first.deps.tabs.id);
    const second = setup({ send, graceMs: () => 0, concurrency: 2 });
    await second.engine.load(S);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(send).toHaveBeenCalledTimes(3);
    expect(second.engine.releaseGroup(S, 'run')).toBe(8);
    await settle(0, () => {
      while (answers.length) answers.shift()!();
      return send.mock.calls.length === 11;
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(send.mock.calls.map(([e]) => e.itemId).sort()).toEqual(['single', ...many(10).map((d) => d.itemId)].sort());
    expect(second.engine.entriesOf(S).every((e) => e.state === 'sent')).toBe(true);
  });

  it('sends a paused run too when asked to send everything now (Remove connection: send them now)', async () => {
    const { engine, sent } = setup({ graceMs: () => 60_000 });
    engine.enqueueMany(S, many(3), 'run');
    engine.holdGroup(S, 'run');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sent).toEqual([]);
    engine.sendNow(S);
    await settle(10, () => sent.length === 3);
    expect(sent.map((e) => e.itemId)).toEqual(['q0', 'q1', 'q2']);
  });

  it('cancels a run: what is not sent is discarded (kept, never sent, items undecided again); what is on its way finishes', async () => {
    const answers: (() => void)[] = [];
    const send = vi.fn((_entry: OutboxEntry) => new Promise<void>((resolve) => answers.push(resolve)));
    const { engine } = setup({ send, graceMs: () => 0, concurrency: 2 });
    engine.enqueueMany(S, many(6), 'run');
    engine.enqueue(S, live('outside'));
    await settle(0, () => send.mock.calls.length === 2);
    answers.shift()!();
    await settle(0, () => send.mock.calls.length === 3);
    expect(engine.cancelGroup(S, 'run')).toBe(3);
    await settle(100, () => {
      while (answers.length) answers.shift()!();
      return engine.entriesOf(S).every((e) => e.state === 'sent' || e.state === 'discarded');
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(send.mock.calls.map(([e]) => e.itemId)).toEqual(['q0', 'q1', 'q2', 'outside']);
    expect(storedStates()).toEqual([
      ['q0', 'sent'],
      ['q1', 'sent'],
      ['q2', 'sent'],
      ['q3', 'discarded'],
      ['q4', 'discarded'],
      ['q5', 'discarded'],
      ['outside', 'sent'],
    ]);
    expect(shared.opened.filter(([, , open]) => open === 1).map(([, id]) => id)).toEqual(['q3', 'q4', 'q5']);
  });

  it('sends 10,000 decisions each exactly once, never more than the limit at a time, in batched writes, without rescanning the run per answer', async () => {
    let inFlight = 0;
    let most = 0;
    const times = new Map<string, number>();
    const send = vi.fn(async (entry: OutboxEntry) => {
      inFlight++;
      most = Math.max(most, inFlight);
      times.set(entry.itemId, (times.get(entry.itemId) ?? 0) + 1);
      await Promise.resolve();
      inFlight--;
    });
    const { engine } = setup({ send, graceMs: () => 1_000, concurrency: 6 });
    const { recorded } = engine.enqueueMany(S, many(10_000), 'run');
    expect(recorded).toHaveLength(10_000);
    expect(await engine.whenWritten()).toBe(true);
    expect(shared.writes).toEqual([{ puts: 10_000, deletes: 0 }]);
    await settle(1_000, () => send.mock.calls.length === 10_000);
    await settle(0, () => engine.entriesOf(S).every((e) => e.state === 'sent'));
    expect(await engine.whenWritten()).toBe(true);
    expect(send).toHaveBeenCalledTimes(10_000);
    expect([...times.values()].every((n) => n === 1)).toBe(true);
    expect(most).toBeLessThanOrEqual(6);
    expect([...shared.rows.values()].filter((e) => e.state === 'sent')).toHaveLength(10_000);
    // One write per decision (sent; 'sending' is not written), the answers of a stream batched a few times a second,
    // and the in-flight marks taken 128 decisions ahead (79 writes). (Here the answers come within one batch: the
    // enqueue's write and the answers' one; one write per answer made 669, one mark per send 1,669.)
    expect(shared.writes.length).toBeLessThan(20 + 10_000 / 100);
    // Quadratic work (a scan of the 10,000 per answer) took tens of seconds here and fails at the test's timeout;
    // the time of a run is measured by `npm run bench:bulk`, not asserted here (a busy machine must not fail a test).
  }, 30_000);
});

describe('outbox engine: adopts a team hub holds', () => {
  const budgetHeld = (holdId: string) => new ApiError(409, 'BUDGET_HELD', 'over the team’s daily limit', '', undefined, holdId);
  const hold = (id: string, itemId: string, over: Partial<TeamHold>): TeamHold => ({
    id,
    item_id: itemId,
    kind: 'adopt',
    state: 'open',
    resolved_at: null,
    resolved_by: null,
    decision_state: 'held',
    outcome: null,
    ...over,
  });

  it('keeps the hold id, never sends a held adopt again, and any tab records what the hub did with it for every tab', async () => {
    const send = vi.fn(async (entry: OutboxEntry) => {
      throw budgetHeld(`hold-${entry.itemId}`);
    });
    const a = setup({ send, graceMs: () => 0 });
    const b = setup();
    await b.engine.load(S);
    for (const id of ['r', 'q', 'd']) a.engine.enqueue(S, charged(id));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(a.engine.entriesOf(S).map((e) => [e.itemId, e.state, e.holdId])).toEqual([
      ['r', 'held-team', 'hold-r'],
      ['q', 'held-team', 'hold-q'],
      ['d', 'held-team', 'hold-d'],
    ]);
    expect(b.engine.hasHubOwned(S)).toBe(true);

    // Tab B (not the owner) reads the hub's holds: released and sent, released and queued there, dropped.
    const holds = [
      hold('hold-r', 'r', { state: 'released', decision_state: 'sent' }),
      hold('hold-q', 'q', { state: 'released', decision_state: 'queued' }),
      hold('hold-d', 'd', { state: 'dropped', resolved_by: 'm1', resolved_by_email: 'admin@team', resolved_at: '2026-11-21T00:00:05.000Z' }),
    ];
    expect(await b.engine.settleTeamHolds(S, holds)).toBe(3);
    await vi.advanceTimersByTimeAsync(0);
    for (const engine of [a.engine, b.engine]) {
      const all = [...engine.entriesOf(S), ...engine.othersOf(S)];
      expect(all.map((e) => [e.itemId, e.state]).sort()).toEqual([
        ['d', 'dropped-team'],
        ['q', 'accepted-team'],
        ['r', 'sent'],
      ]);
    }
    expect(shared.rows.get(a.engine.entriesOf(S).find((e) => e.itemId === 'd')!.id)).toMatchObject({ droppedBy: 'admin@team' });
    // The dropped item is undecided again; the others stay decided.
    expect(shared.opened).toContainEqual(['sim', 'd', 1]);
    expect(shared.opened.filter(([, item, open]) => open === 1 && item !== 'd')).toEqual([]);
    // Nothing was sent again from a browser, however long it waits.
    await vi.advanceTimersByTimeAsync(120_000);
    expect(send).toHaveBeenCalledTimes(3);
    // Reading the same holds again changes nothing.
    expect(await a.engine.settleTeamHolds(S, holds)).toBe(0);

    // The dropped item may be decided again; the one the hub will send may not.
    expect(a.engine.enqueue(S, charged('d')).state).toBe('grace');
    expect(a.engine.enqueue(S, charged('q')).state).toBe('accepted-team');
    // Once the hub sent the accepted one, it is confirmed.
    expect(await a.engine.settleTeamHolds(S, [hold('hold-q', 'q', { state: 'released', decision_state: 'sent' })])).toBe(1);
    expect(stateOf(a.engine, 'q')).toBe('sent');
    expect(a.engine.hasHubOwned(S)).toBe(false);
  });

  it('leaves a dropped adopt’s item decided when a teammate’s decision stands on it, and reopens it once that goes too', async () => {
    const send = vi.fn(async (entry: OutboxEntry) => {
      throw budgetHeld(`hold-${entry.itemId}`);
    });
    const a = setup({ send, graceMs: () => 0 });
    a.engine.enqueue(S, charged('d'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(stateOf(a.engine, 'd')).toBe('held-team');
    // A teammate adopted the item meanwhile (the hub's feed): a hold does not stand on the item, so theirs is recorded.
    const teammate = { kind: 'simulated' as const, subscriptionId: 'sim', itemId: 'd' };
    expect(await a.engine.applyTeamDecisions(S, [{ ...teammate, decision: { kind: 'adopt', by: 'reviewer2@team', at: Date.UTC(2026, 10, 20) } }])).toBe(1);
    await vi.advanceTimersByTimeAsync(0);
    shared.opened.length = 0;

    // An admin drops the held adopt: the item stays decided, the teammate's decision stands on it.
    expect(await a.engine.settleTeamHolds(S, [hold('hold-d', 'd', { state: 'dropped', resolved_by: 'm1', resolved_by_email: 'admin@team' })])).toBe(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(stateOf(a.engine, 'd')).toBe('dropped-team');
    expect(shared.opened.filter(([, item, open]) => item === 'd' && open === 1)).toEqual([]);

    // The hub takes the teammate's decision back: now nothing stands on the item, and it is undecided again.
    expect(await a.engine.applyTeamDecisions(S, [{ ...teammate, decision: null }])).toBe(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(shared.opened).toContainEqual(['sim', 'd', 1]);
  });
});

describe('outbox engine: teammates’ decisions from the team hub’s feed', () => {
  const news = (itemId: string, decision: TeamDecisionNews['decision'], subscriptionId = 'sim'): TeamDecisionNews => ({
    kind: 'simulated',
    subscriptionId,
    itemId,
    decision,
  });
  const byR2 = (kind: 'adopt' | 'dispute' = 'adopt') => ({ kind, by: 'reviewer2@team', at: Date.UTC(2026, 10, 20) });

  it('records a teammate’s decision as decided here (stored, the item closed, never sent, not spent), for every tab; undecided again, it goes', async () => {
    const a = setup({ graceMs: () => 0 });
    const b = setup();
    await b.engine.load(S);
    expect(await a.engine.applyTeamDecisions(S, [news('t1', byR2()), news('t2', byR2('dispute'))])).toBe(2);
    await vi.advanceTimersByTimeAsync(0);
    expect([...shared.rows.values()].map((e) => [e.itemId, e.state, e.decision, e.decidedBy])).toEqual([
      ['t1', 'decided-team', 'adopt', 'reviewer2@team'],
      ['t2', 'decided-team', 'dispute', 'reviewer2@team'],
    ]);
    expect(shared.opened).toEqual([
      ['sim', 't1', 0],
      ['sim', 't2', 0],
    ]);
    // Tab B sees them, announced.
    expect(b.engine.entriesOf(S).map((e) => [e.itemId, e.state])).toEqual([
      ['t1', 'decided-team'],
      ['t2', 'decided-team'],
    ]);
    // Never sent from here, whatever the time; this browser's own adopt of the item is skipped (the teammate's stands).
    expect(a.engine.enqueue(S, charged('t1')).state).toBe('decided-team');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(a.sent).toEqual([]);
    // The same news again changes nothing; other news (adopted now) changes the entry.
    expect(await b.engine.applyTeamDecisions(S, [news('t1', byR2()), news('t2', byR2('dispute'))])).toBe(0);
    expect(await b.engine.applyTeamDecisions(S, [news('t2', byR2('adopt'))])).toBe(1);
    expect(shared.rows.get('team:sim:t2')).toMatchObject({ state: 'decided-team', decision: 'adopt' });
    // Undecided again on the hub (a dropped hold): the entry goes and the item is open again.
    expect(await b.engine.applyTeamDecisions(S, [news('t1', null)])).toBe(1);
    await vi.advanceTimersByTimeAsync(0);
    expect([...shared.rows.values()].map((e) => e.itemId)).toEqual(['t2']);
    expect(shared.opened.at(-1)).toEqual(['sim', 't1', 1]);
    expect(a.engine.entriesOf(S).map((e) => e.itemId)).toEqual(['t2']);
    // Now this browser may decide it.
    expect(a.engine.enqueue(S, charged('t1')).state).toBe('grace');
  });

  it('closes items stored after their decision came (the feed ahead of the inbox): a teammate’s or this browser’s, only where one stands', async () => {
    const a = setup({ graceMs: () => 0 });
    expect(await a.engine.applyTeamDecisions(S, [news('early', byR2())])).toBe(1);
    a.engine.enqueue(S, charged('mine'));
    await vi.advanceTimersByTimeAsync(1_000);
    shared.opened.length = 0;
    // The item rows land now (written open by the store): the ones decided are closed, the other stays open; another subscription's are not touched.
    expect(await a.engine.closeDecided(S, 'sim', ['early', 'mine', 'fresh'])).toBe(2);
    expect(await a.engine.closeDecided(S, 'other', ['early'])).toBe(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(shared.opened).toEqual([
      ['sim', 'early', 0],
      ['sim', 'mine', 0],
    ]);
  });

  it('leaves an item this browser decided itself as its own: no teammate entry, never reopened', async () => {
    const a = setup({ graceMs: () => 0 });
    a.engine.enqueue(S, charged('mine'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(stateOf(a.engine, 'mine')).toBe('sent');
    // The hub names this browser's own decision (by this member): nothing to record.
    expect(await a.engine.applyTeamDecisions(S, [news('mine', byR2())])).toBe(0);
    expect([...shared.rows.values()].map((e) => [e.itemId, e.state])).toEqual([['mine', 'sent']]);
    // Undecided again news never reopens an item this browser decided.
    expect(await a.engine.applyTeamDecisions(S, [news('mine', null)])).toBe(0);
    expect(shared.opened.filter(([, , open]) => open === 1)).toEqual([]);
  });
});
