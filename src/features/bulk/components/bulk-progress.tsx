import { Link } from '@tanstack/react-router';
import { Button } from '../../../components/ui/button';
import { cx } from '../../../lib/cx';
import { runParts, type RunProgress } from '../progress';
import { count } from './count';

/**
 * A bulk run as it is sent, floating at the bottom of the window so it never moves the page: one
 * set of counts in which every decision is in exactly one part (in the undo window, queued, on the
 * wire, confirmed, held by budget, failed, …), so they always add up to what was recorded; a bar of
 * what the service confirmed; Undo (inside the undo window), Pause/Resume and Cancel. Once nothing
 * is left to send it folds into one line. Derived from the outbox's entries of the run, so a
 * reload shows it again where it was.
 */
export function BulkProgress({
  progress,
  onUndo,
  onPause,
  onResume,
  onCancel,
  onDismiss,
  message,
}: {
  progress: RunProgress;
  onUndo: () => void;
  onPause: () => void;
  onResume: () => void;
  onCancel: () => void;
  onDismiss: () => void;
  /** What the user's last action did ("Recorded 15 decisions to adopt."), told here where they look. */
  message?: string;
}) {
  const p = progress;
  // Cancelled decisions are no longer to be sent: the bar measures what still is.
  const expected = p.total - p.discarded;
  const percent = expected === 0 ? 100 : Math.round((p.sent / expected) * 100);
  const text = `${count(p.sent)} of ${count(expected)} confirmed`;
  const paused = p.held > 0 && p.held >= p.unsent - p.sending;
  const done = p.unsent === 0;
  // What Pause and Resume act on: not what waits for the user's confirmation or a budget.
  const streaming = p.unsent - p.awaitingConfirmation - p.heldByBudget > 0 || paused;
  const parts = runParts(p);
  const notes = [
    paused && !done && 'paused',
    p.awaitingConfirmation > 0 && `${count(p.awaitingConfirmation)} of the queued wait for your “Send and pay” (left from an earlier visit)`,
  ].filter(Boolean);
  const bar = (
    <div
      role="progressbar"
      aria-label="Bulk decisions sent"
      aria-valuemin={0}
      aria-valuemax={expected}
      aria-valuenow={p.sent}
      aria-valuetext={text}
      className={cx('h-2 overflow-hidden rounded bg-slate-200 dark:bg-slate-700', done ? 'w-16 shrink-0' : 'w-full')}
    >
      {/* Width in steps of 5 %: classes, not an inline style (the CSP has no 'unsafe-inline'). */}
      <div className={`h-full bg-brand-600 ${WIDTHS[Math.floor(percent / 5)]}`} />
    </div>
  );
  return (
    <section
      aria-label="Bulk decisions sent"
      className="fixed right-4 bottom-4 left-4 z-30 rounded-md border border-slate-300 bg-white p-3 text-sm shadow-lg sm:right-auto sm:w-[34rem] dark:border-slate-600 dark:bg-slate-900"
    >
      {done ? (
        // Folded: one line, the outcome and Dismiss.
        <div className="flex items-center gap-3">
          {bar}
          <p className="min-w-0 flex-1 truncate" title={parts.map((part) => `${count(part.count)} ${part.label}`).join(' · ')}>
            <span className="font-medium">Bulk run done: {text}</span>
            {parts
              .filter((part) => part.key !== 'sent' && part.count > 0)
              .map((part) => ` · ${count(part.count)} ${part.label}`)
              .join('')}
          </p>
          <Button size="sm" variant="ghost" onClick={onDismiss}>
            Dismiss
          </Button>
        </div>
      ) : (
        <>
          {bar}
          <p className="mt-2 font-medium" aria-live="polite">
            {text}
            {notes.length > 0 && ` · ${notes.join(' · ')}`}
          </p>
          {/* Every part, zeros included, in a fixed grid: the panel keeps its size as decisions move on. */}
          <dl aria-label={`${count(p.total)} recorded`} className="mt-2 grid grid-cols-3 gap-x-3 gap-y-1 sm:grid-cols-4">
            <div className="flex flex-col">
              <dt className="text-xs text-slate-600 dark:text-slate-400">recorded</dt>
              <dd className="font-mono tabular-nums">{count(p.total)}</dd>
            </div>
            {parts.map((part) => (
              <div key={part.key} className="flex flex-col">
                <dt className="text-xs text-slate-600 dark:text-slate-400">{part.label}</dt>
                <dd className="font-mono tabular-nums">{count(part.count)}</dd>
              </div>
            ))}
          </dl>
          {p.heldByBudget > 0 && (
            <p className="mt-1">
              A budget limit holds {count(p.heldByBudget)}: nothing past it is charged.{' '}
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
            {streaming &&
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
          </div>
        </>
      )}
      {/* Announced by the actions' own status line; shown here where the eye is. */}
      {message && (
        <p aria-hidden="true" className="mt-1 text-xs text-slate-700 dark:text-slate-300">
          {message}
        </p>
      )}
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
