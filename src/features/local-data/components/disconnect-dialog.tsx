import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/dialogs';
import { type Connection } from '../../../data';
import { useConnectionLifecycle } from '../../../data';
import { useOutbox, outboxCounts, useOtherTabsEntries, useOutboxEntries } from '../../../data';
import { deleteLocalData } from '../delete-local';
import { useLocalSummary } from '../local-summary';

const count = (n: number, noun: string) => `${n.toLocaleString()} ${noun}${n === 1 ? '' : 's'}`;

/**
 * Disconnect forgets the key, and asks what to do with what this device keeps for the
 * organization: its delivered items and its decisions. Kept, they are there again for any key of
 * the same organization; deleted, nothing delivered remains on this device.
 */
export function DisconnectDialog({
  connection,
  forgetContent,
  onDone,
}: {
  connection: Connection;
  /** Drops what a page holds in memory for the organization once its data is deleted. */
  forgetContent: (scope: string) => void;
  onDone: () => void;
}) {
  const outbox = useOutbox();
  const queryClient = useQueryClient();
  const lifecycle = useConnectionLifecycle();
  const summary = useLocalSummary(connection);
  // Every decision not sent yet, of every tab: those held by a budget, failed ones and another
  // tab's go with the local data as well, so the warning counts them.
  const here = outboxCounts(useOutboxEntries(connection.id));
  const there = outboxCounts(useOtherTabsEntries(connection.id));
  const elsewhere = there.unsent + there.held + there.problems;
  const unsent = here.unsent + here.held + here.problems + elsewhere;
  const detail = [
    here.held + there.held > 0 && `${(here.held + there.held).toLocaleString()} held by budget`,
    here.problems + there.problems > 0 && `${(here.problems + there.problems).toLocaleString()} failed`,
    elsewhere > 0 && `${elsewhere.toLocaleString()} in another tab`,
  ].filter(Boolean);
  const [deleteLocal, setDeleteLocal] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const disconnect = async () => {
    setBusy(true);
    setError(null);
    try {
      if (deleteLocal && summary.scope) await deleteLocalData(queryClient, { content: forgetContent, decisions: outbox.forget }, connection, summary.scope);
      // Kept decisions stay, but not the servers' error texts: they may echo what was sent with the key.
      else await outbox.clearErrors(connection.id);
    } catch (e) {
      setError(
        `The local data could not be ${deleteLocal ? 'deleted' : 'cleaned of error texts'}: ${e instanceof Error ? e.message : String(e)}. Nothing was disconnected.`,
      );
      setBusy(false);
      return;
    }
    lifecycle.disconnect(connection);
    onDone();
  };

  return (
    <ConfirmDialog
      open
      title={`Disconnect ${connection.name}?`}
      confirmLabel={deleteLocal ? 'Disconnect and delete local data' : 'Disconnect and keep local data'}
      onConfirm={() => void disconnect()}
      busy={busy}
      onCancel={onDone}
    >
      <p>The key and the JWT are forgotten on this device.</p>
      <p className="mt-2">
        This device keeps {count(summary.total, 'delivered item')} of this organization ({count(summary.open, 'undecided item')}) and{' '}
        {count(unsent, 'unsent decision')}
        {detail.length > 0 && ` (${detail.join(', ')})`}. Kept, they are here again when you connect with any key of the same organization.
      </p>
      <label className="mt-3 flex items-start gap-2">
        <input type="checkbox" className="mt-1" checked={deleteLocal} onChange={(e) => setDeleteLocal(e.target.checked)} />
        <span>
          Also delete them from this device
          {unsent > 0 && <span className="block text-xs text-red-800 dark:text-red-200">The {count(unsent, 'unsent decision')} will never be sent.</span>}
        </span>
      </label>
      {error && (
        <p role="alert" className="mt-2 text-red-800 dark:text-red-200">
          {error}
        </p>
      )}
    </ConfirmDialog>
  );
}
