import {
  memo,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type PointerEvent as ReactPointerEvent,
  type RefObject,
} from 'react';
import { Button } from '../ui/button';
import { AnnotationOverlay, boundsOf, groupByLabel, type LabelGroup } from './annotation-overlay';
import type { ImageWithShapes } from '../../domain/payload';
import { ShapeTooltip } from './shape-tooltip';
import { useViewerKeys } from './use-viewer-keys';
import { viewerAria } from './viewer-keymap';
import { clampPan, cssTransform, fitTransform, panBy, zoomStep, zoomTo, type Size, type ViewTransform } from './view-transform';

/** Shift+arrow moves a tenth of the viewport. */
const PAN_FRACTION = 0.1;

/** Sizes within half a pixel are the same: a measure and the observer's round differently. */
const sameSize = (a: Size, b: Size) => Math.abs(a.width - b.width) < 0.5 && Math.abs(a.height - b.height) < 0.5;

/** `shape`: what sets the element's own size (its aspect ratio here); measured again when it changes. */
function useElementSize(ref: RefObject<HTMLElement | null>, shape: string): Size {
  const [size, setSize] = useState<Size>({ width: 0, height: 0 });
  // Measured in the commit that mounts it, so the fit is right in the frame that first shows it.
  // Otherwise the observer's first report (after that frame's layout) would render it again and
  // ask for one more frame: a viewer rendered ahead of the review (item-detail.tsx) did so after
  // every keypress that brought new ones in, and the next keypress waited for the vsync behind it.
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const box = element.getBoundingClientRect();
    // The content box: the border box without its borders (the viewport has no padding or scrollbar).
    const measured = {
      width: Math.max(0, box.width - (element.offsetWidth - element.clientWidth)),
      height: Math.max(0, box.height - (element.offsetHeight - element.clientHeight)),
    };
    setSize((s) => (sameSize(s, measured) ? s : measured));
    // Also when its shape changes in a commit (an image whose payload gives no size takes its own
    // aspect ratio in the commit that mounts it, complete from memory): the 4:3 box measured first
    // is not the one the frame shows, and the observer would correct it a render and a frame later.
  }, [ref, shape]);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const box = entry!.contentRect;
      setSize((s) => (sameSize(s, box) ? s : { width: box.width, height: box.height }));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}

/**
 * An image with its annotations, zoomable and pannable. The image and one SVG of every shape sit
 * in one layer moved by a single CSS transform, so a zoom or pan step re-renders no shape. Keys
 * (viewer-keymap.ts) answer only when `keyboard` is set and the viewer is shown.
 */
export function ImageViewer({
  image,
  src,
  eager,
  timing,
  keyboard,
}: {
  image: ImageWithShapes;
  src: string;
  eager: boolean;
  timing: string;
  keyboard: boolean;
}) {
  const root = useRef<HTMLElement>(null);
  const viewportRef = useRef<HTMLDivElement>(null);
  const [natural, setNatural] = useState<Size | null>(null);
  const imageRef = useRef<HTMLImageElement>(null);
  // An image already in memory (fetched ahead: image-preload.ts) is complete as it is mounted:
  // its size is taken in the same commit, so the frame that lays it out fits it, and its load
  // event changes nothing (a render and one more frame otherwise).
  useLayoutEffect(() => {
    const img = imageRef.current;
    if (img?.complete && img.naturalWidth > 0 && img.naturalHeight > 0) setNatural({ width: img.naturalWidth, height: img.naturalHeight });
  }, []);
  const [failed, setFailed] = useState(false);
  // null: fitted, following the viewport's size; otherwise where the user zoomed or panned to.
  const [chosen, setChosen] = useState<ViewTransform | null>(null);
  const [allHidden, setAllHidden] = useState(false);
  const [opacity, setOpacity] = useState(1);
  const [outlineOnly, setOutlineOnly] = useState(false);
  const [hiddenLabels, setHiddenLabels] = useState<ReadonlySet<string>>(new Set());
  const [active, setActive] = useState<number | null>(null);
  const tooltipId = useId();

  const width = image.width ?? natural?.width;
  const height = image.height ?? natural?.height;
  const size = useMemo<Size | null>(() => (width && height ? { width, height } : null), [width, height]);
  const aspectRatio = size ? `${size.width} / ${size.height}` : '4 / 3';
  const viewport = useElementSize(viewportRef, aspectRatio);
  const transform = size ? (chosen ? clampPan(chosen, size, viewport) : fitTransform(size, viewport)) : { scale: 1, x: 0, y: 0 };
  const fitted = size ? fitTransform(size, viewport).scale : 1;
  const zoomed = transform.scale > fitted + 1e-6;

  const groups = useMemo(() => groupByLabel(image.shapes), [image.shapes]);
  const shownCount = allHidden ? 0 : groups.reduce((n, g) => n + (hiddenLabels.has(g.label) ? 0 : g.indexes.length), 0);

  // Handlers read the sizes through a ref (wheel and pointer listeners are made once) and the
  // view through the state updater, so two events in one frame both count.
  const sizes = useRef({ size, viewport });
  useLayoutEffect(() => {
    sizes.current = { size, viewport };
  }, [size, viewport]);
  const apply = useCallback((change: (t: ViewTransform, size: Size, viewport: Size) => ViewTransform) => {
    const { size: s, viewport: v } = sizes.current;
    if (s) setChosen((previous) => change(previous ? clampPan(previous, s, v) : fitTransform(s, v), s, v));
  }, []);

  const zoomIn = useCallback(() => apply((t, s, v) => zoomStep(t, 1, s, v)), [apply]);
  const zoomOut = useCallback(() => apply((t, s, v) => zoomStep(t, -1, s, v)), [apply]);
  const fit = useCallback(() => setChosen(null), []);
  const actualSize = useCallback(() => apply((t, s, v) => zoomTo(t, 1, s, v)), [apply]);
  const pan = useCallback((dx: number, dy: number) => apply((t, s, v) => panBy(t, dx * v.width * PAN_FRACTION, dy * v.height * PAN_FRACTION, s, v)), [apply]);
  const toggleOverlays = useCallback(() => setAllHidden((h) => !h), []);
  const toggleLabel = useCallback(
    (label: string) =>
      setHiddenLabels((current) => {
        const next = new Set(current);
        if (!next.delete(label)) next.add(label);
        return next;
      }),
    [],
  );

  useViewerKeys(
    useMemo(
      () => ({
        zoomIn,
        zoomOut,
        fit,
        actualSize,
        // Shift+← shows what is to the left: the image moves right.
        panLeft: () => pan(1, 0),
        panRight: () => pan(-1, 0),
        panUp: () => pan(0, 1),
        panDown: () => pan(0, -1),
        toggleOverlays,
      }),
      [zoomIn, zoomOut, fit, actualSize, pan, toggleOverlays],
    ),
    keyboard,
    root,
  );

  // Ctrl+wheel (and a trackpad's pinch, which browsers send as one) zooms at the pointer; a plain
  // wheel scrolls the page. Not passive, so the browser's own page zoom can be held back.
  useEffect(() => {
    const element = viewportRef.current;
    if (!element) return;
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      const box = element.getBoundingClientRect();
      const at = { x: event.clientX - box.left, y: event.clientY - box.top };
      apply((t, s, v) => zoomTo(t, t.scale * Math.exp(-event.deltaY * 0.002), s, v, at));
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [apply]);

  // Drag pans; two pointers pinch.
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    const previous = pointers.current.get(event.pointerId);
    if (!previous) return;
    const now = { x: event.clientX, y: event.clientY };
    if (pointers.current.size === 2) {
      const other = [...pointers.current.entries()].find(([id]) => id !== event.pointerId)![1];
      const before = Math.hypot(previous.x - other.x, previous.y - other.y);
      const after = Math.hypot(now.x - other.x, now.y - other.y);
      const box = event.currentTarget.getBoundingClientRect();
      const at = { x: (now.x + other.x) / 2 - box.left, y: (now.y + other.y) / 2 - box.top };
      if (before > 0) apply((t, s, v) => zoomTo(t, (t.scale * after) / before, s, v, at));
    } else {
      apply((t, s, v) => panBy(t, now.x - previous.x, now.y - previous.y, s, v));
    }
    pointers.current.set(event.pointerId, now);
  };
  const onPointerEnd = (event: ReactPointerEvent<HTMLDivElement>) => {
    pointers.current.delete(event.pointerId);
  };

  const shapeIndex = (target: EventTarget | null) => {
    const index = (target as Element | null)?.getAttribute?.('data-shape');
    return index == null ? null : Number(index);
  };
  /** The shapes one can move to: those shown, in the overlay's order. */
  const visibleShapes = () =>
    [...(viewportRef.current?.querySelectorAll<SVGElement>('[data-shape]') ?? [])].filter((shape) => !shape.closest('[visibility="hidden"]'));
  const onOverlayKey = (event: KeyboardEvent) => {
    if (event.shiftKey || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const shapes = visibleShapes();
    if (!shapes.length) return;
    event.preventDefault();
    const at = shapes.indexOf(event.target as SVGElement);
    const next = event.key === 'ArrowRight' ? (at + 1) % shapes.length : at <= 0 ? shapes.length - 1 : at - 1;
    shapes[next]!.focus();
  };
  /** A shape focused from the keyboard outside the view is brought into it. */
  const onShapeFocus = (event: FocusEvent) => {
    const index = shapeIndex(event.target);
    setActive(index);
    if (index === null) return;
    const b = boundsOf(image.shapes[index]!);
    const { scale, x, y } = transform;
    const outside =
      (b.x + b.width) * scale + x < 0 || (b.y + b.height) * scale + y < 0 || b.x * scale + x > viewport.width || b.y * scale + y > viewport.height;
    if (outside)
      apply((t, s, v) => clampPan({ scale: t.scale, x: v.width / 2 - (b.x + b.width / 2) * t.scale, y: v.height / 2 - (b.y + b.height / 2) * t.scale }, s, v));
  };

  const labels = groups.map((g) => g.label);
  const percent = Math.round(transform.scale * 100);
  return (
    // min-h-0 down to the image: a parent that is short of room (the review's item card) shrinks the image to fit, not the tools.
    <figure ref={root} className="flex min-h-0 flex-col gap-2" aria-label="Image viewer">
      <div className="flex flex-wrap items-center gap-1 text-sm" role="toolbar" aria-label="Image tools">
        <Button size="sm" onClick={zoomOut} disabled={!size || !zoomed} aria-keyshortcuts={viewerAria('zoomOut')}>
          Zoom out
        </Button>
        <Button size="sm" onClick={zoomIn} disabled={!size} aria-keyshortcuts={viewerAria('zoomIn')}>
          Zoom in
        </Button>
        <Button size="sm" onClick={fit} disabled={!size} aria-pressed={chosen === null} aria-keyshortcuts={viewerAria('fit')}>
          Fit
        </Button>
        <Button size="sm" onClick={actualSize} disabled={!size} aria-keyshortcuts={viewerAria('actualSize')}>
          100%
        </Button>
        <output className="min-w-[4.5rem] px-1 tabular-nums" aria-label="Zoom">
          {percent}%
        </output>
        {image.shapes.length > 0 && (
          <>
            <Button size="sm" onClick={toggleOverlays} aria-pressed={allHidden} aria-keyshortcuts={viewerAria('toggleOverlays')}>
              Hide annotations
            </Button>
            <label className="flex items-center gap-1">
              Opacity
              <input type="range" min={0.1} max={1} step={0.1} value={opacity} onChange={(e) => setOpacity(Number(e.target.value))} className="w-20" />
            </label>
            <label className="flex items-center gap-1">
              <input type="checkbox" checked={outlineOnly} onChange={(e) => setOutlineOnly(e.target.checked)} />
              Outline only
            </label>
          </>
        )}
      </div>
      <div
        ref={viewportRef}
        className={`relative max-h-[var(--image-max-h,55vh)] min-h-24 w-full shrink touch-none overflow-hidden rounded border border-slate-200 bg-slate-100 select-none lg:max-h-[var(--image-max-h,40vh)] dark:border-slate-700 dark:bg-slate-950 ${zoomed ? 'cursor-grab active:cursor-grabbing' : ''}`}
        style={{ aspectRatio }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
        onPointerOver={(e) => setActive(shapeIndex(e.target))}
        onPointerLeave={() => setActive(null)}
        onFocus={onShapeFocus}
        onBlur={() => setActive(null)}
        onKeyDown={onOverlayKey}
      >
        <div data-view-layer className="absolute top-0 left-0 origin-top-left" style={{ transform: cssTransform(transform, zoomed) }}>
          <img
            ref={imageRef}
            src={src}
            alt={`Delivered image${labels.length ? ` with ${image.shapes.length} annotations: ${labels.join(', ')}` : ''}`}
            loading={eager ? 'eager' : 'lazy'}
            decoding="async"
            elementtiming={timing}
            referrerPolicy="no-referrer"
            draggable={false}
            width={size?.width}
            height={size?.height}
            // Inline, so no stylesheet's max-width or max-height squeezes the image under its overlay.
            style={size ? { width: size.width, height: size.height, maxWidth: 'none', maxHeight: 'none' } : { maxWidth: 'none', maxHeight: 'none' }}
            className="block"
            // Its size is needed only when the payload does not give it: a render for nothing otherwise
            // (and a frame, for an image rendered ahead of the review).
            onLoad={(e) => {
              if (image.width && image.height) return;
              const loaded = { width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight };
              setNatural((n) => (n && sameSize(n, loaded) ? n : loaded));
            }}
            onError={() => setFailed(true)}
          />
          {size && image.shapes.length > 0 && (
            <AnnotationOverlay
              width={size.width}
              height={size.height}
              shapes={image.shapes}
              groups={groups}
              hiddenLabels={hiddenLabels}
              allHidden={allHidden}
              opacity={opacity}
              outlineOnly={outlineOnly}
              scale={transform.scale}
              describedBy={tooltipId}
            />
          )}
        </div>
        <ShapeTooltip id={tooltipId} shape={active === null || allHidden ? null : (image.shapes[active] ?? null)} transform={transform} viewport={viewport} />
      </div>
      {failed && <p className="text-sm text-amber-800 dark:text-amber-300">The image could not be loaded.</p>}
      {image.shapes.length > 0 && (
        <figcaption className="flex flex-col gap-1 text-xs text-slate-600 dark:text-slate-400">
          <span aria-live="polite">
            {shownCount} of {image.shapes.length} annotation{image.shapes.length === 1 ? '' : 's'} shown
            {size && ' · Tab to the annotations, then ← → move between them'}
          </span>
          <LabelLegend groups={groups} hidden={hiddenLabels} onToggle={toggleLabel} />
        </figcaption>
      )}
    </figure>
  );
}

/** Each label with its colour and count; a button shows or hides its shapes. Re-rendered only when they change, not on zoom. */
const LabelLegend = memo(function LabelLegend({
  groups,
  hidden,
  onToggle,
}: {
  groups: LabelGroup[];
  hidden: ReadonlySet<string>;
  onToggle: (label: string) => void;
}) {
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Labels">
      {groups.map((group) => {
        const shown = !hidden.has(group.label);
        return (
          <li key={group.label}>
            <button
              type="button"
              aria-pressed={shown}
              onClick={() => onToggle(group.label)}
              className={`inline-flex items-center gap-1 rounded border px-1.5 py-0.5 text-xs text-slate-800 dark:text-slate-100 ${shown ? 'border-slate-300 dark:border-slate-600' : 'border-dashed border-slate-300 line-through opacity-70 dark:border-slate-600'}`}
            >
              <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm border border-black/40" style={{ background: group.color }} />
              <span className="max-w-[16ch] truncate">{group.label}</span> <span className="tabular-nums">{group.indexes.length}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
});
