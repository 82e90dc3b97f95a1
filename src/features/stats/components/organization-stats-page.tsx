import { NoSubscriptions } from '../../../components/connection/no-subscriptions';
import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { PageHeader, Panel } from '../../../components/ui/panel';
import { cellClass, rowClass, SimpleTable } from '../../../components/ui/table';
import type { Connection } from '../../../data';
import { Total } from '../../../components/ui/total';
import { formatRate, mergeStats, projectSpend, type SubscriptionStats } from '../aggregate';
import { formatCount } from '../format';
import { reviewPace } from '../pace';
import { organizationSpendView } from '../spend-view';
import { useStatsData } from '../use-stats-data';
import { StatsSections } from './stats-sections';
import { NoItems, StatsError, StatsLoading } from './stats-states';
import { useNow, VISIT_START } from './use-now';

const linkClass = 'font-semibold text-brand-600 underline dark:text-brand-100';
const num = `${cellClass} text-right tabular-nums`;

function BySubscriptionTable({ connection, bySubscription }: { connection: Connection; bySubscription: Map<string, SubscriptionStats> }) {
  return (
    <SimpleTable
      caption="By subscription"
      showCaption
      headers={[
        'Subscription',
        'Kind',
        { label: 'Items', align: 'right' },
        { label: 'Undecided', align: 'right' },
        { label: 'Adopted', align: 'right' },
        { label: 'Disputed', align: 'right' },
        { label: 'Acceptance', align: 'right' },
        { label: 'Spend so far', align: 'right' },
        { label: 'Projected spend', align: 'right' },
      ]}
      empty="No subscriptions."
      isEmpty={connection.subscriptions.length === 0}
    >
      {connection.subscriptions.map((s) => {
        const stats = bySubscription.get(s.id);
        if (!stats) return null;
        const simulated = stats.spend.items > 0;
        const projection = simulated ? projectSpend(stats.spend) : null;
        return (
          <tr key={s.id} className={rowClass}>
            <th scope="row" className={`${cellClass} font-normal [overflow-wrap:anywhere]`}>
              <Link to="/stats/$subscriptionId" params={{ subscriptionId: s.id }} className={linkClass}>
                {s.label ?? s.id}
              </Link>
              {s.label && (
                <>
                  {' '}
                  <code className="block text-xs">{s.id}</code>
                </>
              )}
            </th>
            <td className={cellClass}>{s.kind}</td>
            <td className={num}>{formatCount(stats.items)}</td>
            <td className={num}>{formatCount(stats.states.undecided)}</td>
            <td className={num}>{formatCount(stats.states.adopted)}</td>
            <td className={num}>{formatCount(stats.states.disputed)}</td>
            <td className={num}>{formatRate(stats.states.adopted, stats.states.disputed)}</td>
            <td className={num}>{simulated ? <Total micros={stats.spend.spentMicros} /> : '—'}</td>
            <td className={num}>{projection ? <Total micros={projection.projectedMicros} /> : '—'}</td>
          </tr>
        );
      })}
    </SimpleTable>
  );
}

/** The organization's statistics: the connection's subscriptions together, then each one in a row of its own. */
export function OrganizationStatsPage({ connection, visitStart = VISIT_START }: { connection: Connection; visitStart?: number }) {
  const ids = useMemo(() => connection.subscriptions.map((s) => s.id), [connection.subscriptions]);
  const data = useStatsData(connection, ids);
  const now = useNow();
  const parts = useMemo(() => (data.bySubscription ? [...data.bySubscription.values()] : null), [data.bySubscription]);
  const stats = useMemo(() => (parts ? mergeStats(parts) : null), [parts]);
  const pace = useMemo(() => reviewPace(data.entries, visitStart, now, new Set(ids)), [data.entries, visitStart, now, ids]);
  const spend = useMemo(() => (parts ? organizationSpendView(parts.map((p) => p.spend)) : null), [parts]);
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title="Statistics"
        description="All of this connection’s subscriptions together, from the items kept on this device and the decisions recorded on them; each subscription’s own statistics are a click away in the table."
      />
      {ids.length === 0 ? (
        <NoSubscriptions connectionId={connection.id} then=", then pull items to see statistics." />
      ) : data.error ? (
        <StatsError error={data.error} onRetry={data.refetch} />
      ) : !stats || !data.bySubscription ? (
        <StatsLoading />
      ) : (
        <>
          <Panel className="min-w-0">
            <BySubscriptionTable connection={connection} bySubscription={data.bySubscription} />
          </Panel>
          {stats.items === 0 ? <NoItems /> : <StatsSections stats={stats} pace={pace} visitStart={visitStart} spend={spend} reasons={data.reasons} />}
        </>
      )}
    </div>
  );
}
