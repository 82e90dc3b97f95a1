/**
 * A path of this console to return to after connecting or signing in: starts with one "/" (not
 * "//" or "/\", which browsers read as another host) and holds no control characters. Shared by the
 * console's routes and the hub, which sends the browser there after a single sign-on.
 */
export function isSafeRedirect(target: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  return /^\/(?![/\\])/.test(target) && !/[\u0000-\u001f\\]/.test(target);
}
