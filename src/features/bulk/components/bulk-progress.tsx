import { Link } from '@tanstack/react-router';
import { Button } from '../../../components/ui/button';
import type { RunProgress } from '../progress';
import { count } from './count';

/**
 * A bulk run as it is sent: a progress bar of what the service confirmed, what failed and what
 * was cancelled, with Undo (inside the undo window), Pause/Resume and Cancel. Derived from the
 * outbox's entries of the run, so a reload shows it again where it was.
 */
export function BulkProgress({
  progress,
  onUndo,
  onPause,
  onResume,
  onCancel,
  onDismiss,
}: {
  progress: RunProgress;
  onUndo: () => void;
  onPause: () => void;
  onResume: () => void;
  onCancel: () => void;
  onDismiss: () => void;
}) {
  const p = progress;
  // Cancelled decisions are no longer to be sent: the bar measures what still is.
  const expected = p.total - p.discarded;
  const percent = expected === 0 ? 100 : Math.round((p.sent / expected) * 100);
  const text = `${count(p.sent)} of ${count(expected)} sent`;
  const paused = p.held > 0 && p.held >= p.unsent - p.sending;
  const done = p.unsent === 0;
  // What Pause and Resume act on: not what waits for the user's confirmation or a budget.
  const streaming = p.unsent - p.awaitingConfirmation - p.heldByBudget > 0 || paused;
  const details = [
    p.failed > 0 && `${count(p.failed)} failed`,
    p.conflicts > 0 && `${count(p.conflicts)} already decided on the service`,
    p.discarded > 0 && `${count(p.discarded)} cancelled`,
    p.heldByBudget > 0 && `${count(p.heldByBudget)} held by budget`,
    paused && !done && 'paused',
    p.awaitingConfirmation > 0 && `${count(p.awaitingConfirmation)} wait for your “Send and pay” (left from an earlier visit)`,
    p.inWindow > 0 && `${count(p.inWindow)} in the undo window`,
  ].filter(Boolean);
  return (
    <section aria-label="Bulk decisions sent" className="mt-3 rounded-md border border-slate-200 p-3 dark:border-slate-700">
      <div
        role="progressbar"
        aria-label="Bulk decisions sent"
        aria-valuemin={0}
        aria-valuemax={expected}
        aria-valuenow={p.sent}
        aria-valuetext={text}
        className="h-2 w-full overflow-hidden rounded bg-slate-200 dark:bg-slate-700"
      >
        {/* Width in steps of 5 %: classes, not an inline style (the CSP has no 'unsafe-inline'). */}
        <div className={`h-full bg-brand-600 ${WIDTHS[Math.floor(percent / 5)]}`} />
      </div>
      <p className="mt-2 text-sm" aria-live="polite">
        <span className="font-medium">{text}</span>
        {details.length > 0 && ` · ${details.join(' · ')}`}
      </p>
      {p.heldByBudget > 0 && (
        <p className="mt-1 text-sm">
          A budget limit holds them: nothing past it is charged.{' '}
          <Link to="/budgets" className="text-brand-700 underline dark:text-brand-300">
            Raise the limit or release them on Budgets
          </Link>
          .
        </p>
      )}
      <div className="mt-2 flex flex-wrap gap-2">
        {p.inWindow > 0 && (
          <Button size="sm" onClick={onUndo}>
            Undo all {count(p.inWindow)}
          </Button>
        )}
        {!done &&
          streaming &&
          (paused ? (
            <Button size="sm" onClick={onResume}>
              Resume
            </Button>
          ) : (
            <Button size="sm" onClick={onPause}>
              Pause
            </Button>
          ))}
        {p.cancellable > 0 && (
          <Button size="sm" variant="danger" onClick={onCancel}>
            Cancel the {count(p.cancellable)} not sent yet
          </Button>
        )}
        {done && (
          <Button size="sm" variant="ghost" onClick={onDismiss}>
            Dismiss
          </Button>
        )}
      </div>
    </section>
  );
}

const WIDTHS = [
  'w-0',
  'w-[5%]',
  'w-[10%]',
  'w-[15%]',
  'w-[20%]',
  'w-[25%]',
  'w-[30%]',
  'w-[35%]',
  'w-[40%]',
  'w-[45%]',
  'w-[50%]',
  'w-[55%]',
  'w-[60%]',
  'w-[65%]',
  'w-[70%]',
  'w-[75%]',
  'w-[80%]',
  'w-[85%]',
  'w-[90%]',
  'w-[95%]',
  'w-full',
];
