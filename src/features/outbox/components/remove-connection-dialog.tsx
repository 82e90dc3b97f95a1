import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/dialogs';
import { formatMicros, sumMicros } from '../../../lib/money';
import { isConnected, type Connection } from '../../../data';
import { outboxCounts, useConnectionLifecycle, useConnections, useOutbox, useOutboxEntries } from '../../../data';

const decisions = (n: number) => `${n} unsent decision${n === 1 ? '' : 's'}`;

/**
 * Removing a connection always asks. With unsent decisions it says how many and offers to
 * send them first (the dialog stays open and offers the removal once they are saved) or to
 * discard them, which asks once more. A connection that cannot send (disconnected, key
 * refused) offers the way to fix that instead of sending.
 */
export function RemoveConnectionDialog({ connection, onDone }: { connection: Connection; onDone: (removed: boolean) => void }) {
  const outbox = useOutbox();
  const navigate = useNavigate();
  const lifecycle = useConnectionLifecycle();
  const { failures } = useConnections();
  const entries = useOutboxEntries(connection.id);
  const { unsent, problems } = outboxCounts(entries);
  const [step, setStep] = useState<'ask' | 'discard'>('ask');
  const [sending, setSending] = useState(false);
  const id = connection.id;

  const remove = () => {
    // The decisions go first: the outbox finds their storage through the connection.
    outbox.discardAll(id);
    lifecycle.remove(connection);
    onDone(true);
  };
  const cancel = () => onDone(false);

  if (unsent === 0) {
    return (
      <ConfirmDialog open title={`Remove ${connection.name}?`} confirmLabel="Remove" onConfirm={remove} onCancel={cancel}>
        <p>Its key, JWT and subscriptions are forgotten on this device. It has no unsent decisions.</p>
        {problems > 0 && (
          <p className="mt-2">
            {problems} decision{problems === 1 ? '' : 's'} that failed or conflicted will be dropped with it.
          </p>
        )}
      </ConfirmDialog>
    );
  }
  if (step === 'discard') {
    return (
      <ConfirmDialog open title={`Discard ${decisions(unsent)}?`} confirmLabel="Discard and remove" onConfirm={remove} onCancel={cancel}>
        <p>They will never reach the service, and {connection.name} is removed from this device. This cannot be undone.</p>
      </ConfirmDialog>
    );
  }
  const blocked = !isConnected(connection) ? 'disconnected' : failures[id] ? 'refused' : null;
  const charged = entries.filter((e) => e.state === 'needs-confirmation');
  const fix = () => {
    onDone(false);
    void navigate({ to: '/connection', search: { edit: id } });
  };
  return (
    <ConfirmDialog
      open
      title={`${connection.name} has ${decisions(unsent)}`}
      confirmLabel={blocked === 'disconnected' ? 'Connect again' : blocked ? 'Replace the key' : sending ? 'Sending…' : 'Send them now'}
      onConfirm={
        blocked
          ? fix
          : () => {
              outbox.sendNow(id);
              setSending(true);
            }
      }
      onCancel={cancel}
    >
      <p>
        {blocked === 'disconnected'
          ? 'They are kept on this device, but this connection is disconnected: connect again to send them.'
          : blocked
            ? 'They are kept on this device, but the service refused the key: replace the key to send them.'
            : 'The service has not confirmed them yet. Send them now; once they are saved you can remove the connection.'}
      </p>
      {charged.length > 0 && !blocked && (
        <p className="mt-2">Sending charges {formatMicros(sumMicros(charged.map((e) => e.priceMicros ?? 0)))} for the charged adopts among them.</p>
      )}
      <p className="mt-3">
        <button type="button" className="font-medium text-red-700 underline dark:text-red-400" onClick={() => setStep('discard')}>
          Discard them and remove…
        </button>
      </p>
    </ConfirmDialog>
  );
}
