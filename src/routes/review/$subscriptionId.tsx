import { createFileRoute } from '@tanstack/react-router';
import { requireConnection, useActiveConnection } from '../../features/connections';
import { pageSizeError, pendingItemsQuery, rereadPageQuery, ReviewWorkspace, reviewSearchSchema, UnknownSubscription } from '../../features/review';

export const Route = createFileRoute('/review/$subscriptionId')({
  validateSearch: reviewSearchSchema,
  beforeLoad: ({ location }) => ({ connection: requireConnection(location) }),
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    const { connection, queryClient } = context;
    const subscription = connection.subscriptions.find((s) => s.id === params.subscriptionId);
    // An invalid page size is never sent: the workspace says what is wrong with it.
    if (!subscription || !deps.run || pageSizeError(deps.limit)) return;
    // A reload or a shared link opens the same page (incremental pulls are never replayed). The
    // read starts here but is not awaited: the workspace stays on screen with the current page
    // while the next loads, and a failure shows beside it rather than replacing the route.
    if (subscription.kind === 'simulated') void queryClient.prefetchQuery(pendingItemsQuery(connection, subscription.id, deps.limit));
    else if (deps.mode === 'reread') {
      void queryClient.prefetchQuery(
        rereadPageQuery(connection, { subscriptionId: subscription.id, cursor: deps.cursor, tasks: deps.tasks, campaigns: deps.campaigns, limit: deps.limit }),
      );
    }
  },
  component: function ReviewRoute() {
    const connection = useActiveConnection();
    const { subscriptionId } = Route.useParams();
    const search = Route.useSearch();
    const subscription = connection?.subscriptions.find((s) => s.id === subscriptionId);
    if (!connection || !subscription) return <UnknownSubscription subscriptionId={subscriptionId} connectionId={connection?.id} />;
    return <ReviewWorkspace key={`${connection.id}:${subscription.id}`} connection={connection} subscription={subscription} search={search} />;
  },
});
