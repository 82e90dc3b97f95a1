import { useState } from 'react';
import { Button } from '../../components/ui/button';
import type { ImageWithShapes } from './annotations';
import { useImageOrigins } from './image-origins';
import { isOtherOrigin, safeImageUrl } from './safe-url';

const COLORS = ['#f43f5e', '#22c55e', '#3b82f6', '#eab308', '#a855f7', '#14b8a6', '#f97316'];
const colorFor = (label = '') => COLORS[[...label].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % COLORS.length]!;

/** A host as the user reads it (punycode for IDNs, so a look-alike shows as one), never endless. */
const shownHost = (host: string) => (host.length > 80 ? `${host.slice(0, 80)}…` : host);

/**
 * An image from another origin than the connection's base URL, not loaded: loading it would tell
 * that origin who opened the item, and when. It names the host and waits for the user.
 */
function ForeignImage({ url, onLoadOnce, onAlwaysAllow }: { url: URL; onLoadOnce: () => void; onAlwaysAllow?: () => void }) {
  const host = shownHost(url.host);
  return (
    <div
      role="group"
      aria-label={`Image from ${host}, not loaded`}
      className="flex flex-col gap-2 self-start rounded border border-dashed border-amber-400 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950"
    >
      <p className="[overflow-wrap:anywhere]">
        Image from <strong>{host}</strong>, not loaded: loading it tells {host} that this item was opened.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={onLoadOnce}>
          Load once
        </Button>
        {onAlwaysAllow && (
          <Button size="sm" onClick={onAlwaysAllow}>
            Always allow {host}
          </Button>
        )}
      </div>
    </div>
  );
}

/**
 * An image from a safe URL, without a referrer, with its shapes drawn over it. Loaded lazily,
 * unless `eager`: the review loads the image of the item it pre-renders before the user gets there.
 * An image from another origin than the base URL loads only once the user allowed it (once, or
 * always for that origin on this connection); same-origin, data: and blob: images load at once.
 */
export function AnnotatedImage({
  image,
  baseUrl,
  eager = false,
  timing = 'delivered-image',
}: {
  image: ImageWithShapes;
  baseUrl: string;
  eager?: boolean;
  /** Element Timing identifier: the browser reports when this image is first painted. */
  timing?: string;
}) {
  const src = safeImageUrl(image.url, baseUrl);
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  const [failed, setFailed] = useState(false);
  // The URL loaded once, not a flag: a new URL in the same place asks again.
  const [once, setOnce] = useState<string | null>(null);
  const origins = useImageOrigins();
  if (!src) {
    return <p className="text-sm text-amber-800 dark:text-amber-300">Image not shown: its URL is not an http(s), data:image or blob URL.</p>;
  }
  if (once !== src && isOtherOrigin(src, baseUrl)) {
    const url = new URL(src);
    if (!origins.allowed.has(url.origin)) {
      return <ForeignImage url={url} onLoadOnce={() => setOnce(src)} onAlwaysAllow={origins.connectionId ? () => origins.allow(url.origin) : undefined} />;
    }
  }
  const width = image.width ?? natural?.width;
  const height = image.height ?? natural?.height;
  const labels = [...new Set(image.shapes.map((s) => s.label).filter(Boolean))];
  return (
    <figure className="flex flex-col gap-2">
      <div className="relative inline-block max-w-full self-start overflow-hidden rounded border border-slate-200 dark:border-slate-700">
        <img
          src={src}
          alt={`Delivered image${labels.length ? ` with ${image.shapes.length} annotations: ${labels.join(', ')}` : ''}`}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          elementtiming={timing}
          referrerPolicy="no-referrer"
          crossOrigin={undefined}
          className="block h-auto max-h-[55vh] max-w-full"
          onLoad={(e) => setNatural({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })}
          onError={() => setFailed(true)}
        />
        {width && height && image.shapes.length > 0 && (
          <svg className="pointer-events-none absolute inset-0 h-full w-full" viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" aria-hidden="true">
            {image.shapes.map((shape, index) => {
              const color = colorFor(shape.label);
              return shape.kind === 'box' ? (
                <g key={index}>
                  <rect x={shape.x} y={shape.y} width={shape.width} height={shape.height} fill="none" stroke={color} strokeWidth={Math.max(2, width / 200)} />
                  {shape.label && (
                    <text
                      x={shape.x + 3}
                      y={Math.max(shape.y - 4, 12)}
                      fill={color}
                      fontSize={Math.max(12, width / 40)}
                      fontWeight="bold"
                      paintOrder="stroke"
                      stroke="#000"
                      strokeWidth={2}
                    >
                      {shape.label}
                    </text>
                  )}
                </g>
              ) : (
                <polygon
                  key={index}
                  points={shape.points.map((p) => p.join(',')).join(' ')}
                  fill={`${color}33`}
                  stroke={color}
                  strokeWidth={Math.max(2, width / 200)}
                />
              );
            })}
          </svg>
        )}
      </div>
      {failed && <p className="text-sm text-amber-800 dark:text-amber-300">The image could not be loaded.</p>}
      {image.shapes.length > 0 && (
        <figcaption className="text-xs text-slate-600 dark:text-slate-400">
          {image.shapes.length} annotation{image.shapes.length === 1 ? '' : 's'}
          {labels.length > 0 && `: ${labels.join(', ')}`}
        </figcaption>
      )}
    </figure>
  );
}
