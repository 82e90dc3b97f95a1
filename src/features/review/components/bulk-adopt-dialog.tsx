import { ConfirmDialog } from '../../../components/ui/dialogs';
import { formatMicros } from '../../../lib/money';
import { totalPrice, type ReviewItem } from '../model';

/** Adopting selected simulated items charges each one's price: the exact total is confirmed first. */
export function BulkAdoptDialog({
  items,
  graceSeconds,
  onConfirm,
  onCancel,
}: {
  items: readonly ReviewItem[] | null;
  graceSeconds: number;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const total = formatMicros(items ? totalPrice(items) : 0);
  return (
    <ConfirmDialog
      open={items !== null}
      title={`Adopt ${items?.length ?? 0} items?`}
      confirmLabel={`Adopt and pay ${total}`}
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <p>
        Adopting {items?.length} simulated items charges <strong className="font-mono">{total}</strong> in total.
      </p>
      <p className="mt-1">Each decision can be undone during its {graceSeconds}-second undo window.</p>
    </ConfirmDialog>
  );
}
