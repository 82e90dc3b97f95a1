import { createFileRoute } from '@tanstack/react-router';
import { deliveriesQuery } from '../../../data';
import { DeliveriesPage, deliveriesSearchSchema } from '../../../features/deliveries';

export const Route = createFileRoute('/_connected/deliveries/')({
  validateSearch: deliveriesSearchSchema,
  loaderDeps: ({ search }) => ({ limit: search.limit }),
  loader: ({ context, deps }) => context.queryClient.ensureQueryData(deliveriesQuery(context.connection, deps.limit)),
  component: function DeliveriesRoute() {
    return <DeliveriesPage connection={Route.useRouteContext().connection} search={Route.useSearch()} />;
  },
});
