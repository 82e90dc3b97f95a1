import { Link } from '@tanstack/react-router';
import { lazy, Suspense, type ReactNode } from 'react';
import { Panel, Skeleton } from '../../../components/ui/panel';
import { cellClass, rowClass, SimpleTable } from '../../../components/ui/table';
import { Total } from '../../../components/ui/total';
import type { ReasonCode } from '../../dispute-reasons';
import {
  acceptanceRows,
  binLabel,
  DECISION_GROUP_LABELS,
  DECISION_GROUPS,
  DIMENSION_LABELS,
  DIMENSIONS,
  disputeReasonRows,
  formatRate,
  formatShare,
  NONE_KEY,
  receivedPerDay,
  type AcceptanceCount,
  type Dimension,
  type GroupCounts,
  type SubscriptionStats,
} from '../aggregate';
import { formatDuration, type Pace } from '../pace';
import { formatCount } from '../format';
import type { SpendView } from '../spend-view';

// recharts loads with the first chart, after the page's numbers are on screen.
const HistogramChart = lazy(() => import('./histogram-chart'));
const ReceivedChart = lazy(() => import('./received-chart'));

const num = `${cellClass} text-right tabular-nums`;

function Section({ id, title, children, description }: { id: string; title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <Panel aria-labelledby={id} className="min-w-0">
      <h2 id={id} className="font-semibold">
        {title}
      </h2>
      {description && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{description}</p>}
      <div className="mt-3">{children}</div>
    </Panel>
  );
}

/** Counts by decision, and the acceptance rate over everything decided. */
function StatsSummary({ stats }: { stats: SubscriptionStats }) {
  const { states } = stats;
  const other = states.waiting + states.failed + states.discarded;
  const entries: [string, string][] = [
    ['Items', formatCount(stats.items)],
    ['Undecided', formatCount(states.undecided)],
    ['Adopted', formatCount(states.adopted)],
    ['Disputed', formatCount(states.disputed)],
    ['Other', formatCount(other)],
    ['Acceptance rate', formatRate(states.adopted, states.disputed)],
  ];
  return (
    <Panel aria-label="Summary">
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-3 lg:grid-cols-6">
        {entries.map(([term, value]) => (
          <div key={term} className="min-w-0">
            <dt className="text-slate-600 dark:text-slate-400">{term}</dt>
            <dd className="text-lg font-semibold tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
        Acceptance rate: adopted ÷ (adopted + disputed). Other: decisions waiting to be sent ({formatCount(states.waiting)}), failed (
        {formatCount(states.failed)}) or discarded ({formatCount(states.discarded)}); they count in no rate.
      </p>
    </Panel>
  );
}

function AcceptanceTable({ dimension, counts }: { dimension: Dimension; counts: Map<string, AcceptanceCount> }) {
  const rows = acceptanceRows(counts);
  const label = DIMENSION_LABELS[dimension];
  return (
    <SimpleTable
      caption={`Acceptance by ${label.toLowerCase()}`}
      showCaption
      headers={[
        label,
        { label: 'Items', align: 'right' },
        { label: 'Adopted', align: 'right' },
        { label: 'Disputed', align: 'right' },
        { label: 'Acceptance', align: 'right' },
      ]}
      empty="No items."
      isEmpty={rows.length === 0}
    >
      {rows.map((r) => (
        <tr key={r.key} className={rowClass}>
          <th scope="row" className={`${cellClass} min-w-24 font-normal [overflow-wrap:anywhere]`}>
            {r.key}
          </th>
          <td className={num}>{formatCount(r.items)}</td>
          <td className={num}>{formatCount(r.adopted)}</td>
          <td className={num}>{formatCount(r.disputed)}</td>
          <td className={num}>{formatRate(r.adopted, r.disputed)}</td>
        </tr>
      ))}
    </SimpleTable>
  );
}

/** A table per dimension some item carries; the dimensions no item carries (simulated items carry none) are named instead. */
function AcceptanceTables({ stats }: { stats: SubscriptionStats }) {
  const carried = (d: Dimension) => {
    const counts = stats.acceptance[d];
    return counts.size > 1 || (counts.size === 1 && !counts.has(NONE_KEY));
  };
  const shown = DIMENSIONS.filter(carried);
  const missing = DIMENSIONS.filter((d) => !carried(d)).map((d) => DIMENSION_LABELS[d].toLowerCase());
  return (
    <>
      {shown.length > 0 && (
        <div className="grid gap-4 lg:grid-cols-2 *:min-w-0">
          {shown.map((d) => (
            <AcceptanceTable key={d} dimension={d} counts={stats.acceptance[d]} />
          ))}
        </div>
      )}
      {missing.length > 0 && (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
          No item here carries a {missing.join(', a ')}
          {stats.spend.items > 0 ? ' (simulated items carry none of them)' : ''}, so there is no table by {missing.length === 1 ? 'it' : 'them'}.
        </p>
      )}
    </>
  );
}

const total = (g: GroupCounts) => g.undecided + g.adopted + g.disputed + g.other;

function HistogramSection({ stats }: { stats: SubscriptionStats }) {
  const scored = stats.histogram.reduce((sum, bin) => sum + total(bin), 0);
  const peak = stats.histogram.reduce((best, bin, index) => (total(bin) > total(stats.histogram[best]!) ? index : best), 0);
  const label = `Quality score histogram by decision: ${formatCount(scored)} scored items in ten bins of 0.1${
    scored ? `, the most (${formatCount(total(stats.histogram[peak]!))}) in ${binLabel(peak)}` : ''
  }. The same numbers are in the table “Quality scores as a table”.`;
  const extra: [string, GroupCounts][] = [
    ['No score', stats.unscored],
    ['Outside 0–1', stats.outOfScale],
  ];
  return (
    <Section id="histogram-heading" title="Quality scores by decision" description="Items per quality-score bin (0 to 1), stacked by decision.">
      <Suspense fallback={<Skeleton className="h-64 w-full" />}>
        <HistogramChart histogram={stats.histogram} label={label} />
      </Suspense>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer">Quality scores as a table</summary>
        <div className="mt-2">
          <SimpleTable
            caption="Items per quality score and decision"
            headers={[
              'Quality score',
              ...DECISION_GROUPS.map((g) => ({ label: DECISION_GROUP_LABELS[g], key: g, align: 'right' as const })),
              { label: 'Total', align: 'right' },
            ]}
            empty="No items."
            isEmpty={false}
          >
            {[...stats.histogram.map((bin, index): [string, GroupCounts] => [binLabel(index), bin]), ...extra.filter(([, g]) => total(g) > 0)].map(
              ([key, bin]) => (
                <tr key={key} className={rowClass}>
                  <th scope="row" className={`${cellClass} font-normal`}>
                    {key}
                  </th>
                  {DECISION_GROUPS.map((g) => (
                    <td key={g} className={num}>
                      {formatCount(bin[g])}
                    </td>
                  ))}
                  <td className={num}>{formatCount(total(bin))}</td>
                </tr>
              ),
            )}
          </SimpleTable>
        </div>
      </details>
    </Section>
  );
}

function ReceivedSection({ stats }: { stats: SubscriptionStats }) {
  const days = receivedPerDay(stats.receivedByDay);
  const withItems = days.filter((d) => d.items > 0);
  const label = `Items received per day${days.length ? `, from ${days[0]!.day} to ${days.at(-1)!.day}` : ''}: ${withItems
    .slice(0, 31)
    .map((d) => `${d.day}: ${formatCount(d.items)}`)
    .join('; ')}${withItems.length > 31 ? '; …' : ''}. The same numbers are in the table “Items received as a table”.`;
  return (
    <Section id="received-heading" title="Items received per day" description="When this device received each item (UTC days).">
      <Suspense fallback={<Skeleton className="h-64 w-full" />}>
        <ReceivedChart days={days} label={label} />
      </Suspense>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer">Items received as a table</summary>
        <div className="mt-2">
          <SimpleTable
            caption="Items received per day"
            headers={['Day', { label: 'Items', align: 'right' }]}
            empty="No items."
            isEmpty={withItems.length === 0}
          >
            {withItems.map((d) => (
              <tr key={d.day} className={rowClass}>
                <th scope="row" className={`${cellClass} font-normal`}>
                  {d.day}
                </th>
                <td className={num}>{formatCount(d.items)}</td>
              </tr>
            ))}
          </SimpleTable>
        </div>
      </details>
    </Section>
  );
}

function PaceSection({ pace, visitStart }: { pace: Pace; visitStart: number }) {
  const since = new Date(visitStart).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return (
    <Section
      id="pace-heading"
      title="Review pace this visit"
      description={`This visit began when this tab opened the console, at ${since}; a reload starts a new one. It counts the items decided in this browser since then (an undone decision does not count).`}
    >
      <p className="text-sm">
        <strong className="tabular-nums">{formatCount(pace.decided)}</strong> {pace.decided === 1 ? 'item' : 'items'} decided in{' '}
        {formatDuration(pace.elapsedMs)}
        {pace.perHour === null ? (
          ': the pace per hour shows after the first minute.'
        ) : (
          <>
            : <strong className="tabular-nums">{formatCount(Math.round(pace.perHour))}</strong> items per hour.
          </>
        )}
      </p>
    </Section>
  );
}

function SpendSection({ spend }: { spend: SpendView }) {
  const { projection } = spend;
  return (
    <Section
      id="spend-heading"
      title="Spend (simulated items)"
      description="Unit prices of the items adopted here or recorded as adopted by the service. Only receipts prove a charge: see Usage and Reconciliation."
    >
      <dl className="grid gap-3 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-slate-600 dark:text-slate-400">Spend so far</dt>
          <dd className="text-lg font-semibold">
            <Total micros={spend.spentMicros} />
          </dd>
          <dd className="text-xs text-slate-600 dark:text-slate-400">
            {formatCount(spend.adopted)} adopted simulated {spend.adopted === 1 ? 'item' : 'items'}
            {spend.adoptedUnpriced > 0 && `, ${formatCount(spend.adoptedUnpriced)} of them without a price (not counted)`}.
          </dd>
        </div>
        <div>
          <dt className="text-slate-600 dark:text-slate-400">Projected spend of the undecided items</dt>
          {projection.micros === null ? (
            <dd className="text-sm">{projection.why}</dd>
          ) : (
            <>
              <dd className="text-lg font-semibold">
                <Total micros={projection.micros} />
              </dd>
              <dd className="text-xs text-slate-600 dark:text-slate-400">{projection.how}</dd>
            </>
          )}
        </div>
      </dl>
    </Section>
  );
}

/** Disputed items by the code their reason starts with: a table (its own text alternative). */
function ReasonsSection({ stats, reasons }: { stats: SubscriptionStats; reasons: readonly ReasonCode[] }) {
  const rows = disputeReasonRows(stats.disputeReasons, reasons);
  const disputed = stats.states.disputed;
  return (
    <Section
      id="reasons-heading"
      title="Disputes by reason"
      description={
        <>
          Disputed items by the code their reason starts with. Other: a reason that names no code; no reason: none given, or decided where this browser did not
          record it.{' '}
          <Link to="/dispute-reasons" className="font-semibold text-brand-600 underline dark:text-brand-100">
            Edit reasons
          </Link>
        </>
      }
    >
      <SimpleTable
        caption="Disputed items per reason code"
        headers={['Reason', 'Code', { label: 'Disputes', align: 'right' }, { label: 'Share', align: 'right' }]}
        empty="No reason codes."
        isEmpty={rows.length === 0}
      >
        {rows.map((r) => (
          <tr key={r.code} className={rowClass}>
            <th scope="row" className={`${cellClass} font-normal [overflow-wrap:anywhere]`}>
              {r.label}
            </th>
            <td className={`${cellClass} [overflow-wrap:anywhere]`}>
              <code className="text-xs">{r.code}</code>
            </td>
            <td className={num}>{formatCount(r.disputes)}</td>
            <td className={num}>{formatShare(r.disputes, disputed)}</td>
          </tr>
        ))}
      </SimpleTable>
    </Section>
  );
}

/** Every statistic of a set of items: summary, acceptance, quality, arrivals, pace and (for simulated items) spend. */
export function StatsSections({
  stats,
  pace,
  visitStart,
  spend,
  reasons,
}: {
  stats: SubscriptionStats;
  pace: Pace;
  visitStart: number;
  spend: SpendView | null;
  reasons: readonly ReasonCode[];
}) {
  return (
    <div className="flex flex-col gap-4">
      <StatsSummary stats={stats} />
      {spend && <SpendSection spend={spend} />}
      <PaceSection pace={pace} visitStart={visitStart} />
      <Section
        id="acceptance-heading"
        title="Acceptance"
        description="Adopted ÷ (adopted + disputed) among the items with each value; “(none)”: items without one."
      >
        <AcceptanceTables stats={stats} />
      </Section>
      <ReasonsSection stats={stats} reasons={reasons} />
      <div className="grid gap-4 lg:grid-cols-2 *:min-w-0">
        <HistogramSection stats={stats} />
        <ReceivedSection stats={stats} />
      </div>
    </div>
  );
}
