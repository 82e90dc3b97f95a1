import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NetworkError } from '../../api/errors';
import { OutboxEngine, type OutboxDeps, type TabRegistry } from './engine';
import { DAY_MS, type NewDecision, type OutboxEntry } from './model';

/** What storage holds for connection c1: the raw items, read without the engine. */
const storedItems = (storage: Storage = window.localStorage) =>
  Object.keys(storage)
    .filter((key) => key.startsWith('dds.outbox.c1'))
    .map((key) => JSON.parse(storage.getItem(key)!) as unknown);

const live = (itemId: string, decision: 'adopt' | 'dispute' = 'adopt'): NewDecision => ({
  kind: 'live',
  itemId,
  subscriptionId: 'sub',
  decision,
  priceMicros: null,
});
const charged = (itemId: string): NewDecision => ({ kind: 'simulated', itemId, subscriptionId: 'sim', decision: 'adopt', priceMicros: 12_500 });

function setup(overrides: Partial<OutboxDeps> = {}, storage: Storage = window.localStorage) {
  const sent: OutboxEntry[] = [];
  const send = vi.fn(async (entry: OutboxEntry) => {
    sent.push(entry);
  });
  const deps: OutboxDeps = {
    storageFor: () => storage,
    send,
    onKeyRefused: vi.fn(),
    isOnline: () => true,
    graceMs: () => 3_000,
    random: () => 0.5,
    ...overrides,
  };
  return { engine: new OutboxEngine(deps), deps, sent, send: (overrides.send as typeof send | undefined) ?? send };
}

/** Tabs that open and close on command, like Web Locks would report them. */
function fakeTabs() {
  const open = new Set<string>();
  const waiting = new Map<string, (() => void)[]>();
  return {
    open(id: string): TabRegistry {
      open.add(id);
      return {
        id,
        whenGone(owner, onGone) {
          if (open.has(owner)) waiting.set(owner, [...(waiting.get(owner) ?? []), onGone]);
          else queueMicrotask(onGone);
        },
      };
    },
    close(id: string) {
      open.delete(id);
      for (const onGone of waiting.get(id) ?? []) queueMicrotask(onGone);
      waiting.delete(id);
    },
  };
}

const stateOf = (engine: OutboxEngine, itemId: string) => engine.entriesOf('c1').find((e) => e.itemId === itemId)?.state;

beforeEach(() => vi.useFakeTimers({ now: Date.UTC(2026, 10, 21) }));
afterEach(() => vi.useRealTimers());

describe('outbox', () => {
  it('persists a decision before anything else and sends it only after the grace window', async () => {
    const { engine, sent } = setup();
    engine.enqueue('c1', live('1'));
    expect(storedItems()).toEqual([expect.objectContaining({ itemId: '1', state: 'grace' })]);
    await vi.advanceTimersByTimeAsync(2_900);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(200);
    expect(sent).toHaveLength(1);
    expect(stateOf(engine, '1')).toBe('sent');
    await vi.advanceTimersByTimeAsync(60_000);
    engine.pump();
    expect(sent).toHaveLength(1);
  });

  it('undo inside the window cancels: nothing is sent', async () => {
    const { engine, sent } = setup();
    engine.enqueue('c1', live('1'));
    engine.enqueue('c1', live('2'));
    expect(engine.undoLast('c1')?.itemId).toBe('2');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent.map((e) => e.itemId)).toEqual(['1']);
    expect(engine.undoLast('c1')).toBeNull();
  });

  it('undoes decisions recorded together (a bulk decision) with one undo', async () => {
    const { engine, sent } = setup();
    engine.enqueue('c1', live('single'));
    for (const id of ['b1', 'b2', 'b3']) engine.enqueue('c1', live(id, 'dispute'), 'bulk');
    expect(engine.undoLatest('c1').map((e) => e.itemId)).toEqual(['b1', 'b2', 'b3']);
    expect(engine.undoLatest('c1').map((e) => e.itemId)).toEqual(['single']);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent).toEqual([]);
  });

  it('shows what another tab records in shared storage, and keeps it as sent once that tab sent it', async () => {
    const tabs = fakeTabs();
    const a = setup({ tabs: tabs.open('A') });
    const b = setup({ tabs: tabs.open('B') });
    b.engine.load('c1');
    // Each of A's writes reaches B as a storage event.
    a.engine.subscribe(() => b.engine.syncOthers('c1'));
    a.engine.enqueue('c1', live('x'));
    expect(b.engine.othersOf('c1').map((e) => [e.itemId, e.state])).toEqual([['x', 'grace']]);
    const undone = a.engine.enqueue('c1', live('y'));
    expect(b.engine.othersOf('c1').map((e) => e.itemId)).toEqual(['x', 'y']);
    a.engine.undo('c1', undone.id);
    expect(b.engine.othersOf('c1').map((e) => e.itemId)).toEqual(['x']);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(a.sent.map((e) => e.itemId)).toEqual(['x']);
    expect(b.engine.othersOf('c1').map((e) => [e.itemId, e.state])).toEqual([['x', 'sent']]);
    // B sends none of A's decisions.
    expect(b.sent).toHaveLength(0);
    expect(b.engine.entriesOf('c1')).toEqual([]);
  });

  it('retries network errors and 5xx with backoff, then saves exactly once', async () => {
    let calls = 0;
    const send = vi.fn(async () => {
      calls++;
      if (calls === 1) throw new NetworkError('offline', false);
      if (calls === 2) throw new ApiError(500, 'INTERNAL_ERROR', 'boom', '');
      if (calls === 3) throw new ApiError(429, null, 'slow down', '');
    });
    const { engine } = setup({ send, graceMs: () => 0, retryBaseMs: 100 });
    engine.enqueue('c1', live('1'));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls).toBe(4);
    expect(stateOf(engine, '1')).toBe('sent');
  });

  it('stops at a 409 and keeps the server’s recorded decision', async () => {
    const send = vi.fn(async () => {
      throw new ApiError(409, 'FEEDBACK_CONFLICT', 'already adopt', '', 'adopt');
    });
    const { engine } = setup({ send, graceMs: () => 0 });
    engine.enqueue('c1', live('1', 'dispute'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(send).toHaveBeenCalledTimes(1);
    expect(engine.entriesOf('c1')[0]).toMatchObject({ state: 'conflict', recorded: 'adopt' });
  });

  it('pauses the connection on a 401, loses nothing, and sends after resume', async () => {
    let refused = true;
    const send = vi.fn(async () => {
      if (refused) throw new ApiError(401, 'KEY_REVOKED', 'revoked', '');
    });
    const onKeyRefused = vi.fn();
    const { engine } = setup({ send, onKeyRefused, graceMs: () => 0 });
    engine.enqueue('c1', live('1'));
    engine.enqueue('c1', live('2'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(onKeyRefused).toHaveBeenCalled();
    expect(engine.isPaused('c1')).toBeTruthy();
    const callsWhilePaused = send.mock.calls.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(send.mock.calls.length).toBe(callsWhilePaused);
    expect(engine.entriesOf('c1').map((e) => e.state)).toEqual(['queued', 'queued']);
    refused = false;
    engine.resume('c1');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(engine.entriesOf('c1').map((e) => e.state)).toEqual(['sent', 'sent']);
  });

  it('after a reload, resumes free decisions and holds charged ones for confirmation', async () => {
    const first = setup({ isOnline: () => false });
    first.engine.enqueue('c1', live('free'));
    first.engine.enqueue('c1', charged('paid'));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(first.sent).toHaveLength(0);

    const second = setup();
    second.engine.load('c1');
    expect(stateOf(second.engine, 'paid')).toBe('needs-confirmation');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(second.sent.map((e) => e.itemId)).toEqual(['free']);
    const waiting = second.engine.entriesOf('c1').filter((e) => e.state === 'needs-confirmation');
    second.engine.confirm('c1', waiting.map((e) => e.id));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(second.sent.map((e) => e.itemId)).toEqual(['free', 'paid']);
  });

  it('records a decision with one small write, however long the backlog', () => {
    const { engine } = setup({ isOnline: () => false });
    for (let i = 0; i < 100; i++) engine.enqueue('c1', live(`backlog-${i}`));
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    engine.enqueue('c1', live('new'));
    expect(setItem).toHaveBeenCalledTimes(1);
    const [, written] = setItem.mock.calls[0]!;
    expect(JSON.parse(written)).toMatchObject({ itemId: 'new', state: 'grace' });
    setItem.mockRestore();
    expect(storedItems()).toHaveLength(101);
  });

  it('still loads an outbox written by the earlier single-array format, then stores it per entry', async () => {
    const old = setup({ isOnline: () => false });
    old.engine.enqueue('c1', live('a'));
    old.engine.enqueue('c1', charged('b'));
    const entries = old.engine.entriesOf('c1');
    window.localStorage.clear();
    window.localStorage.setItem('dds.outbox.c1', JSON.stringify(entries));

    const next = setup();
    next.engine.load('c1');
    expect(next.engine.entriesOf('c1').map((e) => e.itemId)).toEqual(['a', 'b']);
    expect(stateOf(next.engine, 'b')).toBe('needs-confirmation');
    expect(window.localStorage.getItem('dds.outbox.c1')).toBeNull();
    expect(storedItems()).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(next.sent.map((e) => e.itemId)).toEqual(['a']);
  });

  it('drops a damaged stored entry and keeps the others', () => {
    const first = setup({ isOnline: () => false });
    first.engine.enqueue('c1', live('good'));
    window.localStorage.setItem('dds.outbox.c1.broken', '{not json');
    window.localStorage.setItem('dds.outbox.c1.wrong', JSON.stringify({ id: 'wrong', itemId: 42 }));
    const second = setup({ isOnline: () => false });
    second.engine.load('c1');
    expect(second.engine.entriesOf('c1').map((e) => e.itemId)).toEqual(['good']);
  });

  it('leaves a decision to the open tab that recorded it, and takes it over once that tab closes', async () => {
    const tabs = fakeTabs();
    const a = setup({ tabs: tabs.open('A'), graceMs: () => 30_000 });
    a.engine.enqueue('c1', live('undone'));
    a.engine.enqueue('c1', live('free'));
    a.engine.enqueue('c1', charged('paid'));

    const b = setup({ tabs: tabs.open('B') });
    b.engine.load('c1');
    await vi.advanceTimersByTimeAsync(10_000);
    // B shows and sends nothing of A's: A may still undo.
    expect(b.engine.entriesOf('c1')).toEqual([]);
    expect(b.sent).toHaveLength(0);
    expect(a.engine.undoLast('c1')?.itemId).toBe('paid');
    a.engine.undo('c1', a.engine.entriesOf('c1').find((e) => e.itemId === 'undone')!.id);
    a.engine.enqueue('c1', charged('paid'));

    tabs.close('A');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(b.sent.map((e) => e.itemId)).toEqual(['free']);
    expect(stateOf(b.engine, 'paid')).toBe('needs-confirmation');
    expect(stateOf(b.engine, 'undone')).toBeUndefined();
    // Taken over for good: B's now, so a third tab leaves them to B.
    const c = setup({ tabs: tabs.open('C') });
    c.engine.load('c1');
    expect(c.engine.entriesOf('c1')).toEqual([]);
  });

  it('takes over at once the decisions of a tab that is already gone (a reload)', async () => {
    const tabs = fakeTabs();
    const before = setup({ tabs: tabs.open('old'), isOnline: () => false });
    before.engine.enqueue('c1', live('free'));
    tabs.close('old');
    const after = setup({ tabs: tabs.open('new') });
    after.engine.load('c1');
    await vi.advanceTimersByTimeAsync(100);
    expect(after.sent.map((e) => e.itemId)).toEqual(['free']);
  });

  it('expires unsent decisions older than 24 hours after a reload', () => {
    const first = setup({ isOnline: () => false });
    first.engine.enqueue('c1', charged('old'));
    vi.setSystemTime(Date.now() + DAY_MS + 1);
    const second = setup();
    second.engine.load('c1');
    expect(stateOf(second.engine, 'old')).toBe('expired');
  });

  it('never re-sends a decision the server confirmed, even after a reload', async () => {
    const first = setup({ graceMs: () => 0 });
    first.engine.enqueue('c1', live('1'));
    first.engine.enqueue('c1', live('2'));
    await vi.advanceTimersByTimeAsync(100);
    expect(first.sent).toHaveLength(2);
    // The same visit refuses to decide a confirmed item again.
    first.engine.enqueue('c1', live('1', 'dispute'));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(first.sent).toHaveLength(2);
    // Confirmed decisions left storage: a reload has nothing to send.
    expect(storedItems()).toEqual([]);
    const second = setup();
    second.engine.load('c1');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(second.sent).toHaveLength(0);
    expect(second.engine.entriesOf('c1')).toEqual([]);
  });

  it('sends with bounded concurrency', async () => {
    let inFlight = 0;
    let peak = 0;
    const send = vi.fn(async () => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 50));
      inFlight--;
    });
    const { engine } = setup({ send, graceMs: () => 0, concurrency: 3 });
    for (let i = 0; i < 12; i++) engine.enqueue('c1', live(String(i)));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(send).toHaveBeenCalledTimes(12);
    expect(peak).toBe(3);
  });

  it('waits while offline and sends when back online', async () => {
    let online = false;
    const { engine, sent } = setup({ isOnline: () => online, graceMs: () => 0 });
    engine.enqueue('c1', live('1'));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(sent).toHaveLength(0);
    online = true;
    engine.pump();
    await vi.advanceTimersByTimeAsync(10);
    expect(sent).toHaveLength(1);
  });

  it('marks a 400 failed, and retries it on request', async () => {
    let fail = true;
    const send = vi.fn(async () => {
      if (fail) throw new ApiError(400, 'INVALID_BODY', 'bad', '');
    });
    const { engine } = setup({ send, graceMs: () => 0 });
    engine.enqueue('c1', live('1'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(stateOf(engine, '1')).toBe('failed');
    fail = false;
    engine.retry('c1', engine.entriesOf('c1')[0]!.id);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(stateOf(engine, '1')).toBe('sent');
  });

  it('sends a connection’s unsent decisions at once when asked, charged ones included', async () => {
    const first = setup({ isOnline: () => false });
    first.engine.enqueue('c1', charged('paid'));
    const { engine, sent } = setup({ graceMs: () => 60_000 });
    engine.load('c1');
    engine.enqueue('c1', live('free'));
    expect(stateOf(engine, 'paid')).toBe('needs-confirmation');
    engine.sendNow('c1');
    await vi.advanceTimersByTimeAsync(100);
    expect(sent.map((e) => e.itemId).sort()).toEqual(['free', 'paid']);
  });

  it('forgets a removed connection’s decisions, in memory and in storage', async () => {
    const { engine, sent } = setup();
    engine.enqueue('c1', live('1'));
    engine.enqueue('c1', charged('2'));
    engine.discardAll('c1');
    expect(engine.entriesOf('c1')).toEqual([]);
    expect(storedItems()).toEqual([]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent).toHaveLength(0);
  });
});
