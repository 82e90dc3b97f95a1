/**
 * Origins whose images a connection loads without asking. An image is a request: from another
 * origin it tells that origin who opened which item when (a tracking pixel), so it waits for the
 * user. The choice is kept per connection in localStorage under its id, apart from the connection
 * record (which may hold the key): origins are not secrets, and a tab-only connection keeps its id
 * when it is saved again.
 *
 * This file holds the kept choices and how a removed connection forgets them: the connection
 * lifecycle, on every page, needs only that. The viewer's hook (image-origins.ts) loads with it.
 */
export const PREFIX = 'dds.imageOrigins.';

export function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: a choice lasts for this page only
  }
}

export const cache = new Map<string, ReadonlySet<string>>();
export const listeners = new Set<() => void>();
export const notify = () => {
  for (const listener of listeners) listener();
};

/** Forgets a connection's allowed origins, here and in every tab: the connection is removed. */
export function forgetImageOrigins(connectionId: string): void {
  cache.delete(connectionId);
  try {
    storage()?.removeItem(PREFIX + connectionId);
  } catch {
    // Storage disabled: nothing was kept there.
  }
  notify();
}
