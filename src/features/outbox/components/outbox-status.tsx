import { Link } from '@tanstack/react-router';
import {
  outboxCounts,
  useActiveConnection,
  useLeaveGuard,
  useOtherTabsEntries,
  useOutboxEntries,
  useOutboxLoaded,
  useOutboxPaused,
  useOutboxUnsettledNow,
} from '../../../data';

/**
 * Header status: how many decisions are unsent or failed, this tab's and, apart, those another
 * open tab holds (it sends them, or asks there to pay): "All decisions saved" only when no tab
 * of the organization has any left, and only once this tab has read what is stored (a page loaded
 * again knows nothing yet of the decisions the page before left unsent). Also guards leaving with
 * unsent ones.
 */
export function OutboxStatus() {
  useLeaveGuard();
  const connection = useActiveConnection();
  // The counts follow the outbox once the frame is painted, as the sums beside the review: the
  // header re-rendered inside every keypress that decided (about 1 ms of `a`'s paint, bench:ui).
  // Whether anything waits is told at once: "All decisions saved" must never be shown, even for a
  // frame, over a decision just recorded, so the frame that records the first reads the entries now.
  const painted = useOutboxEntries(connection?.id, 'after-paint');
  const { unsettled, entriesNow } = useOutboxUnsettledNow(connection?.id);
  const paused = useOutboxPaused(connection?.id, 'after-paint');
  const loaded = useOutboxLoaded(connection?.id, 'after-paint');
  const paintedCounts = outboxCounts(painted);
  const behind = unsettled && paintedCounts.unsent + paintedCounts.held + paintedCounts.problems === 0;
  const { unsent, held, problems, ...mine } = behind ? outboxCounts(entriesNow()) : paintedCounts;
  const other = outboxCounts(useOtherTabsEntries(connection?.id, 'after-paint'));
  // The hub keeps a held adopt whichever tab made it: one count, not "in another tab".
  const teamHeld = mine.teamHeld + other.teamHeld;
  const local = unsent + held + problems;
  const elsewhere = other.unsent + other.held;
  const parts = [
    // Only held by a team hub: nothing waits in this browser, so no "0 unsent".
    local > 0 && `${unsent} unsent`,
    held && `${held} held by budget`,
    teamHeld && `${teamHeld} held by the team’s budget`,
    problems && `${problems} failed`,
    paused && local + teamHeld > 0 && 'paused',
    elsewhere && `${elsewhere} unsent in another tab`,
    other.problems && `${other.problems} failed in another tab`,
  ].filter(Boolean);
  // Until read (or when reading failed: the notices say why), nothing can be said of them.
  const text = !loaded ? 'Saved decisions not read yet' : parts.length === 0 ? 'All decisions saved' : parts.join(' · ');
  // A live region holding the link: a link itself may not take the status role (axe: aria-allowed-role).
  return (
    <span role="status" aria-label={`Decisions: ${text}`}>
      <Link
        to="/review"
        className={`rounded px-2 py-1 text-xs font-medium ${
          problems || other.problems || paused || held || teamHeld
            ? 'bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-100'
            : unsent || elsewhere
              ? 'bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-100'
              : 'text-slate-600 dark:text-slate-400'
        }`}
      >
        {text}
      </Link>
    </span>
  );
}
