import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Connection } from '../../../data';
import type { StoredItem } from '../../../domain/store';
import type { TriageRow } from '../../../domain/triage';
import type { ReviewSearch } from '../search';
import { useReviewFilter } from './filtered-view';

/** The store's rows as the test sets them (the real engine filters them). */
const world = vi.hoisted(() => ({ rows: null as unknown }));
vi.mock('../../triage', async (original) => ({
  ...(await original<typeof import('../../triage')>()),
  useTriageRows: () => ({ scope: 'S', version: 0, rows: world.rows, error: null }),
  useTextIndex: () => ({ index: undefined, building: false, error: null }),
}));

const row = (id: string, quality: number, state: TriageRow['state'] = 'undecided'): TriageRow => ({
  item: { itemId: id, subscriptionId: 'sub', qualityScore: quality, qualityGrade: 'B', receivedAt: 0, createdAt: null } as StoredItem,
  state,
  decidedAt: null,
});
const connection = { id: 'c1' } as Connection;
const search = (extra: Partial<ReviewSearch>): ReviewSearch => ({ mode: 'new', limit: 50, ...extra });

describe('useReviewFilter', () => {
  it('lists the matching items, keeps an item listed once it is decided, and starts over when the filters change', () => {
    world.rows = null;
    const { result, rerender } = renderHook(({ s }) => useReviewFilter(connection, 'sub', s), {
      initialProps: { s: search({ state: 'undecided', quality_max: 0.6 }) },
    });
    // Nothing is listed until the store is read.
    expect(result.current.ids).toBeNull();
    expect(result.current.description).toBe('undecided, quality ≤ 0.6');

    world.rows = [row('1', 0.5), row('2', 0.9), row('3', 0.1)];
    rerender({ s: search({ state: 'undecided', quality_max: 0.6 }) });
    expect([...result.current.ids!].sort()).toEqual(['1', '3']);

    // Item 1 is adopted: it no longer matches "undecided", yet stays listed (its undo, the keys).
    world.rows = [row('1', 0.5, 'adopted'), row('2', 0.9), row('3', 0.1), row('4', 0.2)];
    rerender({ s: search({ state: 'undecided', quality_max: 0.6 }) });
    expect([...result.current.ids!].sort()).toEqual(['1', '3', '4']);

    // Other filters: only what matches them.
    rerender({ s: search({ state: 'undecided', quality_max: 0.15 }) });
    expect([...result.current.ids!].sort()).toEqual(['3']);
  });
});
