import { z } from '../../api/contract/zod';
import { ID_LIST_PATTERN, LIMITS } from '../../api/contract';
import { urlText } from '../../lib/search-params';
import { triageFilterShape } from '../../domain/triage';

/** URL state of a review: mode, page size, and for re-reads the cursor and filters (never a secret). */
const idList = urlText().pipe(z.string().max(2000).regex(ID_LIST_PATTERN)).optional().catch(undefined);

export const reviewSearchSchema = z.object({
  mode: z.enum(['new', 'reread']).default('new').catch('new'),
  run: z.boolean().optional().catch(undefined),
  cursor: urlText().pipe(z.string().max(2048)).optional().catch(undefined),
  tasks: idList,
  campaigns: idList,
  // A number is kept as written, even out of range: the page says what is wrong instead of
  // silently pulling another size (`pageSizeError`). Text that is no number at all falls back to
  // the default: the router writes the validated search back into the address at once, and a NaN
  // there read `limit=NaN`.
  limit: z.coerce.number().default(LIMITS.livePull.default).catch(LIMITS.livePull.default),
  // The items view's filters (decision state, quality, grade, …, text): when any is set, the
  // workspace lists only the stored items that match (filtered-view.tsx).
  ...triageFilterShape,
  // A sampling lot: the workspace lists exactly its sampled items (filtered-view.tsx).
  lot: urlText().pipe(z.string().max(100)).optional().catch(undefined),
  // On a team hub: `all` reviews the whole subscription instead of a batch leased from the team's queue (a lead's look, or a lot's).
  queue: z.enum(['all']).optional().catch(undefined),
  // On a team hub: how many items a batch from the queue holds (the hub's bounds; 20 when absent).
  batch: z.coerce.number().int().min(1).max(200).optional().catch(undefined),
});

/** Why a page size cannot be used, in words; null when it can. */
export function pageSizeError(limit: number): string | null {
  const { min, max } = LIMITS.livePull;
  return Number.isInteger(limit) && limit >= min && limit <= max ? null : `Page size must be a whole number from ${min} to ${max}.`;
}
export type ReviewSearch = z.infer<typeof reviewSearchSchema>;

export const splitIds = (text: string | undefined) => (text ? text.split(',').filter(Boolean) : undefined);
