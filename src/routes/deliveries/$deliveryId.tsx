import { createFileRoute } from '@tanstack/react-router';
import { requireConnection } from '../../features/connections';
import { LIMITS } from '../../api/contract';
import { deliveriesQuery, deliveryItemsQuery, DeliveryPage } from '../../features/deliveries';

export const Route = createFileRoute('/deliveries/$deliveryId')({
  beforeLoad: ({ location }) => ({ connection: requireConnection(location) }),
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.ensureQueryData(deliveryItemsQuery(context.connection, params.deliveryId)),
      context.queryClient.ensureQueryData(deliveriesQuery(context.connection, LIMITS.deliveries.max)),
    ]),
  component: function DeliveryRoute() {
    return <DeliveryPage deliveryId={Route.useParams().deliveryId} />;
  },
});
