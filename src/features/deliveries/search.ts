import { z } from '../../api/contract/zod';
import { LIMITS } from '../../api/contract';

export const deliveriesSearchSchema = z.object({
  limit: z.coerce.number().int().min(LIMITS.deliveries.min).max(LIMITS.deliveries.max).default(LIMITS.deliveries.default).catch(LIMITS.deliveries.default),
});
export type DeliveriesSearch = z.infer<typeof deliveriesSearchSchema>;
