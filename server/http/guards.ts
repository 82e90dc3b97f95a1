import { createMiddleware } from 'hono/factory';
import { ApiError } from '../lib/api-error';

/**
 * HEAD on the API is refused. Hono answers HEAD by running the GET handler and dropping the
 * body, so a HEAD on the incremental pull would move the subscription's position and write a
 * receipt for items nobody receives. No API GET is worth a HEAD, so the rule is one: 405.
 */
export const refuseHead = createMiddleware(async (c, next) => {
  if (c.req.method !== 'HEAD') return next();
  c.header('Allow', 'GET');
  throw new ApiError('METHOD_NOT_ALLOWED', 'HEAD is not supported on the API: use GET');
});
