import { describe, expect, it } from 'vitest';
import { outboxEntry } from '../../test/outbox-entry';
import { formatDuration, reviewPace } from './pace';

const START = 1_000_000;
const MIN = 60_000;

describe('reviewPace', () => {
  it('counts items decided since the visit began, per hour of the visit', () => {
    const entries = [
      outboxEntry({ id: 'old', itemId: 'old', createdAt: START - 1 }),
      outboxEntry({ id: 'a', itemId: 'a', createdAt: START }),
      outboxEntry({ id: 'b', itemId: 'b', createdAt: START + MIN, state: 'grace' }),
      // The same item decided again counts once.
      outboxEntry({ id: 'b2', itemId: 'b', createdAt: START + 2 * MIN, decision: 'dispute' }),
      outboxEntry({ id: 'c', itemId: 'c', createdAt: START + 3 * MIN, state: 'discarded' }),
      outboxEntry({ id: 'd', itemId: 'd', subscriptionId: 'other', createdAt: START + 4 * MIN }),
    ];
    expect(reviewPace(entries, START, START + 30 * MIN)).toEqual({ decided: 3, elapsedMs: 30 * MIN, perHour: 6 });
    expect(reviewPace(entries, START, START + 30 * MIN, new Set(['sim']))).toEqual({ decided: 2, elapsedMs: 30 * MIN, perHour: 4 });
  });

  it('gives no rate in the first minute', () => {
    expect(reviewPace([outboxEntry({ createdAt: START })], START, START + MIN - 1).perHour).toBeNull();
    expect(reviewPace([], START, START + 2 * MIN)).toEqual({ decided: 0, elapsedMs: 2 * MIN, perHour: 0 });
  });
});

describe('formatDuration', () => {
  it('says minutes, then hours and minutes', () => {
    expect([0, MIN - 1, MIN, 59 * MIN, 65 * MIN].map(formatDuration)).toEqual(['less than a minute', 'less than a minute', '1 min', '59 min', '1 h 05 min']);
  });
});
