import { Hono } from 'hono';
import { frontiersQuerySchema, previewQuerySchema } from '../../src/api/contract';
import { requireDashboardToken } from '../http/auth';
import type { AppEnv, ServiceContext } from '../http/context';
import { parseQuery } from '../http/params';
import { ApiError } from '../lib/api-error';
import { frontierExists, listFrontiers, listTasks, listVerticals, previewTask, taskExists } from '../store/catalog';

/** Public catalogue (spec 4.1–4.3) and the JWT-protected task preview (4.4). */
export function catalogRouter(ctx: ServiceContext) {
  const router = new Hono<AppEnv>();

  router.get('/frontiers', (c) => {
    const { status } = parseQuery(c, frontiersQuerySchema);
    return c.json({ data: listFrontiers(ctx.db, status) }, 200);
  });

  router.get('/frontiers/:frontierId/tasks', (c) => {
    const frontierId = c.req.param('frontierId');
    if (!frontierExists(ctx.db, frontierId)) throw new ApiError('NOT_FOUND', `frontier ${frontierId} not found`);
    return c.json({ data: listTasks(ctx.db, frontierId) }, 200);
  });

  router.get('/frontiers/:frontierId/tasks/:taskId/preview', requireDashboardToken(ctx), (c) => {
    const { frontierId, taskId } = c.req.param();
    const { limit } = parseQuery(c, previewQuerySchema);
    if (!taskExists(ctx.db, frontierId, taskId)) {
      throw new ApiError('NOT_FOUND', `task ${taskId} of frontier ${frontierId} not found`);
    }
    return c.json({ data: previewTask(ctx.db, taskId, limit) }, 200);
  });

  router.get('/data/verticals', (c) => c.json({ data: listVerticals(ctx.db) }, 200));

  return router;
}
