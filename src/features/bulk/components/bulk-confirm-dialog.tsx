import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/dialogs';
import { inputClass } from '../../../components/ui/field';
import { formatMicros } from '../../../lib/money';
import { SKIP_LABELS, SKIP_REASONS, type BulkPreview } from '../preview';
import { count } from './count';

/**
 * The confirmation of a bulk decision by query: how many will be sent, which matching items are
 * skipped and why, the exact total a simulated adopt charges, and for a live dispute one
 * optional reason for all. The preview is the one computed when the dialog opened.
 */
export function BulkConfirmDialog({
  preview,
  matching,
  live,
  graceSeconds,
  onConfirm,
  onCancel,
}: {
  preview: BulkPreview | null;
  matching: number;
  live: boolean;
  graceSeconds: number;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}) {
  const [reason, setReason] = useState('');
  const close = (then: () => void) => {
    setReason('');
    then();
  };
  const n = preview?.targets.length ?? 0;
  const verb = preview?.decision === 'dispute' ? 'Dispute' : 'Adopt';
  const total = preview?.charged ? formatMicros(preview.totalMicros) : null;
  const skips = preview ? SKIP_REASONS.filter((r) => preview.skipped[r] > 0) : [];
  return (
    <ConfirmDialog
      open={preview !== null}
      title={`${verb} ${count(n)} ${n === 1 ? 'item' : 'items'}?`}
      confirmLabel={total ? `Adopt ${count(n)} and pay ${total}` : `${verb} ${count(n)}`}
      onCancel={() => close(onCancel)}
      onConfirm={() => close(() => onConfirm(reason))}
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
                  </li>
                ))}
              </ul>
            </div>
          )}
          {total && (
            <p className="mt-2">
              Adopting them charges <strong className="font-mono">{total}</strong> in total (each item’s unit price).
              {preview.unpriced > 0 && ` ${count(preview.unpriced)} of them have no known price and are not in this total.`}
            </p>
          )}
          {live && preview.decision === 'dispute' && (
            <label className="mt-3 flex flex-col gap-1">
              <span>Reason for all of them (optional)</span>
              <input className={`${inputClass} w-full`} value={reason} maxLength={2000} onChange={(e) => setReason(e.target.value)} />
            </label>
          )}
          <p className="mt-2">
            The whole run can be undone during its {graceSeconds}-second undo window; then it is sent in a steady stream you can pause or cancel.
          </p>
        </>
      )}
    </ConfirmDialog>
  );
}
