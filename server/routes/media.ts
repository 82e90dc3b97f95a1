import { Hono } from 'hono';
import { ServiceError } from '../lib/service-error';
import { renderSceneSvg, sceneFor } from '../seed/scenes';

/** The demo's images, generated on request (not part of the spec; docs/contract.md). */
export function mediaRouter() {
  const router = new Hono();
  router.get('/media/scenes/:file', (c) => {
    const match = /^([0-9]{1,7})\.svg$/.exec(c.req.param('file'));
    if (!match) throw new ServiceError('NOT_FOUND', 'no such image');
    return c.body(renderSceneSvg(sceneFor(Number(match[1]))), 200, {
      'Content-Type': 'image/svg+xml',
      'Cache-Control': 'public, max-age=86400, immutable',
      // An SVG opened directly must not run anything.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
      'X-Content-Type-Options': 'nosniff',
    });
  });
  return router;
}
