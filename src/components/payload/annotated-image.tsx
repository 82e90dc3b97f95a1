import { useState } from 'react';
import { Button } from '../ui/button';
import type { ImageWithShapes } from '../../domain/payload';
import { useImageOrigins } from './image-origins';
import { ImageViewer } from './image-viewer';
import { isOtherOrigin, safeImageUrl } from '../../domain/payload';

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
 * An image from a safe URL, without a referrer, in the viewer with its shapes drawn over it.
 * Loaded lazily, unless `eager`: the review loads the image of the item it pre-renders before the
 * user gets there. An image from another origin than the base URL loads only once the user allowed
 * it (once, or always for that origin on this connection); same-origin, data: and blob: images
 * load at once. `keyboard`: the viewer answers its keys (only the review's focused item does).
 */
export function AnnotatedImage({
  image,
  baseUrl,
  eager = false,
  timing = 'delivered-image',
  keyboard = false,
}: {
  image: ImageWithShapes;
  baseUrl: string;
  eager?: boolean;
  /** Element Timing identifier: the browser reports when this image is first painted. */
  timing?: string;
  keyboard?: boolean;
}) {
  const src = safeImageUrl(image.url, baseUrl);
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
  // Keyed by the URL: another image starts fitted, with every overlay shown.
  return <ImageViewer key={src} image={image} src={src} eager={eager} timing={timing} keyboard={keyboard} />;
}
