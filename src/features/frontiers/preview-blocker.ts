import { jwtInfo, type Connection } from '../../data';

/**
 * Whether the connection can preview now; otherwise why not, in words. Apart from the page:
 * the route's loader asks too, and the loader is in the first page's JavaScript.
 */
export function previewBlocker(connection: Connection | null): string | null {
  if (!connection) return 'Connect first: previews use the dashboard JWT of a connection.';
  // Through a team hub the hub attaches the JWT of its vendor key; the browser holds none.
  if (connection.hub) return null;
  if (!connection.jwt) return 'This connection has no dashboard JWT. Task previews need one: add it on the Connection page.';
  const info = jwtInfo(connection.jwt);
  if ('error' in info) return info.error;
  if (info.expired) return 'The dashboard JWT of this connection has expired. Add a fresh one on the Connection page.';
  return null;
}
