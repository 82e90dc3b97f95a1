import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useRef } from 'react';
import { cellClass, HeaderCell, rowClass } from '../../../components/ui/table';
import { shortId, taskName, useNames, verticalName, type Names } from '../../../data';
import { formatMicros } from '../../../lib/money';
import type { UrlSort } from '../../../lib/use-url-sorting';
import { TRIAGE_STATE_LABELS, type SortField, type TriageRow, type TriageState } from '../../../domain/triage';

const ROW_HEIGHT = 40;

const STATE_STYLES: Record<TriageState, string> = {
  undecided: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
  adopted: 'bg-green-100 text-green-800 dark:bg-green-900/60 dark:text-green-100',
  disputed: 'bg-red-100 text-red-800 dark:bg-red-900/60 dark:text-red-100',
  waiting: 'bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-100',
  failed: 'bg-red-600 text-white',
  discarded: 'bg-slate-200 text-slate-700 line-through dark:bg-slate-700 dark:text-slate-200',
};

const COLUMNS: { id: SortField; label: string; align?: 'right' }[] = [
  { id: 'id', label: 'Item' },
  { id: 'state', label: 'State' },
  { id: 'task', label: 'Task / vertical' },
  { id: 'grade', label: 'Grade' },
  { id: 'quality', label: 'Quality', align: 'right' },
  { id: 'source', label: 'Source' },
  { id: 'price', label: 'Price', align: 'right' },
  { id: 'received', label: 'Received' },
];

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));
/** Local date and time, by hand: a formatter per row is the slow part of a long list. */
function received(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
const dash = (v: string | number | null) => (v === null ? '—' : String(v));

/** The task's or vertical's name, and its ID for the hover. */
function source(item: TriageRow['item'], names: Names): { text: string; title?: string } {
  if (item.taskId !== null) return { text: taskName(names, item.taskId), title: `Task ${item.taskId}` };
  if (item.verticalId !== null) return { text: verticalName(names, item.verticalId), title: `Vertical ${item.verticalId}` };
  return { text: '—' };
}

const Row = memo(function Row({ row, index, names }: { row: TriageRow; index: number; names: Names }) {
  const item = row.item;
  const what = source(item, names);
  // A charged adopt a budget limit holds is not just waiting: it is never sent until released.
  const held = row.entry?.state === 'held-budget';
  // A teammate's decision through the team hub names them (the local part of the email; the hover has it all).
  const by = row.entry?.decidedBy;
  return (
    <tr className={rowClass} style={{ height: ROW_HEIGHT }} aria-rowindex={index + 2}>
      <td className={`${cellClass} max-w-48 truncate font-mono text-xs`} title={item.itemId}>
        {shortId(item.itemId)}
      </td>
      <td className={cellClass}>
        <span className={`rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ${STATE_STYLES[row.state]}`} title={by}>
          {held
            ? 'Held by budget'
            : by && row.state !== 'undecided'
              ? `${TRIAGE_STATE_LABELS[row.state]} by ${by.split('@')[0]}`
              : TRIAGE_STATE_LABELS[row.state]}
        </span>
      </td>
      <td className={`${cellClass} max-w-48 truncate`} title={what.title}>
        {what.text}
      </td>
      <td className={cellClass}>{dash(item.qualityGrade)}</td>
      <td className={`${cellClass} text-right tabular-nums`}>{dash(item.qualityScore)}</td>
      <td className={`${cellClass} max-w-32 truncate`}>{dash(item.source)}</td>
      <td className={`${cellClass} text-right font-mono tabular-nums`}>{item.priceMicros === null ? '—' : formatMicros(item.priceMicros)}</td>
      <td className={`${cellClass} whitespace-nowrap tabular-nums`}>{received(item.receivedAt)}</td>
    </tr>
  );
});

/**
 * The matching items as a table whose rows are rendered only where the scroll position is (about
 * 30 rows in the DOM for 100,000 items). The headers sort through the URL (`onSort`), and the
 * rows arrive sorted: the table does no sorting of its own.
 */
export function ItemsTable({ rows, sort, onSort }: { rows: readonly TriageRow[]; sort: UrlSort<SortField>; onSort: (field: SortField) => void }) {
  const scroller = useRef<HTMLDivElement>(null);
  const names = useNames();
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });
  const virtual = virtualizer.getVirtualItems();
  const top = virtual[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (virtual.at(-1)?.end ?? 0);
  return (
    <div ref={scroller} className="h-[60vh] min-h-64 overflow-auto rounded-lg border border-slate-200 lg:h-[calc(100dvh-16rem)] dark:border-slate-700">
      <table className="w-full border-collapse text-left text-sm" aria-rowcount={rows.length + 1}>
        <caption className="sr-only">Matching items</caption>
        <thead className="sticky top-0 z-10 bg-slate-50 dark:bg-slate-800">
          <tr aria-rowindex={1}>
            {COLUMNS.map((c) => (
              <HeaderCell
                key={c.id}
                header={{
                  label: c.label,
                  align: c.align,
                  sort: { direction: sort.sort === c.id ? sort.dir : null, onToggle: () => onSort(c.id) },
                }}
              />
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={COLUMNS.length} className="px-3 py-6 text-center text-slate-500">
                No item matches these filters.
              </td>
            </tr>
          ) : (
            <>
              {top > 0 && <tr aria-hidden="true" style={{ height: top }} />}
              {virtual.map((v) => (
                <Row key={rows[v.index]!.item.itemId} row={rows[v.index]!} index={v.index} names={names} />
              ))}
              {bottom > 0 && <tr aria-hidden="true" style={{ height: bottom }} />}
            </>
          )}
        </tbody>
      </table>
    </div>
  );
}
