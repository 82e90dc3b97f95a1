import { Link, useNavigate } from '@tanstack/react-router';
import { useCallback, useDeferredValue, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { inputClass } from '../../../components/ui/field';
import { Badge, PageHeader, Panel } from '../../../components/ui/panel';
import type { Connection, ConnectionSubscription } from '../../../data';
import { cx } from '../../../lib/cx';
import { useUrlSorting, type UrlSort } from '../../../lib/use-url-sorting';
import {
  describeFilters,
  facetCounts,
  FILTER_KEYS,
  filterRows,
  filtersOf,
  hasFilters,
  sortRows,
  type SortField,
  type TriageFilters,
  type TriageRow,
  type TriageSearch,
} from '../../../domain/triage';
import { useTextIndex, useTriageRows } from '../../triage';
import { FacetPanel, type SetFilters } from './facet-panel';
import { ItemsTable } from './items-table';

const linkClass = 'rounded-md px-3 py-1.5 text-sm font-medium';

/** Runs one step of the query and records its time (`dds:triage-<step>`), which bench:triage reads. */
function measured<T>(step: string, run: () => T): T {
  const start = performance.now();
  const result = run();
  performance.measure(`dds:triage-${step}`, { start });
  return result;
}
const count = (n: number) => n.toLocaleString('en-US');

/** The text search: applied as the user pauses typing, replacing the history entry (one entry per search, not per key). */
function SearchBox({ value, onCommit }: { value: string | undefined; onCommit: (q: string | undefined) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const id = useId();
  useEffect(() => {
    const input = ref.current;
    if (input && document.activeElement !== input) input.value = value ?? '';
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const commit = () => {
    clearTimeout(timer.current);
    const q = ref.current?.value.trim() || undefined;
    if (q !== value) onCommit(q);
  };
  return (
    <div className="flex min-w-48 flex-1 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        Search content
      </label>
      <input
        ref={ref}
        id={id}
        type="search"
        defaultValue={value ?? ''}
        placeholder="Words in the delivered records, or an ID"
        className={cx(inputClass, 'w-full')}
        onChange={() => {
          clearTimeout(timer.current);
          timer.current = setTimeout(commit, 300);
        }}
        onKeyDown={(e) => e.key === 'Enter' && commit()}
      />
    </div>
  );
}

/**
 * The items view of one subscription: everything the local store holds, narrowed by filters whose
 * every value shows how many items it would give, sorted by a column, all of it in the URL.
 */
/** What the actions on the matching items (bulk decisions, a sample, an export) are given. */
interface MatchingActionsProps {
  /** The matching items, sorted as shown. */
  rows: readonly TriageRow[];
  /** Every item kept for the subscription. */
  allRows: readonly TriageRow[];
  filters: TriageFilters;
  /** The matching items in words ("Undecided items of …, filter: …"), for a lot's source. */
  description: string;
}

/**
 * The items kept for one subscription, filtered, sorted and searched. The actions on the matching
 * items belong to other features (bulk, sampling, export): the route composes them into `actions`.
 */
export function ItemsPage({
  connection,
  subscription,
  search,
  actions,
}: {
  connection: Connection;
  subscription: ConnectionSubscription;
  search: TriageSearch;
  actions: (props: MatchingActionsProps) => ReactNode;
}) {
  const navigate = useNavigate({ from: '/items/$subscriptionId' });
  const setFilters = useCallback<SetFilters>(
    (change, options) => void navigate({ search: (prev) => ({ ...prev, ...change }), replace: options?.replace ?? false }),
    [navigate],
  );
  // The filters keep their identity while only the sort changes: a sort does not filter and count again.
  const filterKey = JSON.stringify(filtersOf(search));
  const filters = useMemo(() => JSON.parse(filterKey) as TriageFilters, [filterKey]);
  const sort: UrlSort<SortField> = { sort: search.sort ?? 'received', dir: search.dir ?? 'asc' };
  const { header } = useUrlSorting(sort, (next) => setFilters({ sort: next.sort, dir: next.dir } as Partial<TriageSearch>), 'received');

  const { scope, version, rows, error } = useTriageRows(connection, subscription.id);
  const q = filters.q?.trim();
  const text = useTextIndex(scope, subscription.id, version, !!q);
  // A filter change paints the controls first; the table and counts follow (a few ms at 100,000).
  const deferredFilters = useDeferredValue(filters);
  const matching = useMemo(() => (rows ? measured('filter', () => filterRows(rows, deferredFilters, text.index)) : []), [rows, deferredFilters, text.index]);
  const facets = useMemo(() => (rows ? measured('facets', () => facetCounts(rows, deferredFilters, text.index)) : null), [rows, deferredFilters, text.index]);
  const sorted = useMemo(() => measured('sort', () => sortRows(matching, sort.sort, sort.dir)), [matching, sort.sort, sort.dir]);
  const [facetsOpen, setFacetsOpen] = useState(false);
  const filtered = hasFilters(filters);
  const clear = () => setFilters(Object.fromEntries(FILTER_KEYS.map((k) => [k, undefined])) as Partial<TriageFilters>);
  const label = subscription.label ?? subscription.id;

  return (
    <div className="flex flex-col gap-3">
      <PageHeader
        title={`Items · ${label}`}
        description="Every item kept on this device for this subscription. Filter, sort and search it; the counts beside each value say how many items it would give."
        actions={
          <>
            <Badge tone={subscription.kind === 'live' ? 'info' : 'neutral'}>{subscription.kind}</Badge>
            <Link
              to="/stats/$subscriptionId"
              params={{ subscriptionId: subscription.id }}
              className={cx(linkClass, 'border border-slate-300 dark:border-slate-600')}
            >
              Statistics
            </Link>
            <Link to="/lots" className={cx(linkClass, 'border border-slate-300 dark:border-slate-600')}>
              Lots
            </Link>
          </>
        }
      />
      {error ? <ErrorPanel error={error} /> : null}
      <Panel aria-label="Toolbar" className="flex flex-wrap items-end gap-3 p-3">
        <SearchBox value={filters.q} onCommit={(value) => setFilters({ q: value }, { replace: true })} />
        <p role="status" className="text-sm">
          {rows === null ? (
            'Reading the items kept on this device…'
          ) : (
            <>
              <strong>{count(matching.length)}</strong> of {count(rows.length)} items match
            </>
          )}
          {text.building && <span className="ml-2 text-slate-600 dark:text-slate-400">Searching content…</span>}
        </p>
        {filtered && (
          <Button variant="secondary" size="sm" onClick={clear}>
            Clear filters
          </Button>
        )}
        <Link
          to="/review/$subscriptionId"
          params={{ subscriptionId: subscription.id }}
          search={{ mode: 'new', limit: 50, ...filters }}
          className={cx(linkClass, 'bg-brand-600 text-white hover:bg-brand-700', matching.length === 0 && 'pointer-events-none opacity-50')}
          aria-disabled={matching.length === 0 || undefined}
        >
          Review these {count(matching.length)}
        </Link>
        {/* Bulk decisions and export work on every matching item the store holds, not one page. */}
        {rows !== null &&
          actions({
            rows: sorted,
            allRows: rows,
            filters: filtersOf(search),
            description: `Undecided items of ${label}${filtered ? `, filter: ${describeFilters(filters)}` : ', no filter'}`,
          })}
      </Panel>
      <div className="grid gap-4 lg:grid-cols-[16rem_minmax(0,1fr)]">
        <aside aria-label="Filters" className="min-w-0">
          <Button
            variant="secondary"
            className="w-full lg:hidden"
            aria-expanded={facetsOpen}
            aria-controls="item-facets"
            onClick={() => setFacetsOpen(!facetsOpen)}
          >
            {facetsOpen ? 'Hide filters' : 'Show filters'}
          </Button>
          <div id="item-facets" className={cx('mt-3 lg:mt-0 lg:block', facetsOpen ? 'block' : 'hidden')}>
            <Panel className="p-3 lg:max-h-[calc(100dvh-16rem)] lg:overflow-auto">
              {facets && <FacetPanel facets={facets} filters={filters} onChange={setFilters} />}
            </Panel>
          </div>
        </aside>
        <div className="min-w-0">
          <ItemsTable rows={sorted} sort={sort} onSort={(field) => header(field).onToggle()} />
        </div>
      </div>
    </div>
  );
}
