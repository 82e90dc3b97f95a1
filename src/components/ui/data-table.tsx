import { flexRender, type Table } from '@tanstack/react-table';
import { cellClass, EmptyRow, HeaderCell, rowClass, TableFrame } from './table';

/**
 * A TanStack Table rendered with the console's one table (table.tsx). Kept in its own file so
 * pages without TanStack Table (the first page among them) do not load it.
 */
export function DataTable<T>({ table, caption, empty = 'Nothing to show.' }: { table: Table<T>; caption: string; empty?: string }) {
  const rows = table.getRowModel().rows;
  return (
    <TableFrame caption={caption}>
      <thead className="bg-slate-50 dark:bg-slate-800">
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((header) => {
              const sorted = header.column.getIsSorted();
              return (
                <HeaderCell
                  key={header.id}
                  header={{
                    label: flexRender(header.column.columnDef.header, header.getContext()),
                    sort: header.column.getCanSort() ? { direction: sorted || null, onToggle: () => header.column.toggleSorting() } : undefined,
                  }}
                />
              );
            })}
          </tr>
        ))}
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <EmptyRow columns={table.getAllLeafColumns().length}>{empty}</EmptyRow>
        ) : (
          rows.map((row) => (
            <tr key={row.id} className={rowClass}>
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} className={`${cellClass} align-top`}>
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              ))}
            </tr>
          ))
        )}
      </tbody>
    </TableFrame>
  );
}
