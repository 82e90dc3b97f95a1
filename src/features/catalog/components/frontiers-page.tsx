import { useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { getCoreRowModel, getFilteredRowModel, getSortedRowModel, useReactTable, type SortingState } from '@tanstack/react-table';
import { DataTable } from '../../../components/ui/data-table';
import { inputClass } from '../../../components/ui/field';
import { PageHeader } from '../../../components/ui/panel';
import { useActiveConnection } from '../../connections';
import { frontiersQuery } from '../queries';
import { FRONTIER_SORTS, type FrontiersSearch } from '../search';
import { frontierColumns } from './frontier-columns';

/** Frontiers (spec 4.1): filter, search and sort, all kept in the URL. */
export function FrontiersPage({ search }: { search: FrontiersSearch }) {
  const connection = useActiveConnection();
  const { data } = useSuspenseQuery(frontiersQuery(connection, search.status));
  const navigate = useNavigate({ from: '/frontiers/' });
  const setSearch = (change: Partial<FrontiersSearch>) => void navigate({ search: (prev) => ({ ...prev, ...change }), replace: true });
  const sorting: SortingState = [{ id: search.sort, desc: search.dir === 'desc' }];

  const table = useReactTable({
    data,
    columns: frontierColumns,
    state: { sorting, globalFilter: search.q },
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      const first = next[0];
      const sort = FRONTIER_SORTS.find((s) => s === first?.id) ?? 'title';
      setSearch({ sort, dir: first?.desc ? 'desc' : 'asc' });
    },
    enableSortingRemoval: false,
    globalFilterFn: (row, _id, filter: string) => row.original.title.toLowerCase().includes(filter.toLowerCase()),
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
  });

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
          <input
            id="frontier-search"
            type="search"
            className={`${inputClass} w-64`}
            value={search.q}
            onChange={(e) => setSearch({ q: e.target.value })}
          />
        </div>
        <p className="text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
          {table.getRowModel().rows.length} of {data.length} frontiers
        </p>
      </div>
      <DataTable table={table} caption="Frontiers" empty="No frontier matches." />
    </div>
  );
}
