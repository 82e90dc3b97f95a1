/** Public entry of the verticals feature: simulated data families and their prices. */
export { VerticalsPage } from './components/verticals-page';
export { verticalsQuery } from './queries';
