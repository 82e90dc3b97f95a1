import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialogs';
import { formatMicros, sumMicros } from '../../../lib/money';
import type { OutboxEntry } from '../../../domain/outbox/model';
import { heldReason } from '../../../domain/budgets/held-reason';
import { shortId } from '../../../data';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Decisions a budget held, with their amounts: this tab's can be released (sent past the limit)
 * after one confirmation naming the count and the total; another open tab's are released there.
 */
export function HeldDecisions({
  own,
  others,
  names,
  onRelease,
  onDiscard,
}: {
  own: readonly OutboxEntry[];
  others: readonly OutboxEntry[];
  /** What each subscription reads as (subscription-names.ts); an ID not named reads as itself. */
  names?: ReadonlyMap<string, string>;
  onRelease: (ids: readonly string[]) => void;
  onDiscard: (ids: readonly string[]) => void;
}) {
  // What a confirmation names is fixed when it opens: decisions held meanwhile (a bulk run goes
  // on) are neither charged nor discarded unseen; they are listed for the next confirmation.
  const [asking, setAsking] = useState<{ action: 'release' | 'discard'; entries: readonly OutboxEntry[] } | null>(null);
  const totalOf = (entries: readonly OutboxEntry[]) => sumMicros(entries.map((e) => e.priceMicros ?? 0));
  const total = totalOf(own);
  const label = `Release ${plural(own.length, 'held decision')} (${formatMicros(total)})`;
  const named = asking?.entries ?? own;
  const namedTotal = totalOf(named);
  if (own.length === 0 && others.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">No decision is held by a budget.</p>;
  return (
    <div className="flex flex-col gap-2">
      <ul className="flex flex-col gap-1 text-sm" aria-label="Held by budget">
        {[...own, ...others].slice(0, 200).map((e) => (
          <li key={e.id} className="flex flex-wrap items-baseline gap-x-2">
            {/* The item's ID cut short and the subscription by name: the whole IDs are their hover. */}
            <span>
              adopt item{' '}
              <code title={`Item ${e.itemId}`} className="font-mono">
                {shortId(e.itemId)}
              </code>{' '}
              (<span title={`Subscription ${e.subscriptionId}`}>{names?.get(e.subscriptionId) ?? e.subscriptionId}</span>)
            </span>
            <strong className="font-mono">{formatMicros(e.priceMicros ?? 0)}</strong>
            <span className="text-slate-600 dark:text-slate-400">held by budget: {heldReason(e, (id) => names?.get(id) ?? id)}</span>
            {others.includes(e) && <span className="text-slate-600 dark:text-slate-400">(in another open tab: release it there)</span>}
          </li>
        ))}
      </ul>
      {own.length > 0 && (
        <div className="flex flex-wrap gap-2">
          <Button variant="primary" onClick={() => setAsking({ action: 'release', entries: own })}>
            {label}
          </Button>
          <Button onClick={() => setAsking({ action: 'discard', entries: own })}>Discard {plural(own.length, 'held decision')}…</Button>
        </div>
      )}
      <ConfirmDialog
        open={asking?.action === 'discard'}
        title={`Discard ${plural(named.length, 'held decision')}?`}
        confirmLabel="Discard"
        onConfirm={() => {
          setAsking(null);
          onDiscard(named.map((e) => e.id));
        }}
        onCancel={() => setAsking(null)}
      >
        <p>They will never reach the service and charge nothing. They stay listed as discarded, and their items count as undecided again.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={asking?.action === 'release'}
        title={`Release ${plural(named.length, 'held decision')}?`}
        confirmLabel={`Send and pay ${formatMicros(namedTotal)}`}
        onConfirm={() => {
          setAsking(null);
          onRelease(named.map((e) => e.id));
        }}
        onCancel={() => setAsking(null)}
      >
        <p>
          Sending {plural(named.length, 'charged adopt')} will charge <strong>{formatMicros(namedTotal)}</strong>, past the limits that held them. Each is sent
          once; raising a limit instead sends only those that fit it.
        </p>
      </ConfirmDialog>
    </div>
  );
}
