import { useSuspenseQueries, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { LIMITS } from '../../../api/contract';
import { Badge, PageHeader, Panel } from '../../../components/ui/panel';
import { SimpleTable } from '../../../components/ui/table';
import { Total } from '../../../components/ui/total';
import { formatExact, formatMicros, isOverRange, sumMicros } from '../../../lib/money';
import { deliveriesQuery, subscriptionNames, useNames, usageQuery, type Connection } from '../../../data';
import { useOutboxEntries } from '../../../data';
import { isCharged } from '../../../domain/outbox/model';
import { SPEC_WARNINGS } from '../../../data';
import { reconcile, type MismatchKind } from '../model';
import { booksDeliveryItemsQuery } from '../queries';

const KIND_LABELS: Record<MismatchKind, string> = {
  'charged-not-adopted': 'Charged, not adopted',
  'adopted-not-charged': 'Adopted, not charged',
  'amount-differs': 'Amount differs',
  'charged-twice': 'Charged more than once',
};

/** Expected charges (adoptions × unit price) against actual receipts, per subscription and day, and item by item. */
export function ReconciliationPage({ connection }: { connection: Connection }) {
  const { data: usage } = useSuspenseQuery(usageQuery(connection, LIMITS.usage.max));
  const { data: deliveries } = useSuspenseQuery(deliveriesQuery(connection, LIMITS.deliveries.max));
  const reads = useSuspenseQueries({
    queries: deliveries.data.map((d) => booksDeliveryItemsQuery(connection, d.delivery_id)),
    combine: (results) => results.map((r) => r.data),
  });
  const itemLists = useMemo(() => reads.map((r) => r.items), [reads]);
  const refused = deliveries.data.filter((_, i) => reads[i]?.refused);
  const refusedSubscriptions = useMemo(
    () => new Set(deliveries.data.filter((_, i) => reads[i]?.refused).map((d) => d.subscription_id)),
    [deliveries.data, reads],
  );
  const entries = useOutboxEntries(connection.id);
  // Subscriptions read as names (the connection's, else the vertical they deliver), IDs on hover.
  const verticalNames = useNames();
  const names = useMemo(() => {
    const verticals = new Map(deliveries.data.map((d) => [d.subscription_id, d.vertical_id]));
    const ids = [...usage.data.map((r) => r.subscription_id), ...deliveries.data.map((d) => d.subscription_id), ...entries.map((e) => e.subscriptionId)];
    return subscriptionNames(connection, ids, (id) => verticals.get(id), verticalNames);
  }, [connection, deliveries.data, usage.data, entries, verticalNames]);
  const subscription = (id: string) => <span title={`Subscription ${id}`}>{names.get(id) ?? id}</span>;

  const result = useMemo(() => {
    const items = deliveries.data.flatMap((d, i) => (itemLists[i] ?? []).map((item) => ({ item, subscriptionId: d.subscription_id })));
    // What this key cannot read stays out of the books on both sides (named on the page).
    const receipts = usage.data.filter((r) => !refusedSubscriptions.has(r.subscription_id));
    const confirmed = entries
      .filter((e) => isCharged(e) && e.state === 'sent' && !refusedSubscriptions.has(e.subscriptionId))
      .map((e) => ({
        itemId: e.itemId,
        subscriptionId: e.subscriptionId,
        priceMicros: e.priceMicros ?? 0,
        at: new Date(e.sentAt ?? e.createdAt).toISOString(),
      }));
    return reconcile({ receipts, receiptsComplete: usage.data.length < LIMITS.usage.max, items, confirmed });
  }, [deliveries.data, itemLists, entries, usage.data, refusedSubscriptions]);

  const expected = sumMicros(result.rows.map((r) => r.expectedMicros));
  const actual = sumMicros(result.rows.map((r) => r.actualMicros));
  const deliveriesTruncated = deliveries.data.length >= LIMITS.deliveries.max;

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title="Reconciliation"
        description="What your adoptions should have cost (adopted simulated items × unit price) against what the receipts charged."
      />
      <Panel aria-label="Warnings about cost" className="border-amber-300 bg-amber-50 text-sm dark:border-amber-800 dark:bg-amber-950">
        <ul className="list-disc pl-5">
          {SPEC_WARNINGS.map((w) => (
            <li key={w}>{w}</li>
          ))}
          <li>
            Based on the latest {usage.data.length} receipts{result.windowStart ? ` (from ${result.windowStart})` : ' (all of them)'} and the latest{' '}
            {deliveries.data.length} deliveries{deliveriesTruncated ? ' (older deliveries are not shown by the service)' : ''}.
            {result.unchecked > 0 && ` ${result.unchecked} adoptions are older than the oldest receipt shown and cannot be checked.`}
          </li>
          {refused.length > 0 && (
            <li>
              {refused.length} {refused.length === 1 ? 'delivery is' : 'deliveries are'} left out: this key does not cover{' '}
              {refused.length === 1 ? 'its subscription' : 'their subscriptions'} (
              {[...new Set(refused.map((d) => d.subscription_id))].map((id) => names.get(id) ?? id).join(', ')}), so {refused.length === 1 ? 'its' : 'their'}{' '}
              items cannot be read. Their receipts and adoptions are left out of the books below.
            </li>
          )}
        </ul>
      </Panel>
      <Panel aria-labelledby="summary-heading" className="flex flex-wrap items-center gap-6">
        <h2 id="summary-heading" className="sr-only">
          Summary
        </h2>
        <dl className="flex flex-wrap gap-6">
          <div>
            <dt className="text-xs text-slate-600 dark:text-slate-400">Expected</dt>
            <dd className="text-lg">
              <Total micros={expected} />
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-600 dark:text-slate-400">Charged</dt>
            <dd className="text-lg">
              <Total micros={actual} />
            </dd>
          </div>
        </dl>
        <div role="status" aria-label="Reconciliation result">
          {result.mismatches.length === 0 ? (
            <Badge tone="good">No mismatch</Badge>
          ) : (
            <Badge tone="bad">
              {result.mismatches.length} mismatch{result.mismatches.length === 1 ? '' : 'es'}
            </Badge>
          )}
        </div>
      </Panel>
      {result.mismatches.length > 0 && (
        <Panel aria-labelledby="mismatch-heading">
          <h2 id="mismatch-heading" className="mb-2 font-semibold">
            Mismatches
          </h2>
          <SimpleTable
            caption="Mismatches item by item"
            headers={['Problem', 'Item', 'Subscription', 'Expected', 'Charged', 'Details']}
            empty="No mismatch."
            isEmpty={false}
          >
            {result.mismatches.map((m, i) => (
              <tr key={`${m.kind}-${m.itemId}-${i}`} className="border-b border-slate-100 dark:border-slate-800">
                <td className="py-1 pr-3">
                  <Badge tone="bad">{KIND_LABELS[m.kind]}</Badge>
                </td>
                <td className="py-1 pr-3">
                  <code className="text-xs break-all">{m.itemId ?? '—'}</code>
                </td>
                <td className="py-1 pr-3">{subscription(m.subscriptionId)}</td>
                <td className="py-1 pr-3 font-mono">{formatMicros(m.expectedMicros)}</td>
                <td className="py-1 pr-3 font-mono">{formatMicros(m.actualMicros)}</td>
                <td className="py-1 text-xs">
                  {m.detail}
                  {m.receiptIds.length > 0 && ` (receipt ${m.receiptIds.join(', ')})`}
                </td>
              </tr>
            ))}
          </SimpleTable>
        </Panel>
      )}
      <Panel aria-labelledby="daily-heading">
        <h2 id="daily-heading" className="mb-2 font-semibold">
          Per subscription and day
        </h2>
        <SimpleTable
          caption="Expected and charged per subscription and day"
          headers={['Day', 'Subscription', 'Adoptions', 'Expected', 'Receipts', 'Charged', 'Difference']}
          empty="No adoption and no receipt to compare."
          isEmpty={result.rows.length === 0}
        >
          {result.rows.map((r) => {
            // Past the exact range on either side, the difference cannot be told exactly.
            const difference = isOverRange(r.actualMicros) || isOverRange(r.expectedMicros) ? null : r.actualMicros - r.expectedMicros;
            return (
              <tr key={`${r.subscriptionId}-${r.day}`} className="border-b border-slate-100 dark:border-slate-800">
                <th scope="row" className="py-1 pr-3 font-normal">
                  {r.day}
                </th>
                <td className="py-1 pr-3">{subscription(r.subscriptionId)}</td>
                <td className="py-1 pr-3 tabular-nums">{r.adoptions}</td>
                <td className="py-1 pr-3">
                  <Total micros={r.expectedMicros} />
                </td>
                <td className="py-1 pr-3 tabular-nums">{r.receipts}</td>
                <td className="py-1 pr-3">
                  <Total micros={r.actualMicros} />
                </td>
                <td className={`py-1 font-mono ${difference !== 0 ? 'font-semibold text-red-700 dark:text-red-300' : ''}`}>
                  {difference === null ? (
                    'not exact: a total is past the exact range'
                  ) : difference !== 0 && Math.abs(difference) < 5_000 ? (
                    // Under half a cent, the cents would read "$0.00" for a real difference: it is shown exactly.
                    formatExact(difference)
                  ) : (
                    <Total micros={difference} />
                  )}
                </td>
              </tr>
            );
          })}
        </SimpleTable>
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
          Receipts and adoptions are listed in{' '}
          <Link to="/usage" search={{ limit: 200 }} className="underline">
            Usage
          </Link>{' '}
          and{' '}
          <Link to="/deliveries" search={{ limit: 200 }} className="underline">
            Deliveries
          </Link>
          .
        </p>
      </Panel>
    </div>
  );
}
