import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/dialogs';
import { inputClass } from '../../../components/ui/field';
import type { ReviewItem } from '../model';

/** Disputing several items at once asks one optional reason, as a single live dispute does. */
export function BulkDisputeDialog({
  items,
  onConfirm,
  onCancel,
}: {
  items: readonly ReviewItem[] | null;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}) {
  const [reason, setReason] = useState('');
  const close = (then: () => void) => {
    setReason('');
    then();
  };
  return (
    <ConfirmDialog
      open={items !== null}
      title={`Dispute ${items?.length ?? 0} items?`}
      confirmLabel="Dispute them"
      onCancel={() => close(onCancel)}
      onConfirm={() => close(() => onConfirm(reason.trim()))}
    >
      <label className="flex flex-col gap-1">
        <span>Reason for all of them (optional)</span>
        <input
          className={`${inputClass} w-full`}
          value={reason}
          maxLength={2000}
          onChange={(e) => setReason(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              close(() => onConfirm(reason.trim()));
            }
          }}
        />
      </label>
    </ConfirmDialog>
  );
}
