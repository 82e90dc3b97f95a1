import { Link } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialogs';
import { cut, LongText } from '../../../components/ui/long-text';
import { formatMicros, sumMicros } from '../../../lib/money';
import { useLocalDay } from './use-local-day';
import { heldLimits } from '../../../domain/budgets/held-reason';
import { connectionSubscriptionName, isConnected, shortId } from '../../../data';
import {
  outboxCounts,
  useConnections,
  useOtherTabsEntries,
  useOutbox,
  useOutboxEntries,
  useOutboxPaused,
  useOutboxPausedSubscriptions,
  useOutboxWriteError,
} from '../../../data';
import type { OutboxEntry } from '../../../domain/outbox/model';
import { isHubOwned, isProblem, phaseOf } from '../../../domain/outbox/transitions';

const describe = (e: OutboxEntry) => `${e.decision} ${e.kind === 'live' ? 'submission' : 'item'} ${e.itemId}`;
/** A team hub's 409 ITEM_LEASED: the hub words it "leased to <email> now" (server/hub/decisions/accept.ts). */
const leasedAway = (e: OutboxEntry) => e.state === 'conflict' && (e.recorded?.startsWith('leased to ') ?? false);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Why sending stopped ('disconnected', 'refused' or the service's words), and what brings it back. */
function pausedText(name: string, unsent: number, cause: string): string {
  const kept = `${unsent} unsent decision${unsent === 1 ? '' : 's'} of “${name}” ${unsent === 1 ? 'is' : 'are'} kept on this device`;
  if (cause === 'disconnected') return `Sending decisions is paused: this connection is disconnected. ${kept}; connect again to send them.`;
  if (cause === 'refused') return `Sending decisions is paused: the service refused the key. ${kept}; replace the key to send them.`;
  // Another refusal: the service's own words, then the same way out.
  return `Sending decisions is paused: ${cause.replace(/\.$/, '')}. ${kept}; replace the key to send them.`;
}

/**
 * What needs the user: a decision that could not be written to this device, a paused outbox
 * (the whole connection on a 401, one subscription on a 403), charged decisions waiting for
 * confirmation, expired decisions, failures and conflicts; and the decisions discarded, kept
 * listed as such. Stuck decisions can be discarded one by one or all at once, after a confirmation.
 */
export function OutboxNotices() {
  const outbox = useOutbox();
  const { active: connection, failures } = useConnections();
  // Notices follow a decision once its keypress has painted: their filters run over every decision.
  const entries = useOutboxEntries(connection?.id, 'after-paint');
  const otherTabs = useOtherTabsEntries(connection?.id, 'after-paint');
  const paused = useOutboxPaused(connection?.id, 'after-paint');
  const pausedSubscriptions = useOutboxPausedSubscriptions(connection?.id, 'after-paint');
  const writeError = useOutboxWriteError('after-paint');
  // Two subscriptions of one label read apart: the held notice lists the limits of several side by side.
  const labelOf = useMemo(() => (connection ? connectionSubscriptionName(connection) : (id: string) => id), [connection]);
  const [discarding, setDiscarding] = useState<{ title: string; ids: string[] } | null>(null);
  // The held notice says which holds are of an earlier day (their spend is not today's): from
  // midnight on, today's holds are yesterday's, whether or not a decision changes.
  useLocalDay();
  if (!connection) return null;
  const id = connection.id;
  const waiting = entries.filter((e) => e.state === 'needs-confirmation');
  const expired = entries.filter((e) => e.state === 'expired');
  const problems = entries.filter((e) => isProblem(e.state));
  const discarded = entries.filter((e) => e.state === 'discarded');
  const held = entries.filter((e) => phaseOf(e.state) === 'held' && !isHubOwned(e.state));
  // A team hub's holds are the member's whichever tab recorded them: the hub keeps them, an admin releases them.
  const teamHeld = [...entries, ...otherTabs].filter((e) => phaseOf(e.state) === 'held' && isHubOwned(e.state));
  const dropped = entries.filter((e) => e.state === 'dropped-team');
  const refusedSubscriptions = Object.entries(pausedSubscriptions);
  const stuckOf = (subscriptionId?: string) =>
    entries.filter(
      (e) =>
        (e.state === 'queued' || e.state === 'grace') && (subscriptionId === undefined || e.subscriptionId === subscriptionId) && outbox.isDiscardable(id, e),
    );
  const waitingTotal = sumMicros(waiting.map((e) => e.priceMicros ?? 0));
  if (
    !writeError &&
    !paused &&
    refusedSubscriptions.length === 0 &&
    waiting.length === 0 &&
    expired.length === 0 &&
    problems.length === 0 &&
    discarded.length === 0 &&
    held.length === 0 &&
    teamHeld.length === 0 &&
    dropped.length === 0
  )
    return null;
  const askDiscard = (stuck: readonly OutboxEntry[], title: string) => setDiscarding({ title, ids: stuck.map((e) => e.id) });
  return (
    <div className="flex flex-col gap-2 border-b border-slate-200 bg-white px-4 py-3 text-sm dark:border-slate-800 dark:bg-slate-900">
      {writeError && (
        <section role="alert" aria-label="Decisions not saved" className="flex flex-wrap items-center gap-2 font-medium text-red-800 dark:text-red-200">
          <span>{writeError} They are not sent until they are saved: free some storage or close other tabs, then save again.</span>
          <Button size="sm" variant="primary" onClick={() => outbox.retryWrites()}>
            Save decisions again
          </Button>
        </section>
      )}
      {paused && (
        <div className="flex flex-wrap items-center gap-2">
          <p role="alert" className="font-medium text-red-800 dark:text-red-200">
            {pausedText(connection.name, outboxCounts(entries).unsent, !isConnected(connection) ? 'disconnected' : failures[id] ? 'refused' : paused)}
          </p>
          {stuckOf().length > 0 && (
            <Button size="sm" onClick={() => askDiscard(stuckOf(), `Discard ${plural(stuckOf().length, 'unsent decision')}?`)}>
              Discard the unsent decisions…
            </Button>
          )}
        </div>
      )}
      {refusedSubscriptions.map(([subscriptionId, reason]) => {
        const stuck = stuckOf(subscriptionId);
        return (
          <section key={subscriptionId} role="alert" aria-label={`Subscription ${subscriptionId} paused`} className="flex flex-col gap-1">
            <p className="font-medium text-red-800 dark:text-red-200">
              {connection.hub ? (
                // On a hub there is no key: the member's role (or a token's scope) is what was refused.
                <>
                  Sending your decisions on {labelOf(subscriptionId)} is paused: the team hub refused them ({reason.replace(/\.$/, '')}).{' '}
                  {plural(stuck.length, 'decision')} on it {stuck.length === 1 ? 'waits' : 'wait'} on this device. They are sent once an admin lets you decide
                  again, or discard them.
                </>
              ) : (
                <>
                  Sending decisions on subscription <code>{subscriptionId}</code> is paused: the service refused this key for it ({reason.replace(/\.$/, '')}).{' '}
                  {plural(stuck.length, 'decision')} on it {stuck.length === 1 ? 'waits' : 'wait'}; other subscriptions are not affected. Replace the key, or
                  discard them.
                </>
              )}
            </p>
            {stuck.length > 0 && (
              <ul className="flex flex-col gap-1">
                {stuck.slice(0, 20).map((e) => (
                  <li key={e.id} className="flex flex-wrap items-center gap-2">
                    <span>{describe(e)}</span>
                    <Button size="sm" variant="ghost" aria-label={`Discard ${describe(e)}`} onClick={() => askDiscard([e], `Discard ${describe(e)}?`)}>
                      Discard
                    </Button>
                  </li>
                ))}
              </ul>
            )}
            {stuck.length > 1 && (
              <div>
                <Button size="sm" onClick={() => askDiscard(stuck, `Discard ${plural(stuck.length, 'decision')} on ${subscriptionId}?`)}>
                  Discard all {stuck.length} on {subscriptionId}…
                </Button>
              </div>
            )}
          </section>
        );
      })}
      {waiting.length > 0 && (
        <section role="alert" aria-label="Charged decisions waiting" className="flex flex-wrap items-center gap-2">
          <span>
            {waiting.length} charged adopt{waiting.length === 1 ? '' : 's'} from an earlier visit {waiting.length === 1 ? 'was' : 'were'} not sent. Sending will
            charge <strong>{formatMicros(waitingTotal)}</strong>.
          </span>
          <Button
            size="sm"
            variant="primary"
            onClick={() =>
              outbox.confirm(
                id,
                waiting.map((e) => e.id),
              )
            }
          >
            Send and pay {formatMicros(waitingTotal)}
          </Button>
          <Button
            size="sm"
            onClick={() =>
              outbox.discard(
                id,
                waiting.map((e) => e.id),
              )
            }
          >
            Discard them
          </Button>
        </section>
      )}
      {held.length > 0 && (
        <section aria-label="Held by budget" className="flex flex-col gap-1">
          <p>
            {plural(held.length, 'charged adopt')} held by budget, <strong>{formatMicros(sumMicros(held.map((e) => e.priceMicros ?? 0)))}</strong> in all
            {/* The limits that hold them, each once (a bulk run's hundreds share one or two). */}
            {` (${heldLimits(held, labelOf).slice(0, 3).join('; ')})`}, never sent until released or a limit is raised.{' '}
            <Link to="/budgets" className="font-medium text-brand-700 underline dark:text-brand-100">
              Budgets and held decisions
            </Link>
          </p>
          {/* The items on request, short IDs with the whole ID on hover: a run of UUIDs took the whole width. */}
          <details>
            <summary className="cursor-pointer text-brand-700 dark:text-brand-100">Show the {plural(held.length, 'held item')}</summary>
            <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
              {held.slice(0, 50).map((e) => (
                <li key={e.id}>
                  <code title={`${e.kind === 'live' ? 'Submission' : 'Item'} ${e.itemId}`}>{shortId(e.itemId)}</code> {formatMicros(e.priceMicros ?? 0)}
                </li>
              ))}
              {held.length > 50 && <li>and {held.length - 50} more (listed on Budgets)</li>}
            </ul>
          </details>
        </section>
      )}
      {teamHeld.length > 0 && (
        <section aria-label="Held by the team’s budget" className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <p>
            {plural(teamHeld.length, 'adopt')} held by the team’s budget ({formatMicros(sumMicros(teamHeld.map((e) => e.priceMicros ?? 0)))}): an admin can
            release {teamHeld.length === 1 ? 'it' : 'them'}.{' '}
            <Link to="/team/holds" className="font-medium text-brand-700 underline dark:text-brand-100">
              See the holds
            </Link>
          </p>
        </section>
      )}
      {dropped.length > 0 && (
        <details aria-label="Dropped on the hub">
          <summary className="cursor-pointer text-slate-600 dark:text-slate-400">
            {plural(dropped.length, 'adopt')} dropped on the hub (never sent; decide {dropped.length === 1 ? 'it' : 'them'} again)
          </summary>
          <ul className="mt-1 flex flex-col gap-0.5 text-slate-600 dark:text-slate-400">
            {dropped.slice(-50).map((e) => (
              <li key={e.id}>
                Dropped{e.droppedBy ? ` by ${cut(e.droppedBy)}` : ''}: {e.decision} of <code title={`Item ${e.itemId}`}>{shortId(e.itemId)}</code>
              </li>
            ))}
          </ul>
        </details>
      )}
      {expired.length > 0 && (
        <section role="alert" aria-label="Expired decisions" className="flex flex-wrap items-center gap-2">
          <span>
            {expired.length} decision{expired.length === 1 ? '' : 's'} older than 24 hours {expired.length === 1 ? 'was' : 'were'} never sent and expired:{' '}
            {expired.slice(0, 5).map(describe).join(', ')}
            {expired.length > 5 ? '…' : ''}
          </span>
          <Button
            size="sm"
            onClick={() =>
              outbox.discard(
                id,
                expired.map((e) => e.id),
              )
            }
          >
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
                  {e.state === 'conflict' && leasedAway(e) ? (
                    // A team hub's queue: the lease ran out (or was taken back) and another reviewer holds the item now.
                    `Not sent: ${e.kind === 'live' ? 'submission' : 'item'} ${e.itemId} is ${cut(e.recorded ?? '')} (you chose ${e.decision}, kept here): retry once they let it go, or dismiss.`
                  ) : e.state === 'conflict' ? (
                    `Not saved: the service already holds “${cut(e.recorded ?? 'another decision')}” for ${e.kind === 'live' ? 'submission' : 'item'} ${e.itemId} (you chose ${e.decision}).`
                  ) : (
                    // The error text is the service's: it may be megabytes long, so it is cut, whole on request.
                    <>
                      Could not {describe(e)}: <LongText text={e.lastError ?? 'unknown error'} />
                    </>
                  )}
                </span>
                {(e.state === 'failed' || leasedAway(e)) && (
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
      {discarded.length > 0 && (
        <details aria-label="Discarded decisions">
          <summary className="cursor-pointer text-slate-600 dark:text-slate-400">{plural(discarded.length, 'discarded decision')} (never sent)</summary>
          <ul className="mt-1 flex flex-col gap-0.5 text-slate-600 dark:text-slate-400">
            {discarded.slice(-50).map((e) => (
              <li key={e.id}>Discarded: {describe(e)}</li>
            ))}
          </ul>
        </details>
      )}
      <ConfirmDialog
        open={discarding !== null}
        title={discarding?.title ?? ''}
        confirmLabel="Discard"
        onConfirm={() => {
          if (discarding) outbox.discard(id, discarding.ids);
          setDiscarding(null);
        }}
        onCancel={() => setDiscarding(null)}
      >
        <p>They will never reach the service. They stay listed here as discarded, and their items count as undecided again.</p>
      </ConfirmDialog>
    </div>
  );
}
