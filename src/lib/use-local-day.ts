import { useEffect, useState } from 'react';

/** The start of the local day holding `now` (midnight where the user is). */
const startOfLocalDay = (now: number) => {
  const d = new Date(now);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
};

/** How long the check waits at most: a clock put right or a device waking from sleep is noticed within it. */
const AT_MOST_MS = 60 * 60_000;

/**
 * The start of today in the user's local calendar, again from each local midnight: what a display
 * says of "today" and "this month" (a hold of yesterday is dated, its spend no longer today's) changes
 * then, whether or not anything else does. It looks again at midnight, and at least hourly.
 */
export function useLocalDay(): number {
  const [day, setDay] = useState(() => startOfLocalDay(Date.now()));
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const arm = () => {
      const now = Date.now();
      const today = startOfLocalDay(now);
      setDay(today);
      const midnight = new Date(today);
      midnight.setDate(midnight.getDate() + 1);
      timer = setTimeout(arm, Math.min(midnight.getTime() - now, AT_MOST_MS));
    };
    arm();
    return () => clearTimeout(timer);
  }, []);
  return day;
}
