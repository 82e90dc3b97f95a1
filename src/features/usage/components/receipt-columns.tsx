import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import type { Receipt } from '../../../api/contract';
import { Time } from '../../../components/ui/time';
import { formatMicros } from '../../../lib/money';
import { receiptMicros } from '../model';

const column = createColumnHelper<Receipt>();
const text = (value: unknown) => (value === null || value === undefined ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value));

/**
 * Columns for every known receipt field, then one per unknown field the server sent. The
 * subscription reads as its name (`nameOf`), sorted by it, with its ID on hover.
 */
export function receiptColumns(extra: readonly string[], nameOf: (subscriptionId: string) => string = (id) => id): ColumnDef<Receipt, unknown>[] {
  return [
    column.accessor('created_at', { header: 'Time', cell: (i) => <Time value={i.getValue()} /> }),
    column.accessor((r) => nameOf(r.subscription_id), {
      id: 'subscription_id',
      header: 'Subscription',
      cell: (i) => <span title={`Subscription ${i.row.original.subscription_id}`}>{i.getValue()}</span>,
    }),
    column.accessor('kind', { header: 'Kind' }),
    column.accessor((r) => r.item_id ?? r.submission_id ?? '', {
      id: 'item',
      header: 'Item / submission',
      cell: (i) => <code className="text-xs break-all">{text(i.getValue() || null)}</code>,
    }),
    column.accessor('quantity', { header: 'Quantity', cell: (i) => <span className="tabular-nums">{i.getValue()}</span> }),
    column.accessor((r) => receiptMicros(r), {
      id: 'amount_usd',
      header: 'Amount',
      cell: (i) => <span className="font-mono tabular-nums">{formatMicros(i.getValue())}</span>,
    }),
    column.accessor('receipt_id', { header: 'Receipt', cell: (i) => <code className="text-xs">{i.getValue()}</code> }),
    ...extra.map((field) =>
      column.accessor((r) => (r as Record<string, unknown>)[field], {
        id: `extra:${field}`,
        header: field,
        cell: (i) => <span className="break-all text-xs">{text(i.getValue())}</span>,
        sortingFn: (a, b, id) => text(a.getValue(id)).localeCompare(text(b.getValue(id))),
      }),
    ),
  ] as ColumnDef<Receipt, unknown>[];
}
