import type { Context } from 'hono';

/**
 * Sets a header on the answer a handler has already returned (in a middleware, after `next()`).
 * Set on the answer's own headers: Hono's `c.header()` at that point copies the answer first, and
 * the copy's body is then read back through a web stream on its way out (@hono/node-server's slow
 * path), about 0.3–0.5 ms a request on this VM, where the handler's string body is otherwise
 * written in one go. Only an answer whose headers cannot be changed (a `fetch()` Response, a
 * TypeError here) is copied as before.
 */
export function setAnswerHeader(c: Context, name: string, value: string): void {
  try {
    c.res.headers.set(name, value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    c.header(name, value);
  }
}
