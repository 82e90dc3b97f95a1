import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OutboxEntry } from '../../../domain/outbox/model';
import { outboxEntry } from '../../../test/outbox-entry';
import type { ReviewItem } from '../model';
import { useVisitSpend } from './use-visit-spend';

const entry = outboxEntry;

const NONE: readonly OutboxEntry[] = [];
const ITEMS: readonly ReviewItem[] = [];
const MINUTE = 60_000;
// Long after this file (and the hook's module) was loaded: a visit opened later in the tab's life.
const OPENED = Date.now() + 60 * MINUTE;

describe('spent this visit', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'], now: OPENED }));
  afterEach(() => vi.useRealTimers());

  it('counts from when the workspace opened, not from when the page (or this code) loaded', () => {
    // Confirmed after the code loaded, but before this visit: an earlier visit's charge.
    const earlier = entry({ itemId: 'earlier', createdAt: OPENED - 10 * MINUTE, sentAt: OPENED - 5 * MINUTE, priceMicros: 1_000_000 });
    const now = entry({ itemId: 'now', createdAt: OPENED + 1_000, sentAt: OPENED + 2_000, priceMicros: 250_000 });
    const { result } = renderHook(({ entries }) => useVisitSpend(entries, NONE, ITEMS), { initialProps: { entries: [earlier, now] } });
    expect(result.current.spent).toBe(250_000);
  });

  it('keeps its start across renders: a charge confirmed after the visit opened stays counted', () => {
    const { result, rerender } = renderHook(({ entries }) => useVisitSpend(entries, NONE, ITEMS), { initialProps: { entries: NONE } });
    vi.setSystemTime(OPENED + 2 * MINUTE);
    const confirmed = entry({ itemId: 'now', createdAt: OPENED + MINUTE, sentAt: OPENED + 90_000, priceMicros: 250_000 });
    rerender({ entries: [confirmed] });
    expect(result.current.spent).toBe(250_000);
    vi.setSystemTime(OPENED + 10 * MINUTE);
    rerender({ entries: [confirmed, entry({ itemId: 'other', sentAt: OPENED + 9 * MINUTE, priceMicros: 1 })] });
    expect(result.current.spent).toBe(250_001);
  });

  it('a new visit (the workspace opened again) starts over', () => {
    const sent = entry({ itemId: 'now', sentAt: OPENED + MINUTE, priceMicros: 250_000 });
    const first = renderHook(() => useVisitSpend([sent], NONE, ITEMS));
    expect(first.result.current.spent).toBe(250_000);
    first.unmount();
    vi.setSystemTime(OPENED + 2 * MINUTE);
    const second = renderHook(() => useVisitSpend([sent], NONE, ITEMS));
    expect(second.result.current.spent).toBe(0);
  });

  it('leaves out items the service or another tab had already adopted, and sums charges on their way', () => {
    const items = [{ id: 'held', serverState: 'adopted' } as ReviewItem];
    const otherTab = [entry({ itemId: 'elsewhere', sentAt: OPENED - MINUTE })];
    const entries = [
      entry({ itemId: 'held', sentAt: OPENED + MINUTE }),
      entry({ itemId: 'elsewhere', sentAt: OPENED + MINUTE }),
      entry({ itemId: 'counted', sentAt: OPENED + MINUTE, priceMicros: 7 }),
      entry({ itemId: 'grace', state: 'grace', priceMicros: 100 }),
      entry({ itemId: 'queued', state: 'queued', priceMicros: 200 }),
      entry({ itemId: 'sending', state: 'sending', priceMicros: 400 }),
      entry({ itemId: 'asks', state: 'needs-confirmation', priceMicros: 800 }),
      entry({ itemId: 'free', decision: 'dispute', state: 'queued', priceMicros: null }),
    ];
    const { result } = renderHook(() => useVisitSpend(entries, otherTab, items));
    expect(result.current).toEqual({ spent: 7, onTheirWay: 700 });
  });
});
