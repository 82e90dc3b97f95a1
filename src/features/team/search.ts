import { z } from '../../api/contract/zod';
import type { AuditCursor, AuditFilters } from './api';

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .optional()
  .catch(undefined);

const seq = z.coerce.number().int().min(0).optional().catch(undefined);

/**
 * The audit page's URL: its filters (days, the last one included), its order (newest first unless
 * `order=oldest`) and the page (a seq: `before` it newest first, `after` it oldest first). A bad
 * value is dropped, never an error page.
 */
export const auditSearchSchema = z.object({
  member: z.string().max(64).optional().catch(undefined),
  action: z.string().max(64).optional().catch(undefined),
  from: day,
  to: day,
  order: z.enum(['oldest']).optional().catch(undefined),
  after: seq,
  before: seq,
});
export type AuditSearch = z.infer<typeof auditSearchSchema>;

/** The URL's filters and its page apart (the loader and the page ask the hub the same thing). */
export function auditView({ order, after, before, ...filters }: AuditSearch): { filters: AuditFilters; cursor: AuditCursor } {
  return { filters, cursor: order === 'oldest' ? { order: 'asc', from: after } : { order: 'desc', from: before } };
}

/** The URL of the page after `next` in the cursor's order, with the same filters. */
export const auditNextPage = (filters: AuditFilters, cursor: AuditCursor, next: number): AuditSearch =>
  cursor.order === 'asc' ? { ...filters, order: 'oldest', after: next } : { ...filters, before: next };
