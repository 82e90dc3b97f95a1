import { redirect } from '@tanstack/react-router';
import { connectionStore } from './instance';
import { isConnected, type Connection } from './model';

/**
 * A path of this console to return to after connecting: starts with one "/" (not "//" or "/\",
 * which browsers read as another host) and holds no control characters.
 */
export function isSafeRedirect(target: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  return /^\/(?![/\\])/.test(target) && !/[\u0000-\u001f\\]/.test(target);
}

/**
 * For loaders of pages that need a key: the active connection, or a redirect to connect that
 * carries where the user was going (`location.href`, a path), so connecting lands there.
 */
export function requireConnection(location?: { href: string }): Connection & { apiKey: string } {
  const active = connectionStore.active;
  if (!isConnected(active)) {
    const target = location?.href;
    throw redirect({ to: '/connection', search: target && isSafeRedirect(target) ? { redirect: target } : {} });
  }
  return active;
}
