/** Public entry of the payload feature: the shared viewer of delivered content. */
export { PayloadViewer } from './payload-viewer';
export { findImage, toShape, type Shape } from './annotations';
export { safeImageUrl, safeLinkUrl } from './safe-url';
