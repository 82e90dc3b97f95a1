import { Hono } from 'hono';
import { requireKey } from '../http/auth';
import type { AppEnv, ServiceContext } from '../http/context';

/** Key verification (spec 4.5): works for every valid key, with or without data access. */
export function authRouter(ctx: ServiceContext) {
  const router = new Hono<AppEnv>();
  router.post('/auth/verify-key', requireKey(ctx), (c) => {
    const key = c.get('key');
    return c.json({ org_id: key.org_id, key_id: key.key_id, key_name: key.key_name }, 200);
  });
  return router;
}
