import { z } from '../../api/contract/zod';
import { LIMITS } from '../../api/contract';
import { ISO_DAY } from '../../lib/day';
import { urlText } from '../../lib/search-params';

const day = z.string().regex(ISO_DAY).optional().catch(undefined);

/** URL state of the usage page: how many receipts, filters, and the table's sort. */
export const usageSearchSchema = z.object({
  limit: z.coerce.number().int().min(LIMITS.usage.min).max(LIMITS.usage.max).default(LIMITS.usage.default).catch(LIMITS.usage.default),
  sub: urlText().pipe(z.string().max(200)).optional().catch(undefined),
  kind: urlText().pipe(z.string().max(50)).optional().catch(undefined),
  from: day,
  to: day,
  sort: z.string().max(100).default('created_at').catch('created_at'),
  dir: z.enum(['asc', 'desc']).default('desc').catch('desc'),
});
export type UsageSearch = z.infer<typeof usageSearchSchema>;
