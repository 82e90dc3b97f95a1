import { Hono } from 'hono';
import { AUDIT_COLUMNS, type AuditExportFormat, type HubAuditRow } from '../../../src/api/contract/hub';
import { cellOf, csvLine } from '../../../src/api/contract/csv-cell';
import { validQuery } from '../../http/validate';
import { allow } from '../http/auth';
import type { HubContext, HubEnv } from '../http/context';
import { auditExportQuery, auditQuery } from '../http/schemas';
import { listAudit, type AuditFilter, type AuditRow } from '../store/audit';

/** The audit row on the wire: instants as ISO-8601, details as the object they were. */
const auditView = (r: AuditRow): HubAuditRow => ({
  ...r,
  at: new Date(r.at).toISOString(),
  details: r.details === null ? null : (JSON.parse(r.details) as Record<string, unknown>),
});

/** Rows read per database round trip while exporting: memory stays one page, whatever the log's size. */
const EXPORT_PAGE = 500;

const EXPORT_TYPES: Record<AuditExportFormat, string> = { csv: 'text/csv; charset=utf-8', jsonl: 'application/jsonl; charset=utf-8' };

const exportLine: Record<AuditExportFormat, (row: HubAuditRow) => string> = {
  // Every text cell neutralised (a reason or a target is anyone's text, and may start with "=").
  csv: (row) => csvLine(AUDIT_COLUMNS.map((column) => cellOf(row[column]))),
  jsonl: (row) => `${JSON.stringify(row)}\n`,
};

/** `hub-audit-20260101T120000Z.csv`: when it was taken, and nothing of the filters (they may name a member). */
const exportName = (format: AuditExportFormat, now: Date) => `hub-audit-${now.toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '')}.${format}`;

/** The audit log, for admins and viewers (a token of theirs may read it): filtered, paged by seq, and exported. */
export function auditRouter(ctx: HubContext) {
  const router = new Hono<HubEnv>();
  router.get('/audit', validQuery(auditQuery), async (c) => {
    allow(c, { roles: ['admin', 'viewer'], token: true, everySubscription: true });
    const page = await listAudit(ctx.db, c.req.valid('query'));
    return c.json({ rows: page.rows.map(auditView), next: page.next });
  });

  /**
   * The whole filtered log as a download, streamed: one page is read when the client has taken the
   * one before (the stream's pull), so a long log never sits in memory and a slow reader slows the reads.
   */
  router.get('/audit/export', validQuery(auditExportQuery), async (c) => {
    allow(c, { roles: ['admin', 'viewer'], token: true, everySubscription: true });
    const { format, ...filters } = c.req.valid('query');
    const line = exportLine[format];
    // The first page is read before the answer starts, so a database that is down is still a 503 envelope.
    let page = await listAudit(ctx.db, { ...filters, limit: EXPORT_PAGE } satisfies AuditFilter);
    let header = format === 'csv' ? csvLine(AUDIT_COLUMNS) : '';
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const text = header + page.rows.map((row) => line(auditView(row))).join('');
        header = '';
        if (text !== '') controller.enqueue(encoder.encode(text));
        if (page.next === null) return controller.close();
        page = await listAudit(ctx.db, { ...filters, after: page.next, limit: EXPORT_PAGE });
      },
    });
    return new Response(body, {
      status: 200,
      headers: {
        'Content-Type': EXPORT_TYPES[format],
        'Content-Disposition': `attachment; filename="${exportName(format, new Date())}"`,
        'Cache-Control': 'no-store',
      },
    });
  });
  return router;
}
