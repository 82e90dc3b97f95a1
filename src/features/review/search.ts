import { z } from '../../api/contract/zod';
import { LIMITS } from '../../api/contract';
import { urlText } from '../../lib/search-params';

/** URL state of a review: mode, page size, and for re-reads the cursor and filters (never a secret). */
const idList = urlText()
  .pipe(
    z
      .string()
      .max(2000)
      .regex(/^[A-Za-z0-9_-]+(,[A-Za-z0-9_-]+)*$/),
  )
  .optional()
  .catch(undefined);

export const reviewSearchSchema = z.object({
  mode: z.enum(['new', 'reread']).default('new').catch('new'),
  run: z.boolean().optional().catch(undefined),
  cursor: urlText().pipe(z.string().max(2048)).optional().catch(undefined),
  tasks: idList,
  campaigns: idList,
  limit: z.coerce.number().int().min(LIMITS.livePull.min).max(LIMITS.livePull.max).default(LIMITS.livePull.default).catch(LIMITS.livePull.default),
});
export type ReviewSearch = z.infer<typeof reviewSearchSchema>;

export const splitIds = (text: string | undefined) => (text ? text.split(',').filter(Boolean) : undefined);
