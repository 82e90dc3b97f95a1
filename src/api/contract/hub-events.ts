import { z } from './zod';

/*
 * The team's change stream (`GET /hub/v1/events`, server-sent events): one event per audit row the
 * caller may see, its SSE id the row's seq, so a reconnection with Last-Event-ID resumes exactly,
 * on any hub of the team. The data is a small summary, never the row's details (which may name
 * paths, reasons or amounts nobody asked to broadcast) and never a secret.
 */

// The SSE event names: `change` (one audit row), `ready` (the stream is live from `head`), `reset` (too much was missed: read everything again).

export const hubChangeEvent = z
  .object({
    seq: z.number().int().positive(),
    at: z.string(),
    /** The audit action: `v1.adopt`, `v1.pull`, `decision.send`, `lot.update`, `hold.release`, … */
    action: z.string().max(64),
    subscription_id: z.string().nullable(),
    item_id: z.string().nullable(),
    /** The lot's id for `lot.*`; null otherwise (other targets may be paths or emails). */
    target: z.string().nullable(),
    actor: z.object({ id: z.string(), email: z.string() }).nullable(),
    outcome: z.string().max(64),
  })
  .meta({ description: 'One change to the team, as the `data` of an SSE `change` event (its `id` is `seq`)' });
export type HubChangeEvent = z.infer<typeof hubChangeEvent>;

/** `ready` and `reset`: the seq the stream continues from. */
export const hubStreamMark = z.object({ head: z.number().int().nonnegative() }).meta({ description: 'The data of a `ready` or `reset` event' });

/** `?after=` for a first connection that already knows where it stands (EventSource cannot send Last-Event-ID itself the first time). */
export const hubEventsQuery = z.object({ after: z.coerce.number().int().nonnegative().optional() });

/** Limits of the stream: beyond `replay` missed rows a client is told to reset; `clients` per hub process. */
/** `perMember`: one member's open streams at most (a tab each), so no one member takes the hub's `clients`. */
export const HUB_EVENTS = { replay: 1000, clients: 500, perMember: 20, heartbeatMs: 15_000, retryMs: 1_000 } as const;
