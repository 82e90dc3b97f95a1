import { createFileRoute } from '@tanstack/react-router';
import { requireConnection, useActiveConnection } from '../../features/connections';
import { pendingItemsQuery, rereadPageQuery, ReviewWorkspace, reviewSearchSchema } from '../../features/review';
import { RouteNotFound } from '../../components/route-states';

export const Route = createFileRoute('/review/$subscriptionId')({
  validateSearch: reviewSearchSchema,
  beforeLoad: ({ location }) => ({ connection: requireConnection(location) }),
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    const { connection, queryClient } = context;
    const subscription = connection.subscriptions.find((s) => s.id === params.subscriptionId);
    if (!subscription || !deps.run) return;
    // A reload or a shared link opens the same page (incremental pulls are never replayed).
    if (subscription.kind === 'simulated') return queryClient.ensureQueryData(pendingItemsQuery(connection, subscription.id, deps.limit));
    if (deps.mode === 'reread') {
      return queryClient.ensureQueryData(
        rereadPageQuery(connection, { subscriptionId: subscription.id, cursor: deps.cursor, tasks: deps.tasks, campaigns: deps.campaigns, limit: deps.limit }),
      );
    }
  },
  component: function ReviewRoute() {
    const connection = useActiveConnection();
    const { subscriptionId } = Route.useParams();
    const search = Route.useSearch();
    const subscription = connection?.subscriptions.find((s) => s.id === subscriptionId);
    if (!connection || !subscription) return <RouteNotFound />;
    return <ReviewWorkspace key={`${connection.id}:${subscription.id}`} connection={connection} subscription={subscription} search={search} />;
  },
});
