import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { setAnswerHeader } from '../http/answer-headers';
import { withSecurityHeaders } from '../http/security-headers';

/*
 * Headers set after a handler (the security headers, the hub's no-store) go on the handler's own
 * answer: Hono's c.header() there copies the answer, whose body @hono/node-server then streams out
 * instead of writing it in one go (issue 25's added latency). An answer whose headers cannot change
 * is still copied.
 */
describe('headers set on an answer after its handler', () => {
  /** What the app answers, and whether it is the very answer the handler returned. */
  async function answer(handler: () => Response) {
    let returned: Response | undefined;
    let sent: Response | undefined;
    const app = new Hono();
    app.use('*', async (c, next) => {
      await next();
      sent = c.res;
    });
    app.use('*', withSecurityHeaders([]));
    app.use('*', async (c, next) => {
      await next();
      setAnswerHeader(c, 'Cache-Control', 'no-store');
    });
    app.get('/', () => (returned = handler()));
    const response = await app.request('/');
    return {
      same: sent === returned,
      frame: response.headers.get('x-frame-options'),
      cache: response.headers.get('cache-control'),
      text: await response.text(),
    };
  }

  it('are set on the handler’s own answer, not on a copy', async () => {
    expect(await answer(() => new Response('{"ok":true}', { headers: { 'Content-Type': 'application/json' } }))).toEqual({
      same: true,
      frame: 'DENY',
      cache: 'no-store',
      text: '{"ok":true}',
    });
  });

  it('copy an answer whose headers cannot change', async () => {
    const immutable = () => {
      const response = new Response('fixed');
      Object.defineProperty(response, 'headers', {
        value: new Proxy(new Headers(), {
          get: (target, key) =>
            key === 'set'
              ? () => {
                  throw new TypeError('immutable');
                }
              : Reflect.get(target, key, target),
        }),
      });
      return response;
    };
    const got = await answer(immutable);
    expect(got).toEqual({ same: false, frame: 'DENY', cache: 'no-store', text: 'fixed' });
  });
});
