import { useEffect, useState } from 'react';
import { daySpan } from '../../../domain/budgets/periods';

/** How long the check waits at most: a clock put right or a device waking from sleep is noticed within it. */
const AT_MOST_MS = 60 * 60_000;

/**
 * The start of today in the user's local calendar (the budgets' day, `daySpan`), again from each
 * local midnight: what a display says of "today" and "this month" (a hold of yesterday is dated,
 * its spend no longer today's) changes then, whether or not anything else does. It looks again at
 * midnight, and at least hourly.
 */
export function useLocalDay(): number {
  const [day, setDay] = useState(() => daySpan(Date.now()).start);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const arm = () => {
      const now = Date.now();
      const { start, end } = daySpan(now);
      setDay(start);
      timer = setTimeout(arm, Math.min(end - now, AT_MOST_MS));
    };
    arm();
    return () => clearTimeout(timer);
  }, []);
  return day;
}
