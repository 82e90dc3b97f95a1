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
  // A number is kept as written, even out of range: the page names it (`previewLimit`) instead of
  // silently showing another number. Text that is no number at all is the default (the router
  // writes the validated search back into the address, which must never read `limit=NaN`).
  limit: z.coerce.number().default(LIMITS.preview.default).catch(LIMITS.preview.default),
});

/** The number of samples to ask for (spec 8: 1 to 20), and what was wrong with the URL's, in words. */
export function previewLimit(limit: number): { limit: number; problem: string | null } {
  const { min, max, default: fallback } = LIMITS.preview;
  if (Number.isInteger(limit) && limit >= min && limit <= max) return { limit, problem: null };
  if (!Number.isFinite(limit))
    return { limit: fallback, problem: `The address's limit is not a number: showing ${fallback} samples. A preview shows ${min} to ${max}.` };
  const used = Math.min(max, Math.max(min, Math.round(limit)));
  return { limit: used, problem: `The address asks for ${limit} samples, but a preview shows ${min} to ${max}: showing ${used}.` };
}
