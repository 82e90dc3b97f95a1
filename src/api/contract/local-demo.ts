import { z } from './zod';
import { subscriptionSchema } from './resources';

/**
 * The demo connection of a local service seeded with `--seed demo` (not part of the spec;
 * docs/contract.md): written next to its database, and offered at GET /_local/demo-connection.
 */
export const DEMO_CREDENTIALS_FILE = 'demo-credentials.json';

/** What the console accepts: it can connect without the dashboard JWT. */
export const localDemoSchema = z.object({
  api_key: z.string(),
  jwt: z.string().optional(),
  org_id: z.string(),
  subscriptions: z.array(subscriptionSchema),
});
export type LocalDemo = z.infer<typeof localDemoSchema>;

/** What this repository's service writes: always with a JWT, which its tests use. */
export const demoCredentialsSchema = localDemoSchema.required({ jwt: true });
export type DemoCredentials = z.infer<typeof demoCredentialsSchema>;
