import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { HubError } from '../errors';
import type { HubEnv } from './context';

/**
 * Refuses a request body over `maxSize` bytes (413 BODY_TOO_LARGE) before anything reads it. A body
 * of declared length (Content-Length without Transfer-Encoding: Node's parser then reads exactly
 * that many bytes) is judged by its header alone. Hono's bodyLimit asks for `c.req.raw.body`, which
 * turns @hono/node-server's light request into a whole WHATWG Request on every request, a GET
 * included, and makes the body be read through its stream: work on every request's path. A GET or
 * HEAD carries no body the hub reads; a chunked body, whose size only reading tells, still goes
 * through Hono's, which stops reading at the limit.
 */
export function limitBody(maxSize: number) {
  const tooLarge = () => new HubError('BODY_TOO_LARGE', `request body exceeds ${maxSize} bytes`);
  const streamed = bodyLimit({ maxSize, onError: () => Promise.reject(tooLarge()) });
  return createMiddleware<HubEnv>(async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const declared = c.req.header('Content-Length');
    if (declared === undefined || c.req.header('Transfer-Encoding') !== undefined) return streamed(c, next);
    if (Number.parseInt(declared, 10) > maxSize) throw tooLarge();
    return next();
  });
}
