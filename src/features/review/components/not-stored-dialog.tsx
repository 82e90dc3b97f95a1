import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/dialogs';
import { downloadText } from '../../../lib/csv';
import { NotStoredError } from '../live-pulls';

/**
 * A page arrived but could not be written to this browser's storage. The service will not send
 * an incremental page again, so this blocks until the user saves it as a file (or says twice
 * that they do not want it).
 */
export function NotStoredDialog({ error }: { error: unknown }) {
  const [handled, setHandled] = useState<unknown>(null);
  const [sure, setSure] = useState(false);
  const open = error instanceof NotStoredError && handled !== error;
  if (!(error instanceof NotStoredError)) return null;
  const save = () => {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    downloadText(`delivered-items-${stamp}.json`, `${JSON.stringify(error.page.items, null, 2)}\n`, 'application/json');
    setHandled(error);
  };
  return (
    <ConfirmDialog
      open={open}
      title="These delivered items are not saved on this device"
      confirmLabel={`Save ${error.page.items.length} items as a file`}
      onConfirm={save}
      onCancel={() => (sure ? setHandled(error) : setSure(true))}
    >
      <p>{error.message}</p>
      <p className="mt-2">
        The service will not deliver them again. They are on screen now; save them as a file so that they are not lost when this page closes.
      </p>
      {sure && <p className="mt-2 font-semibold">Cancel again to close without saving: the items are then lost when this page closes.</p>}
    </ConfirmDialog>
  );
}
