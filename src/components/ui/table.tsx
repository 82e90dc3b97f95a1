import type { ReactNode } from 'react';
import { cx } from '../../lib/cx';

/**
 * The one table of the console: a bordered, horizontally scrolling frame with a caption for
 * screen readers, one header cell (sortable or not), and one empty state. SimpleTable takes rows
 * as children; DataTable (data-table.tsx, with TanStack Table) renders through the same parts.
 */
type SortDirection = 'asc' | 'desc';

export interface Header {
  label: ReactNode;
  /** Distinguishes headers whose label is not a string. */
  key?: string;
  align?: 'right';
  /** Present when the column can be sorted: its current direction, or null when another column sorts. */
  sort?: { direction: SortDirection | null; onToggle: () => void };
}

export function TableFrame({ caption, showCaption = false, children }: { caption: string; showCaption?: boolean; children: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700">
      <table className="w-full border-collapse text-left text-sm">
        <caption className={showCaption ? 'px-3 py-2 text-left font-semibold' : 'sr-only'}>{caption}</caption>
        {children}
      </table>
    </div>
  );
}

/** A column header; a sortable one is a button, and its order is announced with aria-sort. */
export function HeaderCell({ header }: { header: Header }) {
  const direction = header.sort?.direction ?? null;
  return (
    <th
      scope="col"
      aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined}
      className={cx('px-3 py-2 font-semibold text-slate-700 dark:text-slate-200', header.align === 'right' && 'text-right')}
    >
      {header.sort ? (
        <button type="button" onClick={header.sort.onToggle} className="inline-flex items-center gap-1 hover:underline">
          {header.label}
          <span aria-hidden="true">{direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : '↕'}</span>
        </button>
      ) : (
        header.label
      )}
    </th>
  );
}

function HeaderRow({ headers }: { headers: readonly (string | Header)[] }) {
  return (
    <thead className="bg-slate-50 dark:bg-slate-800">
      <tr>
        {headers.map((h, index) => {
          const header = typeof h === 'string' ? { label: h } : h;
          return <HeaderCell key={header.key ?? (typeof header.label === 'string' ? header.label : index)} header={header} />;
        })}
      </tr>
    </thead>
  );
}

export function EmptyRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={columns} className="px-3 py-6 text-center text-slate-500">
        {children}
      </td>
    </tr>
  );
}

/** Row and cell classes shared by every table, so they look alike. */
export const rowClass = 'border-t border-slate-200 dark:border-slate-700';
export const cellClass = 'px-3 py-2';

/** A table whose rows are given as children. */
export function SimpleTable({
  caption,
  showCaption,
  headers,
  empty,
  isEmpty,
  children,
}: {
  caption: string;
  showCaption?: boolean;
  headers: readonly (string | Header)[];
  empty: string;
  isEmpty: boolean;
  children: ReactNode;
}) {
  return (
    <TableFrame caption={caption} showCaption={showCaption}>
      <HeaderRow headers={headers} />
      <tbody>{isEmpty ? <EmptyRow columns={headers.length}>{empty}</EmptyRow> : children}</tbody>
    </TableFrame>
  );
}
