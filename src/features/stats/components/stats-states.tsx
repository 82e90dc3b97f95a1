import { Link } from '@tanstack/react-router';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { Panel, Skeleton } from '../../../components/ui/panel';

const linkClass = 'font-semibold text-brand-600 underline dark:text-brand-100';

export function StatsLoading() {
  return (
    <div className="flex flex-col gap-4" aria-busy="true">
      <p className="sr-only" role="status">
        Reading the items kept on this device…
      </p>
      <Skeleton className="h-20 w-full" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

export function StatsError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return <ErrorPanel error={error} onRetry={onRetry} />;
}

/** Nothing kept yet: where to go to change that. */
export function NoItems({ subscriptionId }: { subscriptionId?: string }) {
  return (
    <Panel>
      <p className="text-sm">
        {subscriptionId ? 'No item of this subscription is kept on this device yet.' : 'No item of this connection’s subscriptions is kept on this device yet.'}{' '}
        Pull items to see statistics: they are computed from what this browser holds.
      </p>
      <p className="mt-2 text-sm">
        {subscriptionId ? (
          <Link to="/review/$subscriptionId" params={{ subscriptionId }} search={{ mode: 'new', limit: 50 }} className={linkClass}>
            Pull items in Review
          </Link>
        ) : (
          <Link to="/review" className={linkClass}>
            Pull items in Review
          </Link>
        )}
      </p>
    </Panel>
  );
}
