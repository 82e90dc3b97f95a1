/** Public entry of the keys feature. */
export { VerifyKeyPage } from './verify-key-page';
