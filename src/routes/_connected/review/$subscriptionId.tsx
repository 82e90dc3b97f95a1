import { createFileRoute, notFound } from '@tanstack/react-router';
import { pageSizeError, pendingItemsQuery, rereadPageQuery, ReviewWorkspace, reviewSearchSchema, UnknownSubscription } from '../../../features/review';

export const Route = createFileRoute('/_connected/review/$subscriptionId')({
  validateSearch: reviewSearchSchema,
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    const { connection, queryClient } = context;
    const subscription = connection.subscriptions.find((s) => s.id === params.subscriptionId);
    if (!subscription) throw notFound();
    // An invalid page size is never sent: the workspace says what is wrong with it.
    if (!deps.run || pageSizeError(deps.limit)) return;
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
  notFoundComponent: function SubscriptionNotFound() {
    return <UnknownSubscription subscriptionId={Route.useParams().subscriptionId} connectionId={Route.useRouteContext().connection.id} />;
  },
  component: function ReviewRoute() {
    const { connection } = Route.useRouteContext();
    const { subscriptionId } = Route.useParams();
    const search = Route.useSearch();
    // The loader refused an unknown subscription (not found); a connection edited since may still lack it.
    const subscription = connection.subscriptions.find((s) => s.id === subscriptionId);
    if (!subscription) return <UnknownSubscription subscriptionId={subscriptionId} connectionId={connection.id} />;
    return <ReviewWorkspace key={`${connection.id}:${subscription.id}`} connection={connection} subscription={subscription} search={search} />;
  },
});
