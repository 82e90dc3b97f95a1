import { useId, useMemo, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import type { Connection, ConnectionSubscription } from '../../../data';
import { useChargeForecast } from '../../budgets';
import { useDisputeReasons } from '../../dispute-reasons';
import { decideRefusal, subscriptionName, useOutbox, useOutboxEntries } from '../../../data';
import type { Decision } from '../../../domain/outbox/model';
import { loadSettings } from '../../../domain/outbox/settings';
import type { TriageRow } from '../../../domain/triage';
import { heldByOthers } from '../held-by-others';
import { bulkPreview, decisionsOf, type BulkPreview } from '../preview';
import { latestRun, newRunId, runProgress } from '../progress';
import { BulkConfirmDialog } from './bulk-confirm-dialog';
import { BulkProgress } from './bulk-progress';
import { count } from './count';

/**
 * "Adopt all N matching" and "Dispute all N matching" over the rows of the current filter (every
 * matching item the store holds, not one page). A confirmation names what will be sent, what is
 * skipped and why, and a simulated adopt's exact total; then the run goes through the outbox as
 * one group (one write, one undo) and its progress shows here, again after a reload.
 */
export function BulkActions({
  connection,
  subscription,
  rows,
  labels,
  onRecorded,
}: {
  connection: Connection;
  subscription: ConnectionSubscription;
  rows: readonly TriageRow[];
  /** The buttons' words where "all N matching" is not what the rows are (a lot's rest). */
  labels?: { adopt: string; dispute: string };
  /** Told once a confirmed run is recorded (a lot keeps what the user did with its rest). */
  onRecorded?: (run: { decision: Decision; recorded: number; totalMicros: number | null }) => void;
}) {
  const outbox = useOutbox();
  const entries = useOutboxEntries(connection.id);
  const { reasons } = useDisputeReasons(connection);
  const adopt = useMemo(() => bulkPreview(rows, 'adopt', subscription.kind), [rows, subscription.kind]);
  const dispute = useMemo(() => bulkPreview(rows, 'dispute', subscription.kind), [rows, subscription.kind]);
  // The preview as it was when the dialog opened: what the user confirms is what is recorded.
  const [pending, setPending] = useState<BulkPreview | null>(null);
  const [pendingMatching, setPendingMatching] = useState(0);
  const [leaseCheck, setLeaseCheck] = useState<string | null>(null);
  // The hub is being asked which items teammates hold: the buttons wait, and only the latest ask opens its dialog.
  const [asking, setAsking] = useState(false);
  const ask = useRef(0);
  const [message, setMessage] = useState('');
  // Runs shown in this visit: a finished one stays until dismissed; one found finished after a reload does not come back.
  const [shown, setShown] = useState<ReadonlySet<string>>(() => new Set());
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(() => new Set());
  const graceSeconds = loadSettings().graceSeconds;
  // Weighed against the budgets only while a charged adopt is being confirmed.
  const prices = useMemo(() => (pending?.charged ? pending.targets.map((t) => t.item.priceMicros) : null), [pending]);
  const forecast = useChargeForecast(connection, subscription.id, prices);

  const run = useMemo(() => latestRun(entries, subscription.id), [entries, subscription.id]);
  const progress = useMemo(() => (run ? runProgress(entries, run) : null), [entries, run]);
  const unfinished = progress !== null && (progress.unsent > 0 || progress.cancellable > 0);
  if (run && unfinished && !shown.has(run)) setShown(new Set(shown).add(run));
  const visible = run !== null && progress !== null && !dismissed.has(run) && (unfinished || shown.has(run));

  // A hub viewer reads everything and decides nothing: the buttons say so rather than meet the hub's 403.
  const refusal = decideRefusal(connection);
  const refusalId = useId();
  const reasonNone = rows.length === 0 ? 'No items match the filter.' : `None of the ${count(rows.length)} matching items is undecided.`;
  const open = async (decision: Decision) => {
    setMessage('');
    const matching = rows;
    let leased: ReadonlyMap<string, string> | undefined;
    let check: string | null = null;
    // On a team hub the items teammates hold are theirs to decide: named and skipped before the confirmation, not refused one by one after it.
    if (connection.hub) {
      const mine = ++ask.current;
      setAsking(true);
      leased = await heldByOthers(subscription.id).catch(() => {
        check = 'The team hub could not be asked which of them teammates hold: any they hold will be refused and counted as not taken.';
        return undefined;
      });
      if (mine !== ask.current) return;
      setAsking(false);
    }
    setLeaseCheck(check);
    setPendingMatching(matching.length);
    setPending(leased ? bulkPreview(matching, decision, subscription.kind, leased) : decision === 'adopt' ? adopt : dispute);
  };
  const confirm = (reason: string) => {
    const preview = pending;
    setPending(null);
    if (!preview) return;
    const group = newRunId();
    // A simulated dispute keeps its reason too: never sent (spec 4.12 has no body), but kept with
    // the decision for statistics and exports.
    const why = reason.trim();
    const decisions = decisionsOf(preview, why).map((d) => (why && d.decision === 'dispute' ? { ...d, reason: why } : d));
    const { recorded, skipped } = outbox.enqueueMany(connection.id, decisions, group);
    setShown(new Set(shown).add(group));
    onRecorded?.({ decision: preview.decision, recorded: recorded.length, totalMicros: preview.charged ? preview.totalMicros : null });
    const verb = preview.decision === 'adopt' ? 'adopt' : 'dispute';
    setMessage(
      `Recorded ${count(recorded.length)} ${recorded.length === 1 ? 'decision' : 'decisions'} to ${verb}` +
        (skipped.length ? `; ${count(skipped.length)} skipped: decided meanwhile (in another tab or on the way).` : '.'),
    );
  };

  return (
    <section aria-label="Bulk decisions" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <Button
          variant="adopt"
          disabled={adopt.targets.length === 0 || refusal !== null || asking}
          aria-busy={asking || undefined}
          aria-describedby={refusal ? refusalId : undefined}
          onClick={() => void open('adopt')}
        >
          {labels?.adopt ?? `Adopt all ${count(rows.length)} matching`}
        </Button>
        <Button
          variant="danger"
          disabled={dispute.targets.length === 0 || refusal !== null || asking}
          aria-busy={asking || undefined}
          aria-describedby={refusal ? refusalId : undefined}
          onClick={() => void open('dispute')}
        >
          {labels?.dispute ?? `Dispute all ${count(rows.length)} matching`}
        </Button>
        {refusal ? (
          <span id={refusalId} className="text-sm text-slate-600 dark:text-slate-400">
            {refusal}
          </span>
        ) : (
          adopt.targets.length === 0 && <span className="text-sm text-slate-600 dark:text-slate-400">{reasonNone}</span>
        )}
      </div>
      {/* Out of the toolbar's flow: told in the run's floating panel, or as a note of its own when none is shown. */}
      <p
        role="status"
        className={
          visible
            ? 'sr-only'
            : 'fixed bottom-4 left-4 z-30 max-w-[calc(100vw-2rem)] rounded-md border border-slate-300 bg-white p-2 text-sm shadow-lg empty:hidden dark:border-slate-600 dark:bg-slate-900'
        }
      >
        {message}
      </p>
      <BulkConfirmDialog
        preview={pending}
        matching={pendingMatching}
        live={subscription.kind === 'live'}
        reasons={reasons}
        graceSeconds={graceSeconds}
        forecast={forecast}
        subscriptionName={subscriptionName({ subscriptions: [subscription] }, subscription.id)}
        leaseCheck={leaseCheck}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
      {visible && (
        <BulkProgress
          progress={progress}
          message={message}
          onUndo={() => {
            const undone = outbox.undoGroup(connection.id, run);
            setMessage(`Undid ${count(undone.length)} decisions.`);
          }}
          onPause={() => outbox.holdGroup(connection.id, run)}
          onResume={() => outbox.releaseGroup(connection.id, run)}
          onCancel={() => {
            const cancelled = outbox.cancelGroup(connection.id, run);
            setMessage(`Cancelled ${count(cancelled)} decisions: recorded as discarded, never sent.`);
          }}
          onDismiss={() => setDismissed(new Set(dismissed).add(run))}
        />
      )}
    </section>
  );
}
