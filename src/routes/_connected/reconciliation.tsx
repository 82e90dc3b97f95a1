import { createFileRoute } from '@tanstack/react-router';
import { LIMITS } from '../../api/contract';
import { deliveriesQuery, usageQuery } from '../../data';
import { booksDeliveryItemsQuery, ReconciliationPage } from '../../features/reconciliation';

export const Route = createFileRoute('/_connected/reconciliation')({
  loader: async ({ context }) => {
    const { queryClient, connection } = context;
    const [, deliveries] = await Promise.all([
      queryClient.ensureQueryData(usageQuery(connection, LIMITS.usage.max)),
      queryClient.ensureQueryData(deliveriesQuery(connection, LIMITS.deliveries.max)),
    ]);
    await Promise.all(deliveries.data.map((d) => queryClient.ensureQueryData(booksDeliveryItemsQuery(connection, d.delivery_id))));
  },
  component: function ReconciliationRoute() {
    return <ReconciliationPage connection={Route.useRouteContext().connection} />;
  },
});
