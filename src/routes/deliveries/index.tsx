import { createFileRoute } from '@tanstack/react-router';
import { requireConnection } from '../../features/connections';
import { deliveriesQuery, DeliveriesPage, deliveriesSearchSchema } from '../../features/deliveries';

export const Route = createFileRoute('/deliveries/')({
  validateSearch: deliveriesSearchSchema,
  beforeLoad: ({ location }) => ({ connection: requireConnection(location) }),
  loaderDeps: ({ search }) => ({ limit: search.limit }),
  loader: ({ context, deps }) => context.queryClient.ensureQueryData(deliveriesQuery(context.connection, deps.limit)),
  component: function DeliveriesRoute() {
    return <DeliveriesPage search={Route.useSearch()} />;
  },
});
