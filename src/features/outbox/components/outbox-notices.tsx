import { Button } from '../../../components/ui/button';
import { formatMicros, sumMicros } from '../../../lib/money';
import { useConnections } from '../../connections';
import { outboxCounts, useOutboxEntries, useOutboxPaused } from '../hooks';
import { outbox } from '../instance';
import type { OutboxEntry } from '../model';

const describe = (e: OutboxEntry) => `${e.decision} ${e.kind === 'live' ? 'submission' : 'item'} ${e.itemId}`;

/** Why sending stopped ('disconnected', 'refused' or the service's words), and what brings it back. */
function pausedText(name: string, unsent: number, cause: string): string {
  const kept = `${unsent} unsent decision${unsent === 1 ? '' : 's'} of “${name}” ${unsent === 1 ? 'is' : 'are'} kept on this device`;
  if (cause === 'disconnected') return `Sending decisions is paused: this connection is disconnected. ${kept}; connect again to send them.`;
  if (cause === 'refused') return `Sending decisions is paused: the service refused the key. ${kept}; replace the key to send them.`;
  // Another refusal (e.g. 403): the service's own words, then the same way out.
  return `Sending decisions is paused: ${cause.replace(/\.$/, '')}. ${kept}; replace the key to send them.`;
}

/**
 * What needs the user: a paused outbox, charged decisions waiting for confirmation after a
 * reload, expired decisions, failures and conflicts.
 */
export function OutboxNotices() {
  const { active: connection, failures } = useConnections();
  const entries = useOutboxEntries(connection?.id);
  const paused = useOutboxPaused(connection?.id);
  if (!connection) return null;
  const id = connection.id;
  const waiting = entries.filter((e) => e.state === 'needs-confirmation');
  const expired = entries.filter((e) => e.state === 'expired');
  const problems = entries.filter((e) => e.state === 'failed' || e.state === 'conflict');
  const waitingTotal = sumMicros(waiting.map((e) => e.priceMicros ?? 0));
  if (!paused && waiting.length === 0 && expired.length === 0 && problems.length === 0) return null;
  return (
    <div className="flex flex-col gap-2 border-b border-slate-200 bg-white px-4 py-3 text-sm dark:border-slate-800 dark:bg-slate-900">
      {paused && (
        <p role="alert" className="font-medium text-red-800 dark:text-red-200">
          {pausedText(connection.name, outboxCounts(entries).unsent, !connection.apiKey ? 'disconnected' : failures[id] ? 'refused' : paused)}
        </p>
      )}
      {waiting.length > 0 && (
        <section role="alert" aria-label="Charged decisions waiting" className="flex flex-wrap items-center gap-2">
          <span>
            {waiting.length} charged adopt{waiting.length === 1 ? '' : 's'} from an earlier visit {waiting.length === 1 ? 'was' : 'were'} not sent. Sending
            will charge <strong>{formatMicros(waitingTotal)}</strong>.
          </span>
          <Button size="sm" variant="primary" onClick={() => outbox.confirm(id, waiting.map((e) => e.id))}>
            Send and pay {formatMicros(waitingTotal)}
          </Button>
          <Button size="sm" onClick={() => outbox.discard(id, waiting.map((e) => e.id))}>
            Discard them
          </Button>
        </section>
      )}
      {expired.length > 0 && (
        <section role="alert" aria-label="Expired decisions" className="flex flex-wrap items-center gap-2">
          <span>
            {expired.length} decision{expired.length === 1 ? '' : 's'} older than 24 hours {expired.length === 1 ? 'was' : 'were'} never sent and expired:{' '}
            {expired.slice(0, 5).map(describe).join(', ')}
            {expired.length > 5 ? '…' : ''}
          </span>
          <Button size="sm" onClick={() => outbox.discard(id, expired.map((e) => e.id))}>
            Dismiss
          </Button>
        </section>
      )}
      {problems.length > 0 && (
        <section aria-label="Decisions that need attention">
          <ul className="flex flex-col gap-1">
            {problems.slice(0, 20).map((e) => (
              <li key={e.id} className="flex flex-wrap items-center gap-2">
                <span className="text-red-800 dark:text-red-200">
                  {e.state === 'conflict'
                    ? `Not saved: the service already holds “${e.recorded ?? 'another decision'}” for ${e.kind === 'live' ? 'submission' : 'item'} ${e.itemId} (you chose ${e.decision}).`
                    : `Could not ${describe(e)}: ${e.lastError ?? 'unknown error'}`}
                </span>
                {e.state === 'failed' && (
                  <Button size="sm" onClick={() => outbox.retry(id, e.id)} aria-label={`Retry ${describe(e)}`}>
                    Retry
                  </Button>
                )}
                <Button size="sm" variant="ghost" onClick={() => outbox.discard(id, [e.id])} aria-label={`Dismiss ${describe(e)}`}>
                  Dismiss
                </Button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
