import { createMiddleware } from 'hono/factory';
import { isValidId } from '../../src/api/contract';
import { ApiError } from '../lib/api-error';
import { allowedMethods } from './methods';

/**
 * HEAD on the API is refused. Hono answers HEAD by running the GET handler and dropping the
 * body, so a HEAD on the incremental pull would move the subscription's position and write a
 * receipt for items nobody receives. No API GET is worth a HEAD, so the rule is one: 405.
 */
export const refuseHead = createMiddleware(async (c, next) => {
  if (c.req.method !== 'HEAD') return next();
  const allowed = allowedMethods(c.req.path).join(', ') || 'GET';
  c.header('Allow', allowed);
  throw new ApiError('METHOD_NOT_ALLOWED', `HEAD is not supported on the API: use ${allowed}`);
});

/** Query parameters that carry one ID, and those that carry a comma-separated list of them. */
const isIdParam = (name: string) => name.endsWith('_id');
const isIdListParam = (name: string) => name.endsWith('_ids');

function invalidId(where: string, value: string): never {
  throw new ApiError(
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
