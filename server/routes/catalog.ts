import { Hono } from 'hono';
import { frontiersQuerySchema, previewQuerySchema } from '../../src/api/contract';
import { requireDashboardToken } from '../http/auth';
import type { AppEnv, ServiceContext } from '../http/context';
import { validQuery } from '../http/validate';
import { ServiceError } from '../lib/service-error';
import { listFrontiers, listTasks, listVerticals, previewTask } from '../store/catalog';
import { verticalToWire } from './wire';

/** Public catalogue (spec 4.1–4.3) and the JWT-protected task preview (4.4). */
export function catalogRouter(ctx: ServiceContext) {
  const router = new Hono<AppEnv>();

  router.get('/frontiers', validQuery(frontiersQuerySchema), (c) => {
    const { status } = c.req.valid('query');
    return c.json({ data: listFrontiers(ctx.db, status) }, 200);
  });

  router.get('/frontiers/:frontierId/tasks', (c) => {
    const frontierId = c.req.param('frontierId');
    const tasks = listTasks(ctx.db, frontierId);
    if (!tasks) throw new ServiceError('NOT_FOUND', `frontier ${frontierId} not found`);
    return c.json({ data: tasks }, 200);
  });

  router.get('/frontiers/:frontierId/tasks/:taskId/preview', requireDashboardToken(ctx), validQuery(previewQuerySchema), (c) => {
    const { frontierId, taskId } = c.req.param();
    const preview = previewTask(ctx.db, frontierId, taskId, c.req.valid('query').limit);
    if (!preview) throw new ServiceError('NOT_FOUND', `task ${taskId} of frontier ${frontierId} not found`);
    return c.json({ data: preview }, 200);
  });

  router.get('/data/verticals', (c) => c.json({ data: listVerticals(ctx.db).map(verticalToWire) }, 200));

  return router;
}
