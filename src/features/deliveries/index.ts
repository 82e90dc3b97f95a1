/** Public entry of the deliveries feature. */
export { DeliveriesPage } from './components/deliveries-page';
export { DeliveryPage } from './components/delivery-page';
export { deliveriesQuery, deliveryItemsQuery, keepDeliveryItems } from './queries';
export { deliveriesSearchSchema } from './search';
