import { Hono } from 'hono';
import { validQuery } from '../../http/validate';
import { allow } from '../http/auth';
import type { HubContext, HubEnv } from '../http/context';
import { auditQuery } from '../http/schemas';
import { listAudit, type AuditRow } from '../store/audit';

/** The audit row on the wire: instants as ISO-8601, details as the object they were. */
const auditView = (r: AuditRow) => ({ ...r, at: new Date(r.at).toISOString(), details: r.details === null ? null : (JSON.parse(r.details) as unknown) });

/** The audit log, for admins and viewers (a token of theirs may read it): filtered, paged by seq. */
export function auditRouter(ctx: HubContext) {
  const router = new Hono<HubEnv>();
  router.get('/audit', validQuery(auditQuery), async (c) => {
    allow(c, { roles: ['admin', 'viewer'], token: true });
    const page = await listAudit(ctx.db, c.req.valid('query'));
    return c.json({ rows: page.rows.map(auditView), next: page.next });
  });
  return router;
}
