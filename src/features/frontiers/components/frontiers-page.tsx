import { useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useCallback, useMemo } from 'react';
import type { Frontier } from '../../../api/contract';
import { inputClass } from '../../../components/ui/field';
import { Badge, PageHeader } from '../../../components/ui/panel';
import { cellClass, rowClass, SimpleTable } from '../../../components/ui/table';
import { useUrlSorting } from '../../../lib/use-url-sorting';
import { frontiersQuery } from '../queries';
import type { FrontiersSearch } from '../search';
import type { Connection } from '../../../data';

/*
 * The first page most users see: a handful of frontiers, so the console's table without TanStack
 * Table keeps this page's JavaScript small (the library loads with the Usage page, where it earns
 * its weight); the sort is the same URL-bound hook.
 */
const COLUMNS: { id: FrontiersSearch['sort'] | null; label: string; numeric?: boolean }[] = [
  { id: 'title', label: 'Title' },
  { id: null, label: 'Status' },
  { id: 'task_count', label: 'Tasks', numeric: true },
  { id: 'total_submissions', label: 'Submissions', numeric: true },
  { id: null, label: 'ID' },
];

function sortFrontiers(frontiers: readonly Frontier[], sort: FrontiersSearch['sort'], dir: FrontiersSearch['dir']): Frontier[] {
  const factor = dir === 'desc' ? -1 : 1;
  return [...frontiers].sort((a, b) => {
    const order = sort === 'title' ? a.title.localeCompare(b.title) : a[sort] - b[sort];
    return (order || a.frontier_id.localeCompare(b.frontier_id)) * factor;
  });
}

/** Frontiers (spec 4.1): filter, search and sort, all kept in the URL. */
export function FrontiersPage({ connection, search }: { connection: Connection | null; search: FrontiersSearch }) {
  const { data } = useSuspenseQuery(frontiersQuery(connection, search.status));
  const navigate = useNavigate({ from: '/frontiers/' });
  const setSearch = useCallback((change: Partial<FrontiersSearch>) => void navigate({ search: (prev) => ({ ...prev, ...change }), replace: true }), [navigate]);
  const { header } = useUrlSorting(search, setSearch, 'title');
  const rows = useMemo(() => {
    const query = search.q.toLowerCase();
    return sortFrontiers(
      data.filter((f) => f.title.toLowerCase().includes(query)),
      search.sort,
      search.dir,
    );
  }, [data, search.q, search.sort, search.dir]);

  return (
    <div>
      <PageHeader title="Frontiers" description="Data sources and their tasks. Public: no key needed." />
      <div className="mb-3 flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor="frontier-status" className="text-sm font-medium">
            Status
          </label>
          <select
            id="frontier-status"
            className={inputClass}
            value={search.status}
            onChange={(e) => setSearch({ status: e.target.value as FrontiersSearch['status'] })}
          >
            <option value="online">Online</option>
            <option value="all">All (include historical)</option>
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="frontier-search" className="text-sm font-medium">
            Search titles
          </label>
          <input id="frontier-search" type="search" className={`${inputClass} w-64`} value={search.q} onChange={(e) => setSearch({ q: e.target.value })} />
        </div>
        <p className="text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
          {rows.length} of {data.length} frontiers
        </p>
      </div>
      <SimpleTable
        caption="Frontiers"
        headers={COLUMNS.map((column) => ({ label: column.label, sort: column.id ? header(column.id) : undefined }))}
        empty="No frontier matches."
        isEmpty={rows.length === 0}
      >
        {rows.map((f) => (
          <tr key={f.frontier_id} className={rowClass}>
            <td className={cellClass}>
              <Link to="/frontiers/$frontierId" params={{ frontierId: f.frontier_id }} className="font-medium text-brand-600 underline dark:text-brand-100">
                {f.title}
              </Link>
            </td>
            <td className={cellClass}>
              <Badge tone={f.status === 'ONLINE' ? 'good' : 'neutral'}>{f.status}</Badge>
            </td>
            <td className={`${cellClass} tabular-nums`}>{f.task_count.toLocaleString()}</td>
            <td className={`${cellClass} tabular-nums`}>{f.total_submissions.toLocaleString()}</td>
            <td className={cellClass}>
              <code className="text-xs">{f.frontier_id}</code>
            </td>
          </tr>
        ))}
      </SimpleTable>
    </div>
  );
}
