import { createMiddleware } from 'hono/factory';
import { HubError } from '../errors';
import type { HubContext, HubEnv } from './context';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every state-changing request that a browser could send with the member's cookie must come from
 * the hub's own pages: its Origin is one of the hub's, or (a browser that sends no Origin) its
 * Sec-Fetch-Site says same-origin. hono/csrf is not enough: it lets application/json through and
 * trusts the Host header. A request authenticated by a bearer token only carries no ambient
 * credential, so another site cannot forge it, and it is let through. Sign-in is checked too: a
 * foreign page must not sign a browser in to an account of its choosing.
 */
export const sameOriginOnly = (ctx: HubContext) =>
  createMiddleware<HubEnv>(async (c, next) => {
    if (SAFE.has(c.req.method) || c.get('bearer')) return next();
    const origin = c.req.header('Origin');
    if (origin !== undefined ? ctx.origins.includes(origin) : c.req.header('Sec-Fetch-Site') === 'same-origin') return next();
    throw new HubError(
      'CROSS_ORIGIN_REFUSED',
      origin === undefined ? 'a state change needs an Origin header of this hub' : 'requests from another origin are refused',
    );
  });
