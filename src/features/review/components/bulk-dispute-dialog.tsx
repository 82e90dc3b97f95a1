import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/dialogs';
import { formatReason, NO_CHOICE, ReasonPicker, type ReasonChoice, type ReasonCode } from '../../dispute-reasons';
import type { ReviewItem } from '../model';

/**
 * Disputing several items at once asks one optional reason, as a single live dispute does: a code
 * by number (the focus starts on the codes), optional text, Enter confirms.
 */
export function BulkDisputeDialog({
  items,
  reasons,
  onConfirm,
  onCancel,
}: {
  items: readonly ReviewItem[] | null;
  reasons: readonly ReasonCode[];
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}) {
  const [choice, setChoice] = useState<ReasonChoice>(NO_CHOICE);
  const close = (then: () => void) => {
    setChoice(NO_CHOICE);
    then();
  };
  const confirm = () => close(() => onConfirm(formatReason(choice.code, choice.text)));
  return (
    <ConfirmDialog
      open={items !== null}
      title={`Dispute ${items?.length ?? 0} items?`}
      confirmLabel="Dispute them"
      onCancel={() => close(onCancel)}
      onConfirm={confirm}
    >
      <ReasonPicker reasons={reasons} value={choice} onChange={setChoice} onSubmit={confirm} textLabel="Reason text for all of them (optional)" />
    </ConfirmDialog>
  );
}
