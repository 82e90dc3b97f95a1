import { createMiddleware } from 'hono/factory';

/**
 * One line per request: method, path, status and time. No query string, no header and no body, so
 * no key, password or token can reach a log (the simulator's and the hub's apps both use it).
 */
export const requestLog = (log: (line: string) => void) =>
  createMiddleware(async (c, next) => {
    const started = performance.now();
    await next();
    log(`${c.req.method} ${c.req.path} ${c.res.status} ${(performance.now() - started).toFixed(1)}ms`);
  });
