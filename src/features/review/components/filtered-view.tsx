import { useNavigate } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { Button } from '../../../components/ui/button';
import type { Connection } from '../../../data';
import { describeFilters, FILTER_KEYS, filterRows, filtersOf, type TriageFilters, type TriageRow } from '../../../domain/triage';
import { useTextIndex, useTriageRows } from '../../triage';
import type { ReviewSearch } from '../search';

export interface ReviewFilter {
  /** The IDs of the items to list; null while the store (or the content index) is read. */
  ids: ReadonlySet<string> | null;
  description: string;
}

/**
 * The items of a filtered review: those of the subscription's stored items that match the URL's
 * triage filters (the items view's engine, same rules, same counts). An item listed once stays
 * listed while the filters stay the same: deciding it under "undecided" must not pull it from
 * under the keys (its undo, the next item), so a decision changes its state, not the list.
 */
export function useReviewFilter(connection: Connection, subscriptionId: string, search: ReviewSearch): ReviewFilter {
  const filters = useMemo(() => filtersOf(search), [search]);
  const signature = JSON.stringify(filters);
  const { scope, version, rows } = useTriageRows(connection, subscriptionId);
  const q = filters.q?.trim();
  const text = useTextIndex(scope, subscriptionId, version, !!q);
  const ready = rows !== null && (!q || text.index !== undefined);
  const matching = useMemo(() => (ready ? filterRows(rows, JSON.parse(signature) as TriageFilters, text.index) : null), [ready, rows, signature, text.index]);
  // Adjusted while rendering (React's pattern for state derived from a changing input): the
  // IDs listed so far under these filters, plus every current match.
  const [listed, setListed] = useState<{ signature: string; matching: readonly TriageRow[]; ids: ReadonlySet<string> } | null>(null);
  if (matching && listed?.matching !== matching) {
    const next = new Set(listed?.signature === signature ? listed.ids : []);
    for (const row of matching) next.add(row.item.itemId);
    setListed({ signature, matching, ids: next });
  }
  const ids = matching && listed?.signature === signature ? listed.ids : null;
  return { ids, description: describeFilters(filters) };
}

/** "Reviewing 1,240 items: undecided, quality ≤ 0.6 — Clear filter". */
export function FilterBanner({ filter, count }: { filter: ReviewFilter; count: number }) {
  const navigate = useNavigate({ from: '/review/$subscriptionId' });
  const clear = () =>
    void navigate({
      search: (prev) => ({ ...prev, ...(Object.fromEntries(FILTER_KEYS.map((k) => [k, undefined])) as Partial<TriageFilters>), lot: undefined }),
    });
  return (
    <div
      role="status"
      className="flex flex-wrap items-center gap-2 rounded-md border border-brand-100 bg-brand-100/40 px-3 py-2 text-sm dark:border-brand-700 dark:bg-brand-700/20"
    >
      <span>
        {filter.ids === null
          ? 'Finding the matching items…'
          : `Reviewing ${count.toLocaleString('en-US')} ${count === 1 ? 'item' : 'items'}: ${filter.description}`}
      </span>
      <Button variant="ghost" size="sm" onClick={clear}>
        Clear filter
      </Button>
    </div>
  );
}
