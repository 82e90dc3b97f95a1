import type { OnChangeFn, SortingState } from '@tanstack/react-table';
import { useCallback, useMemo } from 'react';

export interface UrlSort {
  sort: string;
  dir: 'asc' | 'desc';
}

/**
 * A table's sort kept in the URL (`sort` and `dir`), for TanStack Table.
 *
 * The sorting state must keep its identity between renders: TanStack Table memoizes its sorted
 * rows on it, and each recomputation queues a page-index reset, which sets state and renders
 * again. A sorting array built anew on every render made that an endless render loop that froze
 * the tab on the first header click.
 */
export function useUrlSorting({ sort, dir }: UrlSort, onChange: (next: UrlSort) => void, fallback: string) {
  const sorting = useMemo<SortingState>(() => [{ id: sort, desc: dir === 'desc' }], [sort, dir]);
  const onSortingChange = useCallback<OnChangeFn<SortingState>>(
    (updater) => {
      const next = (typeof updater === 'function' ? updater(sorting) : updater)[0];
      onChange({ sort: next?.id ?? fallback, dir: next?.desc ? 'desc' : 'asc' });
    },
    [sorting, onChange, fallback],
  );
  return { sorting, onSortingChange };
}
