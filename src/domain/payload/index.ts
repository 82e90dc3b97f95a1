/**
 * Reading delivered payloads, with no UI: where an item's image and annotations are, which task
 * shapes (spans, chips, dialogues, grades, scores, rankings) it holds, and which URLs are safe to
 * load or link. The viewer (src/components/payload) and the exports build on it.
 */
export { annotationEntries, findImage, locateImage, type ImageWithShapes, type Shape } from './annotations';
export { isOtherOrigin, safeImageUrl, safeLinkUrl } from './safe-url';
export * from './task-shapes';
