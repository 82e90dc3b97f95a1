import { beforeEach, describe, expect, it } from 'vitest';
import { readEntries, removeEntry, removeLegacy } from './storage';

/** An entry as earlier versions wrote it: no scope. */
const old = (id: string, createdAt: number) => ({
  id,
  connectionId: 'c1',
  kind: 'live',
  itemId: id,
  subscriptionId: 'sub',
  decision: 'adopt',
  priceMicros: null,
  createdAt,
  sendAfter: createdAt,
  state: 'grace',
  attempts: 0,
  nextAttemptAt: createdAt,
});

beforeEach(() => window.sessionStorage.clear());

describe('decisions of earlier versions', () => {
  it('reads per-entry items and the single array, oldest first, skipping damaged ones and other connections', () => {
    const s = window.sessionStorage;
    s.setItem('dds.outbox.c1.e2', JSON.stringify(old('e2', 2)));
    s.setItem('dds.outbox.c1', JSON.stringify([old('e1', 1)]));
    s.setItem('dds.outbox.c1.broken', '{not json');
    s.setItem('dds.outbox.c1.wrong', JSON.stringify({ id: 'wrong', itemId: 42 }));
    s.setItem('dds.outbox.c2.x', JSON.stringify({ ...old('x', 3), connectionId: 'c2' }));
    expect(readEntries(s, 'c1').map((e) => [e.id, e.scope])).toEqual([
      ['e1', ''],
      ['e2', ''],
    ]);
    removeEntry(s, 'c1', 'e2');
    removeLegacy(s, 'c1');
    expect(readEntries(s, 'c1')).toEqual([]);
  });
});
