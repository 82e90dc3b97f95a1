import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialogs';
import { Panel } from '../../../components/ui/panel';
import { SimpleTable } from '../../../components/ui/table';
import { useOutbox, type Connection } from '../../../data';
import { formatBytes, requestPersistence } from '../../../domain/store';
import { deleteLocalData } from '../delete-local';
import { useLocalSummary } from '../local-summary';

/**
 * What this device keeps for the active connection's organization, per subscription, the
 * storage it takes, and the way to delete it (a subscription's items, or everything).
 * `forgetContent` drops what a page holds in memory for the organization once its data is deleted.
 */
export function LocalDataPanel({ connection, forgetContent }: { connection: Connection; forgetContent: (scope: string) => void }) {
  const outbox = useOutbox();
  const queryClient = useQueryClient();
  const summary = useLocalSummary(connection);
  const [confirm, setConfirm] = useState<{ subscriptionId?: string } | null>(null);
  const [message, setMessage] = useState('');
  const { storage } = summary;

  const remove = async (subscriptionId?: string) => {
    setConfirm(null);
    if (!summary.scope) return;
    try {
      await deleteLocalData(queryClient, { content: forgetContent, decisions: outbox.forget }, connection, summary.scope, subscriptionId);
      setMessage(
        subscriptionId
          ? `The local items of ${subscriptionId} were deleted from this device.`
          : 'All local data of this organization was deleted from this device.',
      );
    } catch (error) {
      setMessage(`Could not delete: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  return (
    <Panel aria-labelledby="local-data-heading" className="flex flex-col gap-3">
      <h2 id="local-data-heading" className="font-semibold">
        Kept on this device
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Every item delivered to {connection.name} and every decision is kept in this browser (IndexedDB) for its organization, whichever key you use, so a
        reload, a closed tab or a crash loses nothing. Keys are not kept there.
      </p>
      <SimpleTable
        caption="Local items per subscription"
        headers={['Subscription', { label: 'Items', align: 'right' }, { label: 'Undecided', align: 'right' }, '']}
        empty="No subscription."
        isEmpty={summary.subscriptions.length === 0}
      >
        {summary.subscriptions.map((s) => (
          <tr key={s.subscriptionId} className="border-t border-slate-200 dark:border-slate-700">
            <td className="px-3 py-2">{s.subscriptionId}</td>
            <td className="px-3 py-2 text-right tabular-nums">{s.total.toLocaleString()}</td>
            <td className="px-3 py-2 text-right tabular-nums">{s.open.toLocaleString()}</td>
            <td className="px-3 py-2 text-right">
              <Button
                size="sm"
                variant="ghost"
                disabled={s.total === 0}
                onClick={() => setConfirm({ subscriptionId: s.subscriptionId })}
                aria-label={`Delete the local items of ${s.subscriptionId}`}
              >
                Delete
              </Button>
            </td>
          </tr>
        ))}
      </SimpleTable>
      <p className="text-sm" aria-label="Storage used">
        {summary.total.toLocaleString()} items in all.
        {storage && storage.quota > 0 && (
          <>
            {' '}
            This console uses {formatBytes(storage.usage)} of the {formatBytes(storage.quota)} this browser allows it.{' '}
            {storage.persisted ? 'The browser keeps it even when space runs low.' : 'The browser may clear it when space runs low.'}
          </>
        )}
      </p>
      <div className="flex flex-wrap gap-2">
        {storage && !storage.persisted && (
          <Button size="sm" onClick={() => void requestPersistence().then(summary.refresh)}>
            Ask the browser to keep it
          </Button>
        )}
        <Button size="sm" variant="danger" onClick={() => setConfirm({})} disabled={summary.total === 0}>
          Delete all local data of this organization
        </Button>
      </div>
      <p role="status" className="text-sm">
        {message}
      </p>
      <ConfirmDialog
        open={confirm !== null}
        title={confirm?.subscriptionId ? `Delete the local items of ${confirm.subscriptionId}?` : 'Delete all local data of this organization?'}
        confirmLabel="Delete"
        onConfirm={() => void remove(confirm?.subscriptionId)}
        onCancel={() => setConfirm(null)}
      >
        {confirm?.subscriptionId ? (
          <p>
            Its delivered items and their content are deleted from this device. Items of an incremental pull are not delivered again: only a re-read (Recover)
            can read what is still readable.
          </p>
        ) : (
          <p>
            Every delivered item, its content, the pull log and every decision of this organization are deleted from this device. Unsent decisions are never
            sent.
          </p>
        )}
      </ConfirmDialog>
    </Panel>
  );
}
