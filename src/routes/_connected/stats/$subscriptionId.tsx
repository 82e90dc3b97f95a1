import { createFileRoute, Link } from '@tanstack/react-router';
import { NotFoundPanel } from '../../../components/ui/not-found-panel';
import { SubscriptionStatsPage } from '../../../features/stats';

// The component (with the local store and recharts behind it) is split off by the router plugin's
// autoCodeSplitting (vite.config.ts): it loads when the route opens, never with the first page.
export const Route = createFileRoute('/_connected/stats/$subscriptionId')({
  component: function SubscriptionStatsRoute() {
    const { connection } = Route.useRouteContext();
    const { subscriptionId } = Route.useParams();
    const subscription = connection.subscriptions.find((s) => s.id === subscriptionId);
    if (!subscription)
      return (
        <NotFoundPanel title="Unknown subscription" back={{ label: 'All subscriptions’ statistics', link: { to: '/stats' } }}>
          This connection lists no subscription <code className="font-mono">{subscriptionId}</code>.{' '}
          <Link to="/connection" search={{ edit: connection.id }} className="underline">
            See the connection’s subscriptions
          </Link>
          .
        </NotFoundPanel>
      );
    return <SubscriptionStatsPage key={`${connection.id}:${subscription.id}`} connection={connection} subscription={subscription} />;
  },
});
