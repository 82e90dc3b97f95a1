import { useCallback, useRef } from 'react';
import { isOtherOrigin, locateImage, safeImageUrl } from '../../domain/payload';
import { useImageOrigins } from './image-origins';

/**
 * Fetches the images these payloads would show, without showing them, by the viewer's own rules
 * (safe URLs only, no referrer, another origin only once the user always allowed it). A viewer
 * rendered later then finds its image in the memory cache, complete in the frame that lays it
 * out. Rendered ahead without it, each image arrived a few frames later and asked for one more
 * frame to paint it (hidden as it was), and the keypress that came next waited for the vsync
 * behind that frame. Each call's images are held through the next call too, as a precaution: that
 * call comes in the turn that queues the render of the viewers showing the last call's images (a
 * transition, which a keypress can put off), so an image released then could be collected before
 * its viewer is rendered.
 */
export function useImagePreload(baseUrl: string): (payloads: readonly unknown[]) => void {
  const { allowed } = useImageOrigins();
  const held = useRef<HTMLImageElement[][]>([]);
  return useCallback(
    (payloads) => {
      const images: HTMLImageElement[] = [];
      for (const payload of payloads) {
        if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) continue;
        const located = locateImage(payload as Record<string, unknown>);
        const src = located && safeImageUrl(located.url, baseUrl);
        // data: and blob: images are in memory already.
        if (!src || /^(data|blob):/i.test(src)) continue;
        if (isOtherOrigin(src, baseUrl) && !allowed.has(new URL(src).origin)) continue;
        const image = new Image();
        image.referrerPolicy = 'no-referrer';
        image.decoding = 'async';
        image.src = src;
        images.push(image);
      }
      held.current = [images, held.current[0] ?? []];
    },
    [allowed, baseUrl],
  );
}
