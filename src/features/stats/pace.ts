import type { OutboxEntry } from '../../domain/outbox/model';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

export interface Pace {
  /** Items with a decision recorded since the visit began (an undone decision is gone from the outbox; a discarded one does not count). */
  decided: number;
  /** Time since the visit began (ms). */
  elapsedMs: number;
  /** Items per hour over that time, or null in the visit's first minute (too short to say). */
  perHour: number | null;
}

/**
 * Review pace this visit: the items decided since `visitStart` (when this tab opened or reloaded
 * the console), per hour of the visit so far. One item decided twice counts once; decisions of
 * other subscriptions are left out when `subscriptions` is given.
 */
export function reviewPace(entries: readonly OutboxEntry[], visitStart: number, now: number, subscriptions?: ReadonlySet<string>): Pace {
  const items = new Set<string>();
  for (const entry of entries) {
    if (entry.createdAt < visitStart || entry.state === 'discarded') continue;
    if (subscriptions && !subscriptions.has(entry.subscriptionId)) continue;
    items.add(`${entry.subscriptionId}\n${entry.itemId}`);
  }
  const elapsedMs = Math.max(0, now - visitStart);
  return { decided: items.size, elapsedMs, perHour: elapsedMs < MINUTE_MS ? null : (items.size * HOUR_MS) / elapsedMs };
}

/** "1 h 05 min", "12 min", "less than a minute". */
export function formatDuration(ms: number): string {
  const minutes = Math.floor(ms / MINUTE_MS);
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}
