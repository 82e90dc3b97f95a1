/** Public entry of lot acceptance by sampling: the Sample… action, the lots and a lot's page, a lot's sample for review. */
export { LotPage } from './components/lot-page';
export { LotsIndex } from './components/lots-index';
export { SampleAction } from './components/sample-dialog';
export { SampleDeliveryAction } from './components/sample-delivery';
export { useLotSample } from './use-lot-sample';
