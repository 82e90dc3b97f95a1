/** Public entry of the payload feature: the shared viewer of delivered content. */
export { PayloadViewer } from './payload-viewer';
export { forgetImageOrigins } from './image-origins';
export { findImage } from './annotations';
