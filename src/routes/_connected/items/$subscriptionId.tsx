import { createFileRoute, notFound } from '@tanstack/react-router';
import { BulkActions } from '../../../features/bulk';
import { ExportMenu } from '../../../features/export';
import { ItemsPage } from '../../../features/items';
import { SampleAction } from '../../../features/sampling';
import { UnknownSubscription } from '../../../features/review';
import { triageSearchSchema } from '../../../domain/triage';

export const Route = createFileRoute('/_connected/items/$subscriptionId')({
  validateSearch: triageSearchSchema,
  loader: ({ context, params }) => {
    if (!context.connection.subscriptions.some((s) => s.id === params.subscriptionId)) throw notFound();
  },
  notFoundComponent: function SubscriptionNotFound() {
    return <UnknownSubscription subscriptionId={Route.useParams().subscriptionId} connectionId={Route.useRouteContext().connection.id} />;
  },
  component: function ItemsRoute() {
    const { connection } = Route.useRouteContext();
    const { subscriptionId } = Route.useParams();
    const search = Route.useSearch();
    const subscription = connection.subscriptions.find((s) => s.id === subscriptionId);
    if (!subscription) return <UnknownSubscription subscriptionId={subscriptionId} connectionId={connection.id} />;
    return (
      <ItemsPage
        key={`${connection.id}:${subscription.id}`}
        connection={connection}
        subscription={subscription}
        search={search}
        // The actions on the matching items come from the features that own them.
        actions={({ rows, allRows, filters, description }) => (
          <>
            <BulkActions connection={connection} subscription={subscription} rows={rows} />
            <SampleAction connection={connection} subscription={subscription} rows={rows} source={{ kind: 'filter', filters, description }} />
            <ExportMenu connection={connection} subscription={subscription} rows={rows} allRows={allRows} filters={filters} />
          </>
        )}
      />
    );
  },
});
