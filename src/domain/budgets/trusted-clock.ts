import type { SpendReceipt } from './spend';

/**
 * The time budget periods are counted in, from what this console can trust rather than the
 * device's clock alone: the latest of the local clock, the newest receipt time the service
 * reported, and the newest time the gate itself used (its clearances, and the time it keeps in
 * the local store per organization, CLOCK_SETTING, so a reload does not forget it). A clock set
 * back therefore never opens a new day or month. When the local clock is far behind that time, the
 * time is in doubt: the gate holds charged decisions and says why, rather than guess a period.
 */
export const CLOCK_SETTING = 'budgets-clock';
/** Further behind than this, the local clock is not a clock that drifted (receipts come from another machine): it is in doubt. */
const DOUBT_MS = 15 * 60_000;

export interface TrustedTime {
  /** The time periods are counted in. */
  now: number;
  /** The device's clock. */
  local: number;
  /** How far the device's clock is behind `now`. */
  behindMs: number;
  doubt: boolean;
}

/** The time the gate kept (`{ latest }`); 0 when none or unreadable. */
export function keptTime(value: unknown): number {
  const latest = (value as { latest?: unknown } | null | undefined)?.latest;
  return typeof latest === 'number' && Number.isFinite(latest) ? latest : 0;
}
export const keptValue = (latest: number) => ({ latest });

export function trustedTime(
  local: number,
  kept: number,
  receipts: readonly Pick<SpendReceipt, 'created_at'>[],
  decisions: readonly { budget?: { at: number } }[],
): TrustedTime {
  let now = Math.max(local, kept);
  for (const r of receipts) {
    const at = Date.parse(r.created_at);
    if (Number.isFinite(at) && at > now) now = at;
  }
  for (const d of decisions) if (d.budget && Number.isFinite(d.budget.at) && d.budget.at > now) now = d.budget.at;
  return { now, local, behindMs: now - local, doubt: now - local > DOUBT_MS };
}

/** "26 h", "40 min": how far behind, in words. */
export function behindText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  return minutes >= 120 ? `${Math.round(minutes / 60)} h` : `${minutes} min`;
}
