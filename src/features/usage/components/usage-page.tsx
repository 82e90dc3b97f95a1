import { useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { getCoreRowModel, getSortedRowModel, useReactTable } from '@tanstack/react-table';
import { lazy, Suspense, useCallback, useMemo, type ReactNode } from 'react';
import { LIMITS } from '../../../api/contract';
import { Button } from '../../../components/ui/button';
import { DataTable } from '../../../components/ui/data-table';
import { DateField } from '../../../components/ui/date-field';
import { inputClass } from '../../../components/ui/field';
import { PageHeader, Panel, Skeleton } from '../../../components/ui/panel';
import { LatestSelect } from '../../../components/ui/latest-select';
import { cellClass, rowClass, SimpleTable } from '../../../components/ui/table';
import { Total } from '../../../components/ui/total';
import { downloadText, toCsv } from '../../../lib/csv';
import { sumMicros } from '../../../lib/money';
import { useUrlSorting } from '../../../lib/use-url-sorting';
import { subscriptionNames, type Connection } from '../../../data';
import {
  dailySpend,
  exportRows,
  extraFields,
  filterReceipts,
  KNOWN_RECEIPT_FIELDS,
  receiptMicros,
  totalsByDay,
  totalsBySubscription,
  type Total as TotalRow,
} from '../model';
import { SPEC_WARNINGS, usageQuery } from '../../../data';
import type { UsageSearch } from '../search';
import { receiptColumns } from './receipt-columns';

const SpendChart = lazy(() => import('./spend-chart'));

function TotalsTable({
  caption,
  keyLabel,
  totals,
  showKey = (key) => key,
}: {
  caption: string;
  keyLabel: string;
  totals: TotalRow[];
  /** How a row's key reads (a subscription's name, its ID on hover). */
  showKey?: (key: string) => ReactNode;
}) {
  return (
    <SimpleTable
      caption={caption}
      showCaption
      headers={[keyLabel, { label: 'Receipts', align: 'right' }, { label: 'Quantity', align: 'right' }, { label: 'Amount', align: 'right' }]}
      empty="No receipts."
      isEmpty={totals.length === 0}
    >
      {totals.map((t) => (
        <tr key={t.key} className={rowClass}>
          <th scope="row" className={`${cellClass} font-normal`}>
            {showKey(t.key)}
          </th>
          <td className={`${cellClass} text-right tabular-nums`}>{t.receipts}</td>
          <td className={`${cellClass} text-right tabular-nums`}>{t.quantity}</td>
          <td className={`${cellClass} text-right`}>
            <Total micros={t.micros} />
          </td>
        </tr>
      ))}
    </SimpleTable>
  );
}

/** Usage (spec 4.7): receipts as a table, totals, spend per day, and exports. */
export function UsagePage({ connection, search }: { connection: Connection; search: UsageSearch }) {
  const navigate = useNavigate({ from: '/usage' });
  const setSearch = useCallback((change: Partial<UsageSearch>) => void navigate({ search: (prev) => ({ ...prev, ...change }), replace: true }), [navigate]);
  const { data } = useSuspenseQuery(usageQuery(connection, search.limit));
  const receipts = data.data;
  const filtered = useMemo(() => filterReceipts(receipts, search), [receipts, search]);
  const extra = useMemo(() => extraFields(receipts), [receipts]);
  // Every subscription a person reads on this page is named: its name in the connection, else its ID.
  const names = useMemo(
    () =>
      subscriptionNames(
        connection,
        receipts.map((r) => r.subscription_id),
      ),
    [connection, receipts],
  );
  const nameOf = useCallback((id: string) => names.get(id) ?? id, [names]);
  const columns = useMemo(() => receiptColumns(extra, nameOf), [extra, nameOf]);
  const { sorting, onSortingChange } = useUrlSorting(search, setSearch, 'created_at');
  const table = useReactTable({
    data: filtered,
    columns,
    state: { sorting },
    onSortingChange,
    enableSortingRemoval: false,
    // One page of at most 200 rows: no paging state to reset when the rows change.
    autoResetPageIndex: false,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });
  const spend = useMemo(() => dailySpend(filtered, { from: search.from, to: search.to }), [filtered, search.from, search.to]);
  const total = sumMicros(filtered.map(receiptMicros));
  const subscriptions = [...names.keys()].sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
  const kinds = [...new Set(receipts.map((r) => r.kind))].sort();
  const complete = receipts.length < search.limit;
  const exportColumns = [...KNOWN_RECEIPT_FIELDS, ...extra];
  const sortedRows = table.getSortedRowModel().rows.map((r) => r.original);
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title="Usage"
        description={
          complete
            ? `All ${receipts.length} receipts of your organization (fewer than the ${search.limit} asked for).`
            : `The latest ${search.limit} receipts of your organization. The service offers no paging for usage: older receipts are not shown here.`
        }
        actions={
          <LatestSelect label="How many receipts" value={search.limit} options={[50, 100, LIMITS.usage.max]} onChange={(limit) => setSearch({ limit })} />
        }
      />
      <Panel aria-label="Warnings about cost" className="border-amber-300 bg-amber-50 text-sm dark:border-amber-800 dark:bg-amber-950">
        <ul className="list-disc pl-5">
          {SPEC_WARNINGS.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      </Panel>
      <Panel aria-label="Filters" className="flex flex-wrap items-end gap-3 text-sm">
        <label className="flex flex-col gap-1">
          <span className="font-medium">Subscription</span>
          <select className={inputClass} value={search.sub ?? ''} onChange={(e) => setSearch({ sub: e.target.value || undefined })}>
            <option value="">All</option>
            {subscriptions.map((s) => (
              <option key={s} value={s}>
                {nameOf(s)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="font-medium">Kind</span>
          <select className={inputClass} value={search.kind ?? ''} onChange={(e) => setSearch({ kind: e.target.value || undefined })}>
            <option value="">All</option>
            {kinds.map((k) => (
              <option key={k}>{k}</option>
            ))}
          </select>
        </label>
        <DateField label="From" value={search.from} onCommit={(from) => setSearch({ from })} />
        <DateField label="To" value={search.to} onCommit={(to) => setSearch({ to })} />
        <div className="ml-auto flex gap-2">
          <Button onClick={() => downloadText(`usage-${stamp}.csv`, toCsv(exportColumns, exportRows(sortedRows, exportColumns)), 'text/csv')}>
            Export CSV
          </Button>
          <Button
            onClick={() => downloadText(`usage-${stamp}.json`, `${JSON.stringify(exportRows(sortedRows, exportColumns), null, 2)}\n`, 'application/json')}
          >
            Export JSON
          </Button>
        </div>
      </Panel>
      <p className="text-sm" aria-live="polite">
        {filtered.length} receipts shown, total{' '}
        <strong>
          <Total micros={total} />
        </strong>
      </p>
      <Panel aria-labelledby="spend-heading">
        <h2 id="spend-heading" className="mb-2 font-semibold">
          Spend per day
        </h2>
        <Suspense fallback={<Skeleton className="h-72 w-full" />}>
          <SpendChart spend={spend} nameOf={nameOf} />
        </Suspense>
        <details className="mt-2 text-sm">
          <summary className="cursor-pointer">Spend per day as a table</summary>
          <div className="mt-2">
            <SimpleTable
              caption="Spend per day by subscription"
              headers={[
                'Day',
                ...spend.subscriptions.map((s) => ({ label: nameOf(s), key: s, align: 'right' as const })),
                { label: 'Total', key: ' total', align: 'right' },
              ]}
              empty="No spend."
              isEmpty={false}
            >
              {spend.days
                .filter((d) => Object.keys(d.bySubscription).length > 0)
                .map((d) => (
                  <tr key={d.day} className={rowClass}>
                    <th scope="row" className={`${cellClass} font-normal`}>
                      {d.day}
                    </th>
                    {spend.subscriptions.map((s) => (
                      <td key={s} className={`${cellClass} text-right`}>
                        <Total micros={d.bySubscription[s] ?? 0} />
                      </td>
                    ))}
                    <td className={`${cellClass} text-right`}>
                      <Total micros={d.total} />
                    </td>
                  </tr>
                ))}
            </SimpleTable>
          </div>
        </details>
      </Panel>
      <div className="grid gap-4 md:grid-cols-2 *:min-w-0">
        <Panel>
          <TotalsTable
            caption="Totals per subscription"
            keyLabel="Subscription"
            totals={totalsBySubscription(filtered)}
            showKey={(id) => <span title={`Subscription ${id}`}>{nameOf(id)}</span>}
          />
        </Panel>
        <Panel>
          <TotalsTable caption="Totals per day" keyLabel="Day" totals={totalsByDay(filtered)} />
        </Panel>
      </div>
      <DataTable table={table} caption="Receipts" empty="No receipt matches these filters." />
    </div>
  );
}
