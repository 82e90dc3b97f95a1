import type { OnChangeFn, SortingState } from '@tanstack/react-table';
import { useCallback, useMemo } from 'react';

export interface UrlSort<S extends string = string> {
  sort: S;
  dir: 'asc' | 'desc';
}

/**
 * A table's sort kept in the URL (`sort` and `dir`): every table of the console sorts through
 * this hook. `header(id)` gives the sort of one column header (table.tsx); `sorting` and
 * `onSortingChange` are the same state for TanStack Table.
 *
 * The sorting state must keep its identity between renders: TanStack Table memoizes its sorted
 * rows on it, and each recomputation queues a page-index reset, which sets state and renders
 * again. A sorting array built anew on every render made that an endless render loop that froze
 * the tab on the first header click.
 */
export function useUrlSorting<S extends string>({ sort, dir }: UrlSort<S>, onChange: (next: UrlSort<S>) => void, fallback: S) {
  const sorting = useMemo<SortingState>(() => [{ id: sort, desc: dir === 'desc' }], [sort, dir]);
  const onSortingChange = useCallback<OnChangeFn<SortingState>>(
    (updater) => {
      const next = (typeof updater === 'function' ? updater(sorting) : updater)[0];
      // TanStack Table names columns by the ids it was given: the URL's sort values.
      onChange({ sort: (next?.id as S | undefined) ?? fallback, dir: next?.desc ? 'desc' : 'asc' });
    },
    [sorting, onChange, fallback],
  );
  /** A header's sort: its direction while it sorts the table; a click sorts by it, or reverses it. */
  const header = useCallback(
    (id: S) => ({
      direction: id === sort ? dir : null,
      onToggle: () => onChange({ sort: id, dir: id === sort && dir === 'asc' ? 'desc' : 'asc' }),
    }),
    [sort, dir, onChange],
  );
  return { sorting, onSortingChange, header };
}
