/** Public entry of the deliveries feature. */
export { DeliveriesPage } from './components/deliveries-page';
export { DeliveryPage } from './components/delivery-page';
export { keepDeliveryItems } from './keep-delivery-items';
export { deliveriesSearchSchema } from './search';
