/** The hub's budget periods: the UTC day and month of the hub's own clock (never a browser's). */
export interface Periods {
  /** `YYYY-MM-DD` and `YYYY-MM`, UTC. */
  day: string;
  month: string;
  dayStart: number;
  monthStart: number;
}

export function periodsAt(now: number): Periods {
  const d = new Date(now);
  const dayStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  const monthStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const iso = new Date(dayStart).toISOString();
  return { day: iso.slice(0, 10), month: iso.slice(0, 7), dayStart, monthStart };
}
