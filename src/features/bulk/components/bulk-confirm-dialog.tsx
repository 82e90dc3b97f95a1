import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/dialogs';
import { formatMicros } from '../../../lib/money';
import { heldReason, type ForecastState } from '../../budgets';
import { formatReason, NO_CHOICE, ReasonPicker, type ReasonChoice, type ReasonCode } from '../../dispute-reasons';
import { SKIP_LABELS, SKIP_REASONS, type BulkPreview } from '../preview';
import { count } from './count';

/**
 * The confirmation of a bulk decision by query: how many will be sent, which matching items are
 * skipped and why, the exact total a simulated adopt charges, and for a dispute one optional
 * reason for all (a code by number, the focus starting on the codes; text optional; Enter
 * confirms). The preview is the one computed when the dialog opened. A charged adopt also says
 * what the budgets would hold if it were sent now, so the total confirmed is what is paid.
 */
export function BulkConfirmDialog({
  preview,
  matching,
  live,
  reasons,
  graceSeconds,
  forecast = null,
  subscriptionName,
  leaseCheck = null,
  onConfirm,
  onCancel,
}: {
  preview: BulkPreview | null;
  matching: number;
  live: boolean;
  /** The organization's reason codes, in the dialog's order. */
  reasons: readonly ReasonCode[];
  graceSeconds: number;
  /** What the budget gate would do with a charged adopt (null: nothing charged). */
  forecast?: ForecastState | null;
  /** The name a person reads for the subscription (its limit is named by it); its ID without it. */
  subscriptionName?: string;
  /** Team hub: why the items teammates hold could not be told apart (the hub unreachable): the run may meet them. */
  leaseCheck?: string | null;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}) {
  const [choice, setChoice] = useState<ReasonChoice>(NO_CHOICE);
  const close = (then: () => void) => {
    setChoice(NO_CHOICE);
    then();
  };
  const confirm = () => close(() => onConfirm(preview?.decision === 'dispute' ? formatReason(choice.code, choice.text) : ''));
  const n = preview?.targets.length ?? 0;
  const verb = preview?.decision === 'dispute' ? 'Dispute' : 'Adopt';
  const total = preview?.charged ? formatMicros(preview.totalMicros) : null;
  const skips = preview ? SKIP_REASONS.filter((r) => preview.skipped[r] > 0) : [];
  const budget = total ? forecast : null;
  const held = budget?.status === 'ready' && budget.forecast.held > 0 ? budget.forecast : null;
  const confirmLabel = !total
    ? `${verb} ${count(n)}`
    : held
      ? `Adopt ${count(n)}: pay ${formatMicros(held.clearedMicros)}, hold ${count(held.held)}`
      : budget?.status === 'blocked'
        ? `Adopt ${count(n)}: hold them all`
        : `Adopt ${count(n)} and pay ${total}`;
  return (
    <ConfirmDialog
      open={preview !== null}
      title={`${verb} ${count(n)} ${n === 1 ? 'item' : 'items'}?`}
      confirmLabel={confirmLabel}
      onCancel={() => close(onCancel)}
      onConfirm={confirm}
    >
      {preview && (
        <>
          <p>
            {count(n)} of the {count(matching)} matching items will be {preview.decision === 'dispute' ? 'disputed' : 'adopted'}.
          </p>
          {skips.length > 0 && (
            <div className="mt-2">
              <p>
                {count(preview.skippedTotal)} {preview.skippedTotal === 1 ? 'is' : 'are'} skipped:
              </p>
              <ul className="ml-5 list-disc">
                {skips.map((r) => (
                  <li key={r}>
                    {count(preview.skipped[r])} {SKIP_LABELS[r]}
                    {r === 'leased' && ` (${preview.leasedTo.join(', ')})`}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {leaseCheck && <p className="mt-2">{leaseCheck}</p>}
          {total && (
            <p className="mt-2">
              Adopting them charges <strong className="font-mono">{total}</strong> in total (each item’s unit price).
              {preview.unpriced > 0 && ` ${count(preview.unpriced)} of them have no known price and are not in this total.`}
            </p>
          )}
          {budget?.status === 'checking' && <p className="mt-2">Checking your budgets…</p>}
          {budget?.status === 'blocked' && (
            <p className="mt-2 font-medium text-red-800 dark:text-red-200">
              Your budgets cannot be checked: {budget.why}. Every one of them is held by budget (not sent, not charged) until they can.
            </p>
          )}
          {held && (
            <p className="mt-2 font-medium text-red-800 dark:text-red-200">
              Your budgets allow {count(held.cleared)} of them now (<span className="font-mono">{formatMicros(held.clearedMicros)}</span>). The other{' '}
              {count(held.held)} (<span className="font-mono">{formatMicros(held.heldMicros)}</span>) would be held by budget: not sent and not charged until
              you raise the limit or release them on the Budgets page.
              {held.heldBy && ` The limit: ${heldReason({ heldBy: held.heldBy, subscriptionId: held.subscriptionId }, (id) => subscriptionName ?? id)}.`}
            </p>
          )}
          {preview.decision === 'dispute' && (
            <div className="mt-3">
              <ReasonPicker reasons={reasons} value={choice} onChange={setChoice} onSubmit={confirm} textLabel="Reason for all of them (optional)" />
              {!live && (
                <p className="mt-1 text-xs">
                  A simulated item’s dispute takes no reason on the wire (spec 4.12): the reason stays with the decisions here, in statistics and in exports.
                </p>
              )}
            </div>
          )}
          <p className="mt-2">
            The whole run can be undone during its {graceSeconds}-second undo window; then it is sent in a steady stream you can pause or cancel.
          </p>
        </>
      )}
    </ConfirmDialog>
  );
}
