import { z } from '../../api/contract/zod';
import { ENTRY_STATES } from './transitions';

/**
 * A decision on one delivered item, as the outbox keeps it. It is written to storage
 * before anything else happens and carries no delivered content: ids, the decision,
 * the price when it charges.
 */
const DECISIONS = ['adopt', 'dispute'] as const;
export type Decision = (typeof DECISIONS)[number];

export const outboxEntrySchema = z.object({
  id: z.string(),
  /** Whose decision it is: one organization on one base URL (local-store `scopeOf`), not a key or a tab. */
  scope: z.string(),
  /** The connection it was recorded through (informational: any connection of the scope sends it). */
  connectionId: z.string(),
  kind: z.enum(['live', 'simulated']),
  itemId: z.string(),
  subscriptionId: z.string(),
  decision: z.enum(DECISIONS),
  reason: z.string().optional(),
  /** Simulated adopts: the unit price in micro-USD that the adopt will charge. */
  priceMicros: z.number().int().nonnegative().nullable(),
  createdAt: z.number(),
  sendAfter: z.number(),
  state: z.enum(ENTRY_STATES),
  attempts: z.number().int().nonnegative(),
  nextAttemptAt: z.number(),
  lastError: z.string().optional(),
  recorded: z.string().optional(),
  sentAt: z.number().optional(),
  /**
   * 'sending': until when its request may still be on the wire (written before the request
   * leaves). No tab or page load sends it again before then: once the mark has passed, its answer
   * is taken as lost and it is resumed as a queued one would be.
   */
  inFlightUntil: z.number().optional(),
  discardedAt: z.number().optional(),
  /** The tab (page load) that recorded it and sends it; another tab takes it over only once that tab is gone. */
  owner: z.string().optional(),
  /** Decisions recorded together (a bulk decision): one undo takes them all back. */
  group: z.string().optional(),
  /** Paused by the user (a bulk run's Pause): not sent until resumed. Written, so a reload keeps it paused. */
  held: z.boolean().optional(),
  /**
   * A charged decision the budget gate let through (or the user released): from `at` it counts as
   * spend, and it is never gated again. `tab` is the page load that cleared it (the visit's spend).
   */
  budget: z.object({ at: z.number(), tab: z.string(), released: z.boolean().optional() }).optional(),
  /** Why a decision is 'held-budget': the limit it would pass, and what was spent against it then (micro-USD). */
  heldBy: z
    .object({
      level: z.enum(['organization', 'subscription']),
      period: z.enum(['daily', 'monthly', 'visit']),
      limitMicros: z.number().int().nonnegative(),
      spentMicros: z.number().int().nonnegative(),
      /** When it was held (trusted time); absent on holds recorded before it was kept. */
      at: z.number().optional(),
    })
    .optional(),
  /**
   * Why a decision is 'held-budget' when the time is in doubt: the device's clock (`localAt`) was
   * far behind the time the gate trusted (`trustedAt`, budgets/trusted-clock.ts), so no period could be told.
   */
  heldClock: z.object({ trustedAt: z.number(), localAt: z.number() }).optional(),
  /** Through a team hub: the hold the hub keeps it under (409 BUDGET_HELD's `hold_id`), which `GET /hub/v1/holds` reports on. */
  holdId: z.string().optional(),
  /** 'dropped-team': who dropped it on the hub (their email), when the hold says. */
  droppedBy: z.string().optional(),
  /** 'decided-team': the teammate whose decision it is (their email, as the hub names them). */
  decidedBy: z.string().optional(),
  /** Through a team hub with overlap: where this vote stood when the hub took it (team-votes.ts). */
  teamVotes: z.object({ votes: z.number().int(), needed: z.number().int(), outcome: z.enum(['adopt', 'dispute', 'lead']).nullable() }).optional(),
});
export type OutboxEntry = z.infer<typeof outboxEntrySchema>;

export type NewDecision = Pick<OutboxEntry, 'kind' | 'itemId' | 'subscriptionId' | 'decision' | 'reason' | 'priceMicros'>;

/** A simulated adopt costs money: after a reload it waits for the user's confirmation. */
export const isCharged = (entry: Pick<OutboxEntry, 'kind' | 'decision'>) => entry.kind === 'simulated' && entry.decision === 'adopt';

/** The states and their groups: transitions.ts (one table; readers ask the traits). */
export { CANCELLABLE_STATES, FINAL_STATES, HOLDABLE_STATES, PROBLEM_STATES } from './transitions';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** How long a request of a decision may be on the wire: the client's 15 s timeout (a POST is never retried) and a margin. */
export const IN_FLIGHT_MS = 20_000;
