import { z } from './zod';
import { limitParam } from './limits';

/** Query parameters and bodies of section 4, as they arrive on the wire (all text). */

/** `task_ids` and `campaign_ids`: IDs of letters, digits, `-` and `_`, separated by commas. */
export const ID_LIST_PATTERN = /^[A-Za-z0-9_-]+(,[A-Za-z0-9_-]+)*$/;

const idList = (label: string) =>
  z
    .string()
    .regex(ID_LIST_PATTERN, `${label} must be a comma-separated list of IDs`)
    .transform((value) => [...new Set(value.split(','))]);

/** 4.1 */
export const FRONTIER_STATUS_FILTERS = ['online', 'all'] as const;
export const frontiersQuerySchema = z.object({
  status: z.enum(FRONTIER_STATUS_FILTERS, { error: 'status must be online or all' }).default('online'),
});
export type FrontierStatusFilter = (typeof FRONTIER_STATUS_FILTERS)[number];

/** 4.4 */
export const previewQuerySchema = z.object({ limit: limitParam('preview') });

/** 4.6 */
export const livePullQuerySchema = z.object({
  subscription_id: z.string({ error: 'subscription_id is required' }).min(1, 'subscription_id is required'),
  limit: limitParam('livePull'),
  from: z.literal('beginning', { error: 'from must be beginning' }).optional(),
  cursor: z.string().min(1, 'cursor must not be empty').max(2048, 'cursor is too long').optional(),
  task_ids: idList('task_ids').optional(),
  campaign_ids: idList('campaign_ids').optional(),
});
/** What a client passes in (before wire encoding). */
export interface LivePullParams {
  subscription_id: string;
  limit?: number;
  from?: 'beginning';
  cursor?: string;
  task_ids?: readonly string[];
  campaign_ids?: readonly string[];
}

/** 4.7 */
export const usageQuerySchema = z.object({ limit: limitParam('usage') });
/** 4.13 */
export const deliveriesQuerySchema = z.object({ limit: limitParam('deliveries') });

/** 4.10 */
export const simulatedPullQuerySchema = z.object({
  subscription_id: z.string({ error: 'subscription_id is required' }).min(1, 'subscription_id is required'),
  limit: limitParam('simulatedPull'),
});

/** 4.8 */
export const liveAdoptBodySchema = z.object({
  subscription_id: z.string({ error: 'subscription_id is required' }).min(1, 'subscription_id is required'),
});
/** 4.9 */
export const liveDisputeBodySchema = liveAdoptBodySchema.extend({
  reason: z.string().max(2000, 'reason must be at most 2000 characters').optional(),
});
