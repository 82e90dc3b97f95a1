/** The shared viewer of delivered content: review, previews and every page that renders a payload use it. */
export { PayloadViewer } from './payload-viewer';
export { GradeBadge, ScoreBadge } from './grade-badge';
export { VIEWER_KEYMAP } from './viewer-keymap';
export { useViewerKeys, type ViewerKeyHandlers } from './use-viewer-keys';
export { useImagePreload } from './image-preload';
