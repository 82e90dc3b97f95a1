import { createMiddleware } from 'hono/factory';
import { isValidId } from '../../src/api/contract';
import { ServiceError } from '../lib/service-error';
import { allowedMethods, takesBody } from './methods';

/**
 * HEAD on the API is refused. Hono answers HEAD by running the GET handler and dropping the
 * body, so a HEAD on the incremental pull would move the subscription's position and write a
 * receipt for items nobody receives. No API GET is worth a HEAD, so the rule is one: 405.
 */
export const refuseHead = createMiddleware(async (c, next) => {
  if (c.req.method !== 'HEAD') return next();
  const allowed = allowedMethods(c.req.path).join(', ') || 'GET';
  c.header('Allow', allowed);
  throw new ServiceError('METHOD_NOT_ALLOWED', `HEAD is not supported on the API: use ${allowed}`);
});

/**
 * A HEAD answer has no body, so it names no Content-Type: a client reading `application/json`
 * over an empty body fails to parse it (an outside validator, Prism, failed with a 500 on it).
 * Outermost on /v1, so it covers every refusal of a HEAD, the 405 and the Host check's 421 alike.
 */
export const headWithoutContent = createMiddleware(async (c, next) => {
  await next();
  if (c.req.method !== 'HEAD' || !c.res.headers.has('content-type')) return;
  const headers = new Headers(c.res.headers);
  headers.delete('content-type');
  headers.delete('content-length');
  const { status } = c.res;
  // Cleared first: Hono carries the old answer's headers (Content-Length too) onto a new one.
  c.res = undefined;
  c.res = new Response(null, { status, headers });
});

/**
 * A request body where the operation describes none (every GET, verify-key, simulated adopt and
 * dispute) is refused with 415 UNEXPECTED_BODY, not ignored: a client that sends one believes it
 * means something (docs/contract.md "Request bodies"). A body is what HTTP/1.1 frames as one: a
 * Content-Length above 0, or any Transfer-Encoding; `Content-Type` alone, with nothing after it,
 * is no body. Paths and methods outside the document are left to the 404 and 405 that follow.
 */
export const refuseUnexpectedBody = createMiddleware(async (c, next) => {
  if (takesBody(c.req.method, c.req.path) !== false) return next();
  const length = c.req.header('content-length');
  const declaresBody = (length !== undefined && length.trim() !== '0') || c.req.header('transfer-encoding') !== undefined;
  if (declaresBody) throw new ServiceError('UNEXPECTED_BODY', `${c.req.method} ${c.req.path} takes no request body: send none`);
  return next();
});

/** Query parameters that carry one ID, and those that carry a comma-separated list of them. */
const isIdParam = (name: string) => name.endsWith('_id');
const isIdListParam = (name: string) => name.endsWith('_ids');

function invalidId(where: string, value: string): never {
  throw new ServiceError(
    'INVALID_PARAMETER',
    `${where} must be an ID of letters, digits, '.', '_', ':' or '-' (not '.' or '..'), got ${JSON.stringify(value.slice(0, 80))}`,
  );
}

/**
 * Every ID in a /v1 path or query follows the contract's one rule (isValidId), checked once
 * here before routing: a path segment is read percent-decoded, as a route parameter would be,
 * so `..%2F..` is refused and never reaches a handler, a log line or a lookup.
 */
export const validIds = createMiddleware(async (c, next) => {
  const url = new URL(c.req.url);
  for (const raw of url.pathname.split('/').slice(2)) {
    if (raw === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      invalidId('a path segment', raw);
    }
    if (!isValidId(segment)) invalidId('a path segment', segment);
  }
  for (const [name, value] of url.searchParams) {
    if (isIdParam(name) && !isValidId(value)) invalidId(name, value);
    if (isIdListParam(name) && !value.split(',').every(isValidId)) invalidId(`every ID of ${name}`, value);
  }
  return next();
});
