import { describe, expect, it } from 'vitest';
import { DAY_MS, type OutboxEntry } from './model';
import { nextWake, pickSendable, promoteDue, resumed } from './scheduler';

const entry = (over: Partial<OutboxEntry>): OutboxEntry => ({
  id: over.itemId ?? 'e',
  scope: 'S',
  connectionId: 'c1',
  kind: 'live',
  itemId: 'i',
  subscriptionId: 'sub',
  decision: 'adopt',
  priceMicros: null,
  createdAt: 0,
  sendAfter: 1_000,
  state: 'grace',
  attempts: 0,
  nextAttemptAt: 1_000,
  ...over,
});
const open = { scopePaused: false, pausedSubscriptions: {}, unwritten: () => false, inFlight: () => false };

describe('scheduler', () => {
  it('queues a decision when its undo window ends, not before', () => {
    const entries = [entry({})];
    expect(promoteDue(entries, 999)).toBe(entries);
    expect(promoteDue(entries, 1_000)[0]).toMatchObject({ state: 'queued', nextAttemptAt: 1_000 });
  });

  it('picks due, written, unpaused entries, at most the free slots', () => {
    const entries = [
      entry({ itemId: 'a', state: 'queued', nextAttemptAt: 0 }),
      entry({ itemId: 'later', state: 'queued', nextAttemptAt: 5_000 }),
      entry({ itemId: 'unwritten', state: 'queued', nextAttemptAt: 0 }),
      entry({ itemId: 'refused', state: 'queued', nextAttemptAt: 0, subscriptionId: 'narrow' }),
      entry({ itemId: 'b', state: 'queued', nextAttemptAt: 0 }),
      entry({ itemId: 'c', state: 'queued', nextAttemptAt: 0 }),
    ];
    const filter = { ...open, pausedSubscriptions: { narrow: '403' }, unwritten: (id: string) => id === 'unwritten' };
    expect(pickSendable(entries, 1_000, 2, filter).map((e) => e.itemId)).toEqual(['a', 'b']);
    expect(pickSendable(entries, 1_000, 9, { ...filter, scopePaused: true })).toEqual([]);
  });

  it('wakes at the next window end or retry, ignoring paused work', () => {
    const wake = { scopePaused: false, pausedSubscriptions: {}, unwritten: () => false, canSend: true };
    expect(
      nextWake([entry({ sendAfter: 700 }), entry({ state: 'queued', nextAttemptAt: 300, subscriptionId: 'narrow' })], {
        ...wake,
        pausedSubscriptions: { narrow: 'x' },
      }),
    ).toBe(700);
    expect(nextWake([entry({ state: 'sent' })], wake)).toBe(Infinity);
    // Queued work that could not be sent now wakes nobody: its own events re-examine the queue.
    const queued = entry({ state: 'queued', nextAttemptAt: 300 });
    expect(nextWake([queued], wake)).toBe(300);
    expect(nextWake([queued], { ...wake, canSend: false })).toBe(Infinity);
    expect(nextWake([queued], { ...wake, unwritten: () => true })).toBe(Infinity);
  });

  it('resumes a taken-over decision: free sent, charged confirmed first, old expired, final untouched', () => {
    expect(resumed(entry({ state: 'grace' }), 'me', 2_000)).toMatchObject({ state: 'queued', owner: 'me', nextAttemptAt: 2_000 });
    expect(resumed(entry({ state: 'sending', kind: 'simulated', priceMicros: 5 }), 'me', 2_000)).toMatchObject({ state: 'needs-confirmation', owner: 'me' });
    // A team hub's scope: the hub answers a repeat with what stands, so the charged adopt is sent again at once.
    expect(resumed(entry({ state: 'grace', kind: 'simulated', priceMicros: 5 }), 'me', 2_000, 'take-over', true)).toMatchObject({
      state: 'queued',
      owner: 'me',
      nextAttemptAt: 2_000,
    });
    expect(resumed(entry({ state: 'queued' }), 'me', DAY_MS)).toMatchObject({ state: 'expired' });
    const sent = entry({ state: 'sent', owner: 'gone' });
    expect(resumed(sent, 'me', 2_000)).toBe(sent);
  });
});
