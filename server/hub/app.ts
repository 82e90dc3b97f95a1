import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { MAX_BODY_BYTES } from '../../src/api/contract';
import { LOT_LIMITS } from '../../src/api/contract/hub-lots';
import { consoleFiles } from '../http/console-files';
import { allowedHostsOnly } from '../http/hosts';
import { setAnswerHeader } from '../http/answer-headers';
import { requestLog } from '../http/request-log';
import { withSecurityHeaders } from '../http/security-headers';
import { ServiceError } from '../lib/service-error';
import { mediaRouter } from '../routes/media';
import { HubError, hubErrorBody, isDatabaseUnavailable } from './errors';
import { identify } from './http/auth';
import { limitBody } from './http/body-limit';
import type { HubContext, HubEnv } from './http/context';
import { sameOriginOnly } from './http/origin';
import { auditRouter } from './routes/audit';
import { budgetsRouter } from './routes/budgets';
import { eventsRouter } from './routes/events';
import { holdsRouter } from './routes/holds';
import { inboxRouter } from './routes/inbox';
import { teamDecisionsRouter } from './routes/team-decisions';
import { leasesRouter } from './routes/leases';
import { lotsRouter } from './routes/lots';
import { overlapRouter } from './routes/overlap';
import { forwardRouter, prefetchForward } from './routes/forward';
import { membersRouter } from './routes/members';
import { oidcRouter } from './routes/oidc';
import { sessionRouter } from './routes/session';
import { settingsRouter } from './routes/settings';
import { subscriptionsRouter } from './routes/subscriptions';
import { tokensRouter } from './routes/tokens';
import { vendorKeysRouter } from './routes/vendor-keys';

/**
 * The team hub as a Hono app: its own endpoints under /hub/v1 (sessions, members, access tokens,
 * audit, vendor keys) and the vendor's /v1 forwarded for members, every failure as the simulator's JSON error body with the hub's codes, never a stack.
 * Order matters: the Host check, then who is asking (a vendor key is refused before anything
 * else reads it), then the Origin of a state change, then the route's own role check.
 */
/**
 * Refuses what no field of the hub can hold, before anything reads it: a path whose %-encoding is
 * malformed (it would throw where decoded), and a NUL anywhere in the path, the query or a body's
 * text (PostgreSQL refuses it in text with a 500; SQLite keeps it, and the audit row written with
 * it could never be verified again).
 */
const textOnly = createMiddleware<HubEnv>(async (c, next) => {
  const url = c.req.url;
  if (/%00/i.test(url)) throw new HubError('INVALID_PARAMETER', 'a NUL character (%00) is not accepted in a path or query');
  try {
    decodeURIComponent(new URL(url).pathname);
  } catch {
    throw new HubError('INVALID_PARAMETER', 'the path’s %-encoding is malformed');
  }
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
    const body = await c.req.text();
    // A raw NUL, or JSON's escape of one (not an escaped backslash followed by "u0000").
    if (body.includes('\0') || /(^|[^\\])(\\\\)*\\u0000/i.test(body))
      throw new HubError('INVALID_BODY', 'a NUL character (\\u0000) is not accepted in a request body');
  }
  await next();
});

export function createHubApp(ctx: HubContext) {
  const app = new Hono<HubEnv>();

  if (ctx.log) app.use('*', requestLog(ctx.log));
  app.use('*', withSecurityHeaders([]));
  if (ctx.hostPolicy) app.use('*', allowedHostsOnly(ctx.hostPolicy));
  for (const scope of ['/hub/v1/*', '/v1/*'])
    app.use(scope, async (c, next) => {
      // Nothing the hub answers may be cached by a browser or a proxy: it is all per member.
      await next();
      setAnswerHeader(c, 'Cache-Control', 'no-store');
    });
  for (const scope of ['/hub/v1/*', '/v1/*']) {
    // A lot carries its item IDs: its routes take up to LOT_LIMITS.bodyBytes, everything else the usual limit.
    const limits = [MAX_BODY_BYTES, LOT_LIMITS.bodyBytes].map((maxSize) => limitBody(maxSize));
    app.use(scope, (c, next) => limits[c.req.path === '/hub/v1/lots' || c.req.path.startsWith('/hub/v1/lots/') ? 1 : 0]!(c, next));
    app.use(scope, textOnly);
    if (scope === '/v1/*') app.use(scope, prefetchForward(ctx));
    app.use(scope, identify(ctx));
    app.use(scope, sameOriginOnly(ctx));
    // A state change appended its audit row before answering: the change stream reads it now, not at its next poll.
    app.use(scope, async (c, next) => {
      await next();
      if (c.req.method !== 'GET' && c.req.method !== 'HEAD') ctx.events?.wake();
    });
  }

  app.route('/hub/v1', sessionRouter(ctx));
  app.route('/hub/v1', oidcRouter(ctx));
  app.route('/hub/v1', membersRouter(ctx));
  app.route('/hub/v1', tokensRouter(ctx));
  app.route('/hub/v1', auditRouter(ctx));
  app.route('/hub/v1', vendorKeysRouter(ctx));
  app.route('/hub/v1', settingsRouter(ctx));
  app.route('/hub/v1', subscriptionsRouter(ctx));
  app.route('/hub/v1', budgetsRouter(ctx));
  app.route('/hub/v1', holdsRouter(ctx));
  app.route('/hub/v1', lotsRouter(ctx));
  app.route('/hub/v1', overlapRouter(ctx));
  app.route('/hub/v1', eventsRouter(ctx));
  app.route('/hub/v1', inboxRouter(ctx));
  app.route('/hub/v1', teamDecisionsRouter(ctx));
  app.route('/hub/v1', leasesRouter(ctx));
  // The vendor's own paths, forwarded with the vendor key the hub holds.
  app.route('/v1', forwardRouter(ctx));
  // --demo's items name their images by a path on the vendor's origin, which is the hub's for the console.
  if (ctx.demoMedia) app.route('/', mediaRouter());
  // The console (--static): its files and its routes' index.html, never under /v1 or /hub.
  if (ctx.staticDir) app.route('/', consoleFiles<HubEnv>(ctx.staticDir, ['/v1', '/hub']));

  app.notFound((c) => c.json(hubErrorBody(new HubError('NOT_FOUND', `no route for ${c.req.method} ${c.req.path}`)), 404));

  app.onError((error, c) => {
    if (error instanceof HubError) {
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return c.json(hubErrorBody(error), error.status);
    }
    // The shared validators and the Host check throw the simulator's errors: same body, same status.
    if (error instanceof ServiceError) return c.json({ success: false as const, errorCode: error.code, errorMessage: error.message }, error.status);
    if (isDatabaseUnavailable(error)) {
      ctx.log?.(`database unavailable on ${c.req.method} ${c.req.path}: ${error.message}`);
      return c.json(hubErrorBody(new HubError('DATABASE_UNAVAILABLE', 'the hub’s database is unavailable: try again shortly')), 503, { 'Retry-After': '5' });
    }
    // Unexpected: log the kind of failure, answer without internals.
    ctx.log?.(`internal error on ${c.req.method} ${c.req.path}: ${error.name}: ${error.message}`);
    return c.json(hubErrorBody(new HubError('INTERNAL_ERROR', 'internal error')), 500);
  });

  return app;
}
