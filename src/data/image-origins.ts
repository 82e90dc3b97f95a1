/**
 * Origins whose images a connection loads without asking. An image is a request: from another
 * origin it tells that origin who opened which item when (a tracking pixel), so it waits for the
 * user. The choice is kept per connection in localStorage under its id, apart from the connection
 * record (which may hold the key): origins are not secrets, and a tab-only connection keeps its id
 * when it is saved again.
 *
 * The connection store owns one (`ConnectionStore.imageOrigins`) and makes a removed connection
 * forget its choices; the payload viewer reads, adds to and watches them
 * (src/components/payload/image-origins.ts), which is not on the first page.
 */
export const IMAGE_ORIGINS_PREFIX = 'dds.imageOrigins.';

export function imageOriginsStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: a choice lasts for this page only
  }
}

export class ImageOrigins {
  /** The origins read or allowed, by connection id. */
  readonly cache = new Map<string, ReadonlySet<string>>();
  readonly listeners = new Set<() => void>();

  notify = () => {
    for (const listener of this.listeners) listener();
  };

  /** Forgets a connection's allowed origins, here and in every tab: the connection is removed. */
  forget(connectionId: string): void {
    this.cache.delete(connectionId);
    try {
      imageOriginsStorage()?.removeItem(IMAGE_ORIGINS_PREFIX + connectionId);
    } catch {
      // Storage disabled: nothing was kept there.
    }
    this.notify();
  }
}
