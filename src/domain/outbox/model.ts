import { z } from '../../api/contract/zod';

/**
 * A decision on one delivered item, as the outbox keeps it. It is written to storage
 * before anything else happens and carries no delivered content: ids, the decision,
 * the price when it charges.
 */
const DECISIONS = ['adopt', 'dispute'] as const;
export type Decision = (typeof DECISIONS)[number];

const ENTRY_STATES = [
  'grace', // inside the undo window
  'queued', // due; waiting for a sending slot, the network, or a retry time
  'sending',
  'sent', // confirmed by the server: never sent again
  'failed', // gave up (or a 4xx): the user may retry or discard
  'conflict', // 409: the server holds another decision (`recorded`)
  'needs-confirmation', // a charged decision found after a reload: waits for the user
  'expired', // older than 24 h and never sent: shown until dismissed
  'discarded', // the user chose not to send it: kept, listed as discarded, never sent
  'held-budget', // a charged decision that would pass a budget limit: never sent until the user releases it or the limit allows it
] as const;
export type EntryState = (typeof ENTRY_STATES)[number];

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
    })
    .optional(),
  /**
   * Why a decision is 'held-budget' when the time is in doubt: the device's clock (`localAt`) was
   * far behind the time the gate trusted (`trustedAt`, budgets/trusted-clock.ts), so no period could be told.
   */
  heldClock: z.object({ trustedAt: z.number(), localAt: z.number() }).optional(),
});
export type OutboxEntry = z.infer<typeof outboxEntrySchema>;

export type NewDecision = Pick<OutboxEntry, 'kind' | 'itemId' | 'subscriptionId' | 'decision' | 'reason' | 'priceMicros'>;

/** A simulated adopt costs money: after a reload it waits for the user's confirmation. */
export const isCharged = (entry: Pick<OutboxEntry, 'kind' | 'decision'>) => entry.kind === 'simulated' && entry.decision === 'adopt';

export const UNSENT_STATES: ReadonlySet<EntryState> = new Set(['grace', 'queued', 'sending', 'needs-confirmation', 'held-budget']);
export const PROBLEM_STATES: ReadonlySet<EntryState> = new Set(['failed', 'conflict']);
/** States nothing changes any more: the record of what was decided (or dropped). */
export const FINAL_STATES: ReadonlySet<EntryState> = new Set(['sent', 'discarded']);

/** What Pause holds back and Resume lets go: decisions not yet on their way. */
export const HOLDABLE_STATES: ReadonlySet<EntryState> = new Set(['grace', 'queued', 'needs-confirmation']);
/** What Cancel of a bulk run discards: everything not sent and not on its way. */
export const CANCELLABLE_STATES: ReadonlySet<EntryState> = new Set(['grace', 'queued', 'needs-confirmation', 'failed', 'expired', 'held-budget']);

export const DAY_MS = 24 * 60 * 60 * 1000;
/** How long a request of a decision may be on the wire: the client's 15 s timeout (a POST is never retried) and a margin. */
export const IN_FLIGHT_MS = 20_000;
