import { z } from './zod';

/*
 * The team's decisions per subscription (issue 26 item 4: `GET /hub/v1/inbox/decisions`), so every
 * console shows an item a teammate decided as decided. The cursor is the audit log's seq (gap-free
 * and commit-ordered): a first read (no `after`) is a snapshot of the decisions standing now, in
 * pages by item id (`snapshot_from`), with the audit head it was read at as `next`; later reads
 * answer, for each item whose team decision changed after the cursor, where it stands now.
 */

const TEAM_DECISIONS_PAGE_MAX = 500;

export const teamDecisionsQuery = z.strictObject({
  subscription_id: z.string().min(1).max(200),
  /** The `next` of the previous read; absent: a snapshot first. */
  after: z.coerce.number().int().min(0).optional(),
  /** A snapshot's next page: the `snapshot_from` of the previous one (with its `next` as `after`). */
  snapshot_from: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(TEAM_DECISIONS_PAGE_MAX).default(200),
});

/** The hub's state of a team decision that stands: held by a budget, queued, on its way, or sent to the vendor. */
const STANDING_STATES = ['held', 'queued', 'sending', 'sent'] as const;

const teamDecisionSchema = z.object({
  family: z.enum(['data', 'live']),
  item_id: z.string(),
  /** The team's decision standing on the item; null: undecided (never decided, or refused by the vendor, or dropped). */
  decision: z
    .object({
      kind: z.enum(['adopt', 'dispute']),
      state: z.enum(STANDING_STATES),
      /** The member whose decision (or deciding vote, or the lead's settlement) it is. */
      by: z.object({ id: z.string(), email: z.string() }),
      at: z.iso.datetime(),
    })
    .nullable(),
  /** Under overlap: votes in and needed, and whether they split to the lead; null without overlap. */
  votes: z
    .object({
      votes: z.number().int().nonnegative(),
      needed: z.number().int().positive(),
      state: z.enum(['open', 'decided', 'lead', 'settled']),
    })
    .nullable(),
});
export type TeamDecision = z.infer<typeof teamDecisionSchema>;

export const teamDecisionsResponse = z.object({
  decisions: z.array(teamDecisionSchema),
  /** Send as `after` next time: the audit seq this answer is complete up to. */
  next: z.number().int().nonnegative(),
  /** A snapshot has more pages: ask again with `after=next&snapshot_from=<this>`; null otherwise. */
  snapshot_from: z.string().nullable(),
  /** More follow this page now (a snapshot's next page, or more changes after `next`). */
  has_more: z.boolean(),
});
export type TeamDecisionsResponse = z.infer<typeof teamDecisionsResponse>;
