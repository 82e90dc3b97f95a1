/**
 * A path of this console to return to after connecting or signing in: starts with one "/" (not
 * "//" or "/\", which browsers read as another host) and holds only printable ASCII (a URL's path as
 * the browser gives it is %-encoded; DEL or a C1 control would end a Location header in a 500) and
 * no backslash. Shared by the console's routes and the hub, which sends the browser there after a
 * single sign-on.
 */
export function isSafeRedirect(target: string): boolean {
  return /^\/(?![/\\])[\x21-\x7e]*$/.test(target) && !target.includes('\\');
}
