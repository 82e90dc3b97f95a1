import { createFileRoute } from '@tanstack/react-router';
import { LIMITS } from '../../../api/contract';
import { NotFoundPanel } from '../../../components/ui/not-found-panel';
import { deliveriesQuery, deliveryItemsQuery } from '../../../data';
import { DeliveryPage, keepDeliveryItems } from '../../../features/deliveries';
import { SampleDeliveryAction } from '../../../features/sampling';
import { notFoundOn404 } from '../../../lib/not-found';

export const Route = createFileRoute('/_connected/deliveries/$deliveryId')({
  loader: async ({ context, params }) => {
    const [items, recent] = await notFoundOn404(
      Promise.all([
        context.queryClient.ensureQueryData(deliveryItemsQuery(context.connection, params.deliveryId)),
        context.queryClient.ensureQueryData(deliveriesQuery(context.connection, LIMITS.deliveries.max)),
      ]),
    );
    // Kept on this device before the page shows them.
    const subscriptionId = recent.data.find((d) => d.delivery_id === params.deliveryId)?.subscription_id;
    await keepDeliveryItems(context.connection, params.deliveryId, subscriptionId, items.data);
  },
  notFoundComponent: function DeliveryNotFound() {
    return (
      <NotFoundPanel
        title={`Delivery ${Route.useParams().deliveryId} was not found`}
        back={{ label: 'Back to deliveries', link: { to: '/deliveries', search: { limit: LIMITS.deliveries.default } } }}
      >
        No delivery of your organization has this ID.
      </NotFoundPanel>
    );
  },
  component: function DeliveryRoute() {
    return <DeliveryPage connection={Route.useRouteContext().connection} deliveryId={Route.useParams().deliveryId} SampleAction={SampleDeliveryAction} />;
  },
});
