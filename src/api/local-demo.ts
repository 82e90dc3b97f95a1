import { z } from './contract/zod';
import { subscriptionSchema } from './contract';
import { request } from './http';

/** The demo connection a local service offers (not part of the spec; docs/contract.md). */
export const localDemoSchema = z.object({
  api_key: z.string(),
  jwt: z.string().optional(),
  org_id: z.string(),
  subscriptions: z.array(subscriptionSchema),
});
export type LocalDemo = z.infer<typeof localDemoSchema>;

export function fetchLocalDemo(baseUrl: string, signal?: AbortSignal): Promise<LocalDemo> {
  return request({ baseUrl, maxAttempts: 1 }, { method: 'GET', path: '/_local/demo-connection', schema: localDemoSchema, signal });
}
