import { useEffect, useState } from 'react';

/** The time now, again every `everyMs`: the review pace's clock goes on while nobody decides. */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** When this tab opened (or reloaded) the console: the start of "this visit". */
export const VISIT_START = Math.floor(typeof performance === 'undefined' ? Date.now() : performance.timeOrigin);
