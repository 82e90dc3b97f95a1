import { useQuery, useQueryClient } from '@tanstack/react-query';
import { pollUnlessLive } from '../../../data';
import { disagreementsQuery } from '../overlap-queries';

/** How often the count is read again while the hub's change stream is down (live, a vote refreshes it at once). */
const POLL_MS = 15_000;

/**
 * The items waiting for the lead (splits under overlap), counted beside the Overlap tab for the
 * admin who settles them: without it a split waited unseen until someone opened the page. A vote
 * on the change stream reads it again ('votes' in src/app/live-refresh.ts).
 */
export function LeadQueueBadge() {
  const queryClient = useQueryClient();
  const { data } = useQuery({ ...disagreementsQuery(), refetchInterval: pollUnlessLive(queryClient, POLL_MS) });
  const count = data?.disagreements.length ?? 0;
  if (count === 0) return null;
  return (
    // relative: the hidden words are placed inside the nav's scroller, not by the page (where they would widen it at 390 px).
    <span className="relative ml-1.5 inline-flex min-w-5 items-center justify-center rounded-full bg-amber-700 px-1.5 text-xs font-semibold text-white dark:bg-amber-300 dark:text-slate-950">
      {count}
      <span className="sr-only"> waiting for the lead</span>
    </span>
  );
}
