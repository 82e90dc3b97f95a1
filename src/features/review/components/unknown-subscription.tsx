import { Link } from '@tanstack/react-router';
import { PageHeader, Panel } from '../../../components/ui/panel';

const linkClass = 'font-semibold text-brand-600 underline dark:text-brand-100';

/** A review address naming a subscription the connection does not list: which one, and where to go. */
export function UnknownSubscription({ subscriptionId, connectionId }: { subscriptionId: string; connectionId: string | undefined }) {
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title="Unknown subscription" />
      <Panel>
        <p className="text-sm [overflow-wrap:anywhere]">
          This connection lists no subscription <code className="font-mono">{subscriptionId}</code>.
        </p>
        <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <Link to="/connection" search={connectionId ? { edit: connectionId } : {}} className={linkClass}>
            See the connection’s subscriptions
          </Link>
          <Link to="/review" className={linkClass}>
            Back to Review
          </Link>
        </p>
      </Panel>
    </div>
  );
}
