import { z } from '../../api/contract/zod';

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .optional()
  .catch(undefined);

/** The audit page's URL: its filters (days, the last one included) and the page (`after`, a seq). A bad value is dropped, never an error page. */
export const auditSearchSchema = z.object({
  member: z.string().max(64).optional().catch(undefined),
  action: z.string().max(64).optional().catch(undefined),
  from: day,
  to: day,
  after: z.coerce.number().int().min(0).optional().catch(undefined),
});
export type AuditSearch = z.infer<typeof auditSearchSchema>;
