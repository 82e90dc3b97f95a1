import { z } from './zod';

/*
 * The team's shared inbox on the hub (issue 26): every item delivered through the hub, kept once,
 * numbered per subscription (`seq`). A console in hub mode pages it by `after` to hold what a
 * teammate pulled; the hub's scheduled pulls are set per subscription here too.
 */

const INBOX_PAGE_MAX = 500;
/** The longest interval of a scheduled pull: a day. */
const INBOX_SCHEDULE_MAX_MINUTES = 1440;

export const inboxQuery = z.strictObject({
  subscription_id: z.string().min(1).max(200),
  /** The `next` of the previous page (0 or absent: from the first item). */
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(INBOX_PAGE_MAX).default(200),
});

const INBOX_ARRIVALS = ['pull', 'schedule', 'reread', 'recover', 'pending', 'delivery'] as const;

const inboxItemSchema = z.object({
  family: z.enum(['data', 'live']),
  item_id: z.string(),
  seq: z.number().int().positive(),
  /** The record as the vendor delivered it (redacted of the vendor key): untrusted, never HTML. */
  item: z.unknown(),
  price_micros: z.number().int().nonnegative().nullable(),
  arrived_at: z.iso.datetime(),
  /** How it came: a member's incremental pull, the schedule, a re-read, the hub's recovery, a pending (simulated) pull, a delivery's items. */
  arrived_how: z.enum(INBOX_ARRIVALS),
  /** The member whose request brought it; null for the hub's own pulls. */
  arrived_by: z.string().nullable(),
});
export type InboxItem = z.infer<typeof inboxItemSchema>;

export const inboxResponse = z.object({
  items: z.array(inboxItemSchema),
  /** Send as `after` for the items after these (the same `after` when there were none). */
  next: z.number().int().nonnegative(),
  /** More items follow this page. */
  has_more: z.boolean(),
});

const inboxScheduleSchema = z.object({
  subscription_id: z.string(),
  /** Pull every N minutes; null = off (the default). */
  every_minutes: z.number().int().min(1).max(INBOX_SCHEDULE_MAX_MINUTES).nullable(),
  last_pulled_at: z.iso.datetime().nullable(),
});
export type InboxSchedule = z.infer<typeof inboxScheduleSchema>;

export const inboxSchedulesResponse = z.object({ schedules: z.array(inboxScheduleSchema) });

export const inboxScheduleBody = z.strictObject({
  every_minutes: z.number().int().min(1).max(INBOX_SCHEDULE_MAX_MINUTES).nullable(),
});
