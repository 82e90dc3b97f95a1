import { vi } from 'vitest';

/** One `new Image()` the code under test asked for: its URL, and the referrer policy set before it. */
export interface ImageRequest {
  src: string;
  referrerPolicy: string;
}

/**
 * Stands in for `Image` (jsdom fetches nothing) and records each image asked for, in order, in the
 * array it returns. Undo with `vi.unstubAllGlobals()`.
 */
export function recordImageRequests(): ImageRequest[] {
  const made: ImageRequest[] = [];
  vi.stubGlobal(
    'Image',
    class {
      referrerPolicy = '';
      decoding = '';
      set src(value: string) {
        made.push({ src: value, referrerPolicy: this.referrerPolicy });
      }
    },
  );
  return made;
}
