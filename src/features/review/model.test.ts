import { describe, expect, it } from 'vitest';
import { formatMicros, OVER_RANGE } from '../../lib/money';
import { outboxEntry } from '../../test/outbox-entry';
import { displayState, visitSpending, type ReviewItem } from './model';

const entry = outboxEntry;

const item = { id: 'i1', serverState: 'new' } as ReviewItem;

describe('spent this visit', () => {
  it('counts charged adopts confirmed since the visit began, resumed ones from an earlier visit included', () => {
    const resumed = entry({ itemId: 'old', createdAt: 10, sentAt: 1_000 });
    const fresh = entry({ itemId: 'new', createdAt: 900, sentAt: 1_100, priceMicros: 250_000 });
    expect(visitSpending([resumed, fresh], new Set(), 500)).toBe(262_500);
  });

  it('leaves out what was not charged: unsent, disputes, live items, repeats of an item already adopted', () => {
    const entries = [
      entry({ itemId: 'waiting', state: 'queued', sentAt: undefined }),
      entry({ itemId: 'disputed', decision: 'dispute', priceMicros: null, sentAt: 1_000 }),
      entry({ itemId: 'conflict', state: 'conflict', sentAt: undefined }),
      entry({ itemId: 'known', sentAt: 1_000 }),
      entry({ id: 'twice-1', itemId: 'twice', sentAt: 1_000 }),
      entry({ id: 'twice-2', itemId: 'twice', sentAt: 1_200 }),
      entry({ itemId: 'before', sentAt: 100 }),
    ];
    expect(visitSpending(entries, new Set(['known']), 500)).toBe(12_500);
  });

  it('past the exact integer range is the over-range marker, shown as "over $9,007,199,254", never an inexact number', () => {
    const huge = entry({ itemId: 'huge', sentAt: 1_000, priceMicros: Number.MAX_SAFE_INTEGER - 10 });
    const more = entry({ itemId: 'more', sentAt: 1_100, priceMicros: 20 });
    expect(visitSpending([huge], new Set(), 500)).toBe(Number.MAX_SAFE_INTEGER - 10);
    const spent = visitSpending([huge, more], new Set(), 500);
    expect(spent).toBe(OVER_RANGE);
    expect(formatMicros(spent)).toBe('over $9,007,199,254');
  });
});

describe('display state', () => {
  it('shows what the service recorded when it refused a decision with 409', () => {
    expect(displayState(item, entry({ decision: 'dispute', state: 'conflict', recorded: 'adopted' }))).toBe('adopted');
    expect(displayState(item, entry({ decision: 'adopt', state: 'conflict', recorded: 'dispute' }))).toBe('disputed');
    expect(displayState(item, entry({ state: 'conflict', recorded: undefined }))).toBe('failed');
    expect(displayState(item, entry({ state: 'failed' }))).toBe('failed');
    // Through a team hub: held there (not the browser's budget), released and queued there, dropped there (undecided again).
    expect(displayState(item, entry({ state: 'held-team' }))).toBe('held-team');
    expect(displayState(item, entry({ state: 'held-budget' }))).toBe('held');
    expect(displayState(item, entry({ state: 'accepted-team' }))).toBe('accepted');
    expect(displayState(item, entry({ state: 'queued' }))).toBe('waiting');
    expect(displayState(item, entry({ state: 'dropped-team' }))).toBe('new');
  });
});
