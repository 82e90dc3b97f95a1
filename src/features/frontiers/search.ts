import { z } from '../../api/contract/zod';
import { FRONTIER_STATUS_FILTERS, LIMITS } from '../../api/contract';
import { urlText } from '../../lib/search-params';

/** URL state of the frontiers table: bad values fall back to defaults, never to an error. */
const FRONTIER_SORTS = ['title', 'task_count', 'total_submissions'] as const;
export const frontiersSearchSchema = z.object({
  status: z.enum(FRONTIER_STATUS_FILTERS).default('online').catch('online'),
  q: urlText().pipe(z.string().max(200)).default('').catch(''),
  sort: z.enum(FRONTIER_SORTS).default('title').catch('title'),
  dir: z.enum(['asc', 'desc']).default('asc').catch('asc'),
});
export type FrontiersSearch = z.infer<typeof frontiersSearchSchema>;

export const previewSearchSchema = z.object({
  limit: z.coerce.number().int().min(LIMITS.preview.min).max(LIMITS.preview.max).default(LIMITS.preview.default).catch(LIMITS.preview.default),
});
