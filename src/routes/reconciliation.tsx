import { createFileRoute } from '@tanstack/react-router';
import { LIMITS } from '../api/contract';
import { requireConnection } from '../features/connections';
import { deliveriesQuery, deliveryItemsQuery } from '../features/deliveries';
import { ReconciliationPage } from '../features/reconciliation';
import { usageQuery } from '../features/usage';

export const Route = createFileRoute('/reconciliation')({
  beforeLoad: ({ location }) => ({ connection: requireConnection(location) }),
  loader: async ({ context }) => {
    const { queryClient, connection } = context;
    const [, deliveries] = await Promise.all([
      queryClient.ensureQueryData(usageQuery(connection, LIMITS.usage.max)),
      queryClient.ensureQueryData(deliveriesQuery(connection, LIMITS.deliveries.max)),
    ]);
    await Promise.all(deliveries.data.map((d) => queryClient.ensureQueryData(deliveryItemsQuery(connection, d.delivery_id))));
  },
  component: ReconciliationPage,
});
