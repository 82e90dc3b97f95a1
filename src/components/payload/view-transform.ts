/**
 * Zoom and pan as one transform of the image's own pixels onto the viewport:
 * screen = image × scale + (x, y). Pure, so the viewer's behaviour is tested without a layout.
 */
export interface ViewTransform {
  scale: number;
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

const MAX_ZOOM = 16;
const ZOOM_STEP = 1.25;

/** The scale at which the whole image fits the viewport (never enlarged past 100%). */
function fitScale(image: Size, viewport: Size): number {
  if (image.width <= 0 || image.height <= 0 || viewport.width <= 0 || viewport.height <= 0) return 1;
  return Math.min(1, viewport.width / image.width, viewport.height / image.height);
}

/**
 * Keeps the image where it can be seen: centred along an axis where it is smaller than the
 * viewport, and never pulled away from an edge where it is larger.
 */
export function clampPan(t: ViewTransform, image: Size, viewport: Size): ViewTransform {
  const axis = (offset: number, imageSize: number, viewportSize: number) => {
    const shown = imageSize * t.scale;
    if (shown <= viewportSize) return (viewportSize - shown) / 2;
    return Math.min(0, Math.max(viewportSize - shown, offset));
  };
  return { scale: t.scale, x: axis(t.x, image.width, viewport.width), y: axis(t.y, image.height, viewport.height) };
}

export function fitTransform(image: Size, viewport: Size): ViewTransform {
  return clampPan({ scale: fitScale(image, viewport), x: 0, y: 0 }, image, viewport);
}

/** Zooms to `scale` (between the fitted view and MAX_ZOOM) keeping the image point under `at` (viewport coordinates; the centre by default) in place. */
export function zoomTo(t: ViewTransform, scale: number, image: Size, viewport: Size, at?: { x: number; y: number }): ViewTransform {
  const next = Math.min(MAX_ZOOM, Math.max(fitScale(image, viewport), scale));
  const px = at?.x ?? viewport.width / 2;
  const py = at?.y ?? viewport.height / 2;
  const ratio = next / t.scale;
  return clampPan({ scale: next, x: px - (px - t.x) * ratio, y: py - (py - t.y) * ratio }, image, viewport);
}

/** One step in or out; never out past the fitted view (there is nothing more to see). */
export function zoomStep(t: ViewTransform, direction: 1 | -1, image: Size, viewport: Size, at?: { x: number; y: number }): ViewTransform {
  return zoomTo(t, direction > 0 ? t.scale * ZOOM_STEP : t.scale / ZOOM_STEP, image, viewport, at);
}

export function panBy(t: ViewTransform, dx: number, dy: number, image: Size, viewport: Size): ViewTransform {
  return clampPan({ scale: t.scale, x: t.x + dx, y: t.y + dy }, image, viewport);
}

/**
 * The CSS transform of the one layer that holds the image and its overlay. Zoomed in past the fitted
 * view (`composited`), in 3D, so the browser composites the layer: a zoom or pan step re-rasters it
 * (off the main thread) without repainting it. Not `will-change: transform`, which would freeze its
 * raster scale: zoomed in, blurred. Fitted, in 2D, painted with the page: a composited layer under
 * the viewport's rounded clip cost every frame a render pass of its own without a GPU, and the review
 * made one anew (rastered twice) for each item it showed.
 */
export const cssTransform = (t: ViewTransform, composited: boolean) =>
  composited
    ? `translate3d(${round(t.x)}px, ${round(t.y)}px, 0px) scale(${round(t.scale, 10_000)})`
    : `translate(${round(t.x)}px, ${round(t.y)}px) scale(${round(t.scale, 10_000)})`;

const round = (n: number, by = 100) => Math.round(n * by) / by;
