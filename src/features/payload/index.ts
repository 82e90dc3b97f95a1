/** Public entry of the payload feature: the shared viewer of delivered content. */
export { PayloadViewer } from './payload-viewer';
export { forgetImageOrigins } from './image-origins-store';
export { annotationEntries, locateImage, type Shape } from './annotations';
export { GradeBadge, ScoreBadge } from './grade-badge';
export { VIEWER_KEYMAP } from './viewer-keymap';
export { useViewerKeys, type ViewerKeyHandlers } from './use-viewer-keys';
