import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { Badge, PageHeader } from '../../../components/ui/panel';
import type { Connection, ConnectionSubscription } from '../../../data';
import { reviewPace } from '../pace';
import { spendView } from '../spend-view';
import { useStatsData } from '../use-stats-data';
import { StatsSections } from './stats-sections';
import { NoItems, StatsError, StatsLoading } from './stats-states';
import { useNow, VISIT_START } from './use-now';

const linkClass = 'font-semibold text-brand-600 underline dark:text-brand-100';

/** One subscription's statistics, from the items this device keeps and the decisions recorded on them. */
export function SubscriptionStatsPage({
  connection,
  subscription,
  visitStart = VISIT_START,
}: {
  connection: Connection;
  subscription: ConnectionSubscription;
  visitStart?: number;
}) {
  const ids = useMemo(() => [subscription.id], [subscription.id]);
  const data = useStatsData(connection, ids);
  const now = useNow();
  const stats = data.bySubscription?.get(subscription.id) ?? null;
  const pace = useMemo(() => reviewPace(data.entries, visitStart, now, new Set(ids)), [data.entries, visitStart, now, ids]);
  const name = subscription.label ?? subscription.id;
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={`Statistics: ${name}`}
        description={
          <>
            <Badge tone={subscription.kind === 'live' ? 'info' : 'neutral'}>{subscription.kind}</Badge> <code className="text-xs">{subscription.id}</code>. From
            the items kept on this device and the decisions recorded on them; pulling more items adds them here.{' '}
            <Link to="/stats" className={linkClass}>
              All subscriptions
            </Link>
          </>
        }
      />
      {data.error ? (
        <StatsError error={data.error} onRetry={data.refetch} />
      ) : !stats ? (
        <StatsLoading />
      ) : stats.items === 0 ? (
        <NoItems subscriptionId={subscription.id} />
      ) : (
        <StatsSections stats={stats} pace={pace} visitStart={visitStart} spend={stats.spend.items > 0 ? spendView(stats.spend) : null} reasons={data.reasons} />
      )}
    </div>
  );
}
