import type { Period } from './model';

/**
 * Budget periods in the user's local calendar: a day starts at local midnight, a month on its
 * first day at local midnight (so "today" is the day the user sees, whatever the service's zone).
 * The visit is the tab's page load, not a span of time: it has no bounds here.
 */
export interface Span {
  start: number;
  end: number;
}

export function daySpan(now: number): Span {
  const d = new Date(now);
  return { start: new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime(), end: new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime() };
}

export function monthSpan(now: number): Span {
  const d = new Date(now);
  return { start: new Date(d.getFullYear(), d.getMonth(), 1).getTime(), end: new Date(d.getFullYear(), d.getMonth() + 1, 1).getTime() };
}

/** The span of a timed period containing `now`; null for the visit. */
export function spanOf(period: Period, now: number): Span | null {
  if (period === 'daily') return daySpan(now);
  if (period === 'monthly') return monthSpan(now);
  return null;
}

/** A key naming the period instance (notices are shown once per threshold per period). */
export function periodKey(period: Period, now: number, visit: string): string {
  const span = spanOf(period, now);
  return span ? `${period}:${span.start}` : `visit:${visit}`;
}
