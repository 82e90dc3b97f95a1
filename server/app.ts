import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { MAX_BODY_BYTES } from '../src/api/contract';
import { gateway, type GatewayOptions } from './gateway';
import type { AppEnv, ServiceContext } from './http/context';
import { headWithoutContent, refuseHead, refuseUnexpectedBody, validIds } from './http/guards';
import { withSecurityHeaders } from './http/security-headers';
import { allowedHostsOnly } from './http/hosts';
import { allowedMethods } from './http/methods';
import { requestLog } from './http/request-log';
import { ServiceError } from './lib/service-error';
import { authRouter } from './routes/auth';
import { catalogRouter } from './routes/catalog';
import { consoleRouter } from './routes/console';
import { dataRouter } from './routes/data';
import { liveRouter } from './routes/live';
import { mediaRouter } from './routes/media';
import { openApiRouter } from './openapi';

const errorBody = (error: ServiceError) => ({
  success: false as const,
  errorCode: error.code,
  errorMessage: error.message,
  ...error.extra,
});

/**
 * The Data Delivery Service as a Hono app: one router per resource, every failure as the
 * JSON error body with its status, never a stack trace.
 */
export function createApp(ctx: ServiceContext, options: { apiOrigins?: readonly string[]; gateway?: GatewayOptions } = {}) {
  const app = new Hono<AppEnv>();

  if (ctx.log) app.use('*', requestLog(ctx.log));

  // Every answer, the API's and a relayed upstream's included, carries this service's security headers.
  app.use('*', withSecurityHeaders(options.apiOrigins ?? []));
  app.use('/v1/*', headWithoutContent);
  if (ctx.hostPolicy) app.use('*', allowedHostsOnly(ctx.hostPolicy));
  app.use('/v1/*', refuseHead);
  app.use('/v1/*', validIds);

  if (ctx.corsOrigins.length > 0) {
    app.use(
      '/v1/*',
      cors({
        origin: [...ctx.corsOrigins],
        allowMethods: ['GET', 'POST', 'OPTIONS'],
        allowHeaders: ['Authorization', 'Content-Type'],
        maxAge: 600,
      }),
    );
  }

  // The OpenAPI document is answered here in both modes.
  app.route('/', openApiRouter());
  if (options.gateway) {
    // Gateway mode (--upstream): every other /v1 request is the real service's to answer, its body
    // streamed on unread, so ahead of the body limit below: the upstream's own limit holds.
    app.all('/v1/*', gateway(options.gateway));
  }

  app.use('/v1/*', refuseUnexpectedBody);
  app.use(
    '/v1/*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => c.json(errorBody(new ServiceError('BODY_TOO_LARGE', `request body exceeds ${MAX_BODY_BYTES} bytes`)), 413),
    }),
  );

  app.route('/v1', catalogRouter(ctx));
  app.route('/v1', authRouter(ctx));
  app.route('/v1', liveRouter(ctx));
  app.route('/v1', dataRouter(ctx));
  app.route('/', mediaRouter());
  app.route('/', consoleRouter(ctx));

  app.notFound((c) => {
    const allowed = allowedMethods(c.req.path);
    if (allowed.length > 0) {
      c.header('Allow', allowed.join(', '));
      return c.json(errorBody(new ServiceError('METHOD_NOT_ALLOWED', `${c.req.method} is not supported on ${c.req.path}: use ${allowed.join(' or ')}`)), 405);
    }
    return c.json(errorBody(new ServiceError('NOT_FOUND', `no route for ${c.req.method} ${c.req.path}`)), 404);
  });

  app.onError((error, c) => {
    if (error instanceof ServiceError) {
      return c.json(errorBody(error), error.status);
    }
    // Unexpected: log the kind of failure, answer without internals.
    ctx.log?.(`internal error on ${c.req.method} ${c.req.path}: ${error.name}: ${error.message}`);
    return c.json(errorBody(new ServiceError('INTERNAL_ERROR', 'internal error')), 500);
  });

  return app;
}
