import { z } from '../../api/contract/zod';
import { apiKeySchema, jwtSchema } from '../../api/contract';
import { connectionSchema, isServiceUrl } from '../../data';

/** What the connect form submits: the key is required and checked for form before any request. */
export const connectionFormSchema = connectionSchema.extend({
  name: z.string().trim().min(1, 'Name is required').max(80),
  baseUrl: z
    .string()
    .trim()
    .refine(isServiceUrl, 'Base URL must be an http(s) URL such as https://dds.example.com')
    .transform((value) => value.replace(/\/+$/, '')),
  subscriptions: z
    .array(connectionSchema.shape.subscriptions.element.extend({ id: z.string().trim().min(1, 'Subscription ID is required').max(200) }))
    .max(100),
  apiKey: apiKeySchema,
  jwt: z
    .string()
    .trim()
    .transform((v) => v || undefined)
    .pipe(jwtSchema.optional()),
});
