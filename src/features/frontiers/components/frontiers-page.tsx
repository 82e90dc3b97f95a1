import { useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import type { Frontier } from '../../../api/contract';
import { inputClass } from '../../../components/ui/field';
import { Badge, PageHeader } from '../../../components/ui/panel';
import { frontiersQuery } from '../queries';
import type { FrontiersSearch } from '../search';
import type { Connection } from '../../../data';

/*
 * The first page most users see: a handful of frontiers, so a plain sorted table keeps this
 * page's JavaScript small (the table library loads with the Usage page, where it earns its weight).
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
  const setSearch = (change: Partial<FrontiersSearch>) => void navigate({ search: (prev) => ({ ...prev, ...change }), replace: true });
  const rows = useMemo(() => {
    const query = search.q.toLowerCase();
    return sortFrontiers(data.filter((f) => f.title.toLowerCase().includes(query)), search.sort, search.dir);
  }, [data, search.q, search.sort, search.dir]);

  return (
    <div>
      <PageHeader title="Frontiers" description="Data sources and their tasks. Public: no key needed." />
      <div className="mb-3 flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor="frontier-status" className="text-sm font-medium">
            Status
          </label>
          <select id="frontier-status" className={inputClass} value={search.status} onChange={(e) => setSearch({ status: e.target.value as FrontiersSearch['status'] })}>
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
      <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700">
        <table className="w-full border-collapse text-left text-sm">
          <caption className="sr-only">Frontiers</caption>
          <thead className="bg-slate-50 dark:bg-slate-800">
            <tr>
              {COLUMNS.map((column) => {
                const sorted = column.id === search.sort ? search.dir : null;
                return (
                  <th
                    key={column.label}
                    scope="col"
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                    className="px-3 py-2 font-semibold text-slate-700 dark:text-slate-200"
                  >
                    {column.id ? (
                      <button
                        type="button"
                        className="inline-flex items-center gap-1 hover:underline"
                        onClick={() => setSearch({ sort: column.id!, dir: sorted === 'asc' ? 'desc' : 'asc' })}
                      >
                        {column.label}
                        <span aria-hidden="true">{sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}</span>
                      </button>
                    ) : (
                      column.label
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={COLUMNS.length} className="px-3 py-6 text-center text-slate-500">
                  No frontier matches.
                </td>
              </tr>
            )}
            {rows.map((f) => (
              <tr key={f.frontier_id} className="border-t border-slate-200 dark:border-slate-700">
                <td className="px-3 py-2">
                  <Link to="/frontiers/$frontierId" params={{ frontierId: f.frontier_id }} className="font-medium text-brand-600 underline dark:text-brand-100">
                    {f.title}
                  </Link>
                </td>
                <td className="px-3 py-2">
                  <Badge tone={f.status === 'ONLINE' ? 'good' : 'neutral'}>{f.status}</Badge>
                </td>
                <td className="px-3 py-2 tabular-nums">{f.task_count.toLocaleString()}</td>
                <td className="px-3 py-2 tabular-nums">{f.total_submissions.toLocaleString()}</td>
                <td className="px-3 py-2">
                  <code className="text-xs">{f.frontier_id}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
