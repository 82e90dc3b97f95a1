import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { outboxEntry } from '../../test/outbox-entry';
import type { OutboxEntry } from './model';
import { WriteBehind, type WriteBehindDeps } from './write-behind';

const entry = (id: string, state: OutboxEntry['state'] = 'grace'): OutboxEntry =>
  outboxEntry({ id, connectionId: 'c', kind: 'live', itemId: `item-${id}`, subscriptionId: 'sub', priceMicros: null, state, attempts: 0 });

/** Memory the write-behind reads from, and a store whose writes the test may hold or fail. */
function world(overrides: Partial<WriteBehindDeps> = {}) {
  const memory = new Map<string, OutboxEntry>();
  const writes: { puts: OutboxEntry[]; deletes: string[] }[] = [];
  const written: string[][] = [];
  const failures: unknown[] = [];
  let hold: Promise<void> | null = null;
  let failing: Error | null = null;
  const writer = new WriteBehind({
    store: {
      async write(puts, deletes) {
        if (hold) await hold;
        if (failing) throw failing;
        writes.push({ puts: [...puts], deletes: [...deletes] });
      },
    },
    current: (_scope, id) => memory.get(id),
    blocked: () => failures.length > 0,
    written: (scopes) => void written.push([...scopes]),
    fail: (error) => void failures.push(error),
    ...overrides,
  });
  const put = (e: OutboxEntry) => memory.set(e.id, e);
  return {
    writer,
    memory,
    writes,
    written,
    failures,
    put,
    holdWrites: () => {
      let letGo!: () => void;
      hold = new Promise<void>((resolve) => (letGo = resolve));
      return () => {
        hold = null;
        letGo();
      };
    },
    failWrites: (error: Error | null) => (failing = error),
  };
}

beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
afterEach(() => vi.useRealTimers());

describe('write-behind', () => {
  it('writes the current state of every marked entry in one transaction, deletes removed ones, and holds each until then', async () => {
    const w = world();
    w.put(entry('a'));
    w.put(entry('b'));
    w.writer.mark('S', 'a', true);
    w.writer.mark('S', 'b', true);
    w.writer.markRemoved('S', 'gone');
    expect(w.writer.unwritten('a')).toBe(true);
    expect(w.writer.unwritten('gone')).toBe(true);
    w.put(entry('a', 'queued'));
    await w.writer.settled();
    expect(w.writes).toEqual([{ puts: [entry('a', 'queued'), entry('b')], deletes: ['gone'] }]);
    expect(w.written).toEqual([['S']]);
    expect(['a', 'b', 'gone'].map(w.writer.has)).toEqual([false, false, false]);
  });

  it('clears only the marks unchanged during the write: a change made while a write is in flight is written by the next one', async () => {
    const w = world();
    const letGo = w.holdWrites();
    w.put(entry('a'));
    w.writer.mark('S', 'a', true);
    await vi.advanceTimersByTimeAsync(0);
    // The write of 'grace' is on its way; the entry changes meanwhile.
    w.put(entry('a', 'queued'));
    w.writer.mark('S', 'a', true);
    letGo();
    await w.writer.settled();
    await w.writer.settled();
    expect(w.writes.map((write) => write.puts.map((e) => e.state))).toEqual([['grace'], ['queued']]);
    expect(w.writer.unwritten('a')).toBe(false);
  });

  it('an entry removed while its write is in flight is deleted by the next write', async () => {
    const w = world();
    const letGo = w.holdWrites();
    w.put(entry('a'));
    w.writer.mark('S', 'a', true);
    await vi.advanceTimersByTimeAsync(0);
    w.memory.delete('a');
    w.writer.markRemoved('S', 'a');
    letGo();
    await w.writer.flushNow();
    expect(w.writes.at(-1)).toEqual({ puts: [], deletes: ['a'] });
    expect(w.writer.has('a')).toBe(false);
  });

  it('batches a stream’s answers (soon), and a lazy change neither holds the entry back nor weakens a write it waits for', async () => {
    const w = world();
    w.put(entry('a'));
    w.put(entry('b'));
    w.writer.mark('S', 'a', 'soon');
    w.writer.mark('S', 'b', 'lazy');
    expect(w.writer.unwritten('a')).toBe(true);
    expect(w.writer.unwritten('b')).toBe(false);
    await vi.advanceTimersByTimeAsync(50);
    expect(w.writes).toEqual([]);
    w.writer.mark('S', 'a', 'lazy');
    expect(w.writer.unwritten('a')).toBe(true);
    await vi.advanceTimersByTimeAsync(50);
    await w.writer.settled();
    expect(w.writes).toHaveLength(1);
    expect(w.writes[0]!.puts.map((e) => e.id)).toEqual(['a', 'b']);
  });

  it('keeps what a failed write held marked, writes nothing while blocked, and writes it when asked again', async () => {
    const w = world();
    w.failWrites(new Error('quota'));
    w.put(entry('a'));
    w.writer.mark('S', 'a', true);
    await w.writer.settled();
    expect(w.failures).toHaveLength(1);
    expect(w.writer.unwritten('a')).toBe(true);
    w.failWrites(null);
    w.writer.request();
    await w.writer.settled();
    expect(w.writes).toEqual([]);
    w.failures.length = 0;
    w.writer.request();
    await w.writer.settled();
    expect(w.writes).toHaveLength(1);
    expect(w.writer.unwritten('a')).toBe(false);
  });

  it('leaves flushes asked for while deferring until after the paint, and runs them at once on flushNow', async () => {
    const painted: (() => void)[] = [];
    const w = world({ afterPaint: (fn) => void painted.push(fn) });
    w.put(entry('a'));
    w.writer.deferWhile(() => w.writer.mark('S', 'a', true));
    await w.writer.settled();
    expect(w.writes).toEqual([]);
    expect(painted).toHaveLength(1);
    await w.writer.flushNow();
    expect(w.writes).toHaveLength(1);
  });

  it('forgets a scope’s marks', async () => {
    const w = world();
    w.put(entry('a'));
    w.writer.mark('T', 'a', 'soon');
    w.writer.forget('T');
    expect(w.writer.has('a')).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    await w.writer.settled();
    expect(w.writes).toEqual([]);
  });
});
