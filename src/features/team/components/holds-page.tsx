import { useMutation, useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { SignedInMember } from '../../../api/contract/hub';
import type { HubHold } from '../../../api/contract/hub-budgets';
import { ApiError } from '../../../api/errors';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialogs';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { Badge, PageHeader } from '../../../components/ui/panel';
import { cellClass, rowClass, SimpleTable } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { formatMicros } from '../../../lib/money';
import { budgetsApi } from '../budgets-api';
import { BUDGETS_KEY, HOLDS_KEY, holdsQuery } from '../budget-queries';

/*
 * Adopts the hub held because they would pass a budget. A reviewer sees their own, an admin and a
 * viewer every one. An admin releases one (it is sent and charged, past the limit) or drops it;
 * a reviewer drops their own. Nothing is done without a confirmation that says what it costs.
 */

/** "organization.daily" → "Organization daily limit"; a price the hub never saw is held under any limit. */
function limitText(limit: string): string {
  if (limit === 'price_unknown') return 'Price unknown (a limit is set)';
  const [scope = limit, period = ''] = limit.split('.');
  const name = { organization: 'Organization', subscription: 'Subscription', member: 'Member' }[scope] ?? scope;
  return `${name} ${period} limit`.replace(/\s+/g, ' ');
}

const price = (hold: HubHold) => (hold.price_micros === null ? 'unknown' : formatMicros(hold.price_micros));

const STATE_TONE = { open: 'warn', released: 'good', dropped: 'neutral' } as const;

type Action = { hold: HubHold; kind: 'release' | 'drop' };

export function HoldsPage({ me }: { me: SignedInMember }) {
  const [all, setAll] = useState(false);
  const open = useSuspenseQuery(holdsQuery(false));
  const every = useQuery({ ...holdsQuery(true), enabled: all });
  const holds = all ? (every.data?.holds ?? open.data.holds) : open.data.holds;
  const queryClient = useQueryClient();
  const [action, setAction] = useState<Action | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const resolve = useMutation({
    mutationFn: ({ hold, kind }: Action) => (kind === 'release' ? budgetsApi.release(hold.id) : budgetsApi.drop(hold.id)),
    onSuccess: ({ hold }, { kind }) => {
      setDone(
        kind === 'release'
          ? `Released: the adopt of ${hold.item_id} was ${hold.decision_state === 'sent' ? 'sent to the vendor and charged' : `accepted and is ${hold.decision_state}`}.`
          : `Dropped: the adopt of ${hold.item_id} will not be sent; the item can be decided again.`,
      );
    },
    onSettled: () => {
      setAction(null);
      // Released or dropped here or by someone else first: the list and the spend are read again.
      void queryClient.invalidateQueries({ queryKey: HOLDS_KEY });
      void queryClient.invalidateQueries({ queryKey: BUDGETS_KEY });
    },
  });
  const canDrop = (hold: HubHold) => hold.state === 'open' && (me.role === 'admin' || (me.role === 'reviewer' && hold.member.id === me.id));
  const canRelease = (hold: HubHold) => hold.state === 'open' && me.role === 'admin';
  const showActions = me.role !== 'viewer';

  return (
    <>
      <PageHeader
        title="Held adopts"
        description={
          me.role === 'reviewer'
            ? 'Your adopts the hub held because they would pass a budget. An admin may release one (it is then charged); you may drop yours.'
            : me.role === 'admin'
              ? 'Adopts the hub held because they would pass a budget. Release one to send it and charge it anyway, or drop it.'
              : 'Adopts the hub held because they would pass a budget. Only an admin releases them.'
        }
        actions={
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={all} onChange={(event) => setAll(event.target.checked)} />
            Show released and dropped
          </label>
        }
      />
      {done && (
        <p role="status" className="mb-3 text-sm text-green-800 dark:text-green-200">
          {done}
        </p>
      )}
      {resolve.error && (
        <div className="mb-3">
          <ErrorPanel error={resolve.error}>
            {resolve.error instanceof ApiError && resolve.error.code === 'HOLD_RESOLVED' ? <span>The list below is read again.</span> : null}
          </ErrorPanel>
        </div>
      )}
      {every.error && <ErrorPanel error={every.error} onRetry={() => void every.refetch()} />}
      <SimpleTable
        caption="Held adopts"
        headers={['Item', 'Subscription', 'Price', 'Reviewer', 'Limit passed', 'Held', 'State', ...(showActions ? ['Actions'] : [])]}
        empty={all ? 'No adopt has been held.' : 'No adopt is held now.'}
        isEmpty={holds.length === 0}
      >
        {holds.map((hold) => (
          <tr key={hold.id} className={rowClass}>
            <td className={`${cellClass} min-w-44 font-mono text-xs [overflow-wrap:anywhere]`}>{hold.item_id}</td>
            <td className={`${cellClass} font-mono text-xs`}>{hold.subscription_id ?? '—'}</td>
            <td className={`${cellClass} font-mono tabular-nums`}>{price(hold)}</td>
            <td className={cellClass}>{hold.member.email ?? hold.member.id}</td>
            <td className={cellClass}>{limitText(hold.limit)}</td>
            <td className={cellClass}>
              <Time value={hold.created_at} />
            </td>
            <td className={cellClass}>
              <Badge tone={STATE_TONE[hold.state as keyof typeof STATE_TONE] ?? 'neutral'}>{hold.state}</Badge>
            </td>
            {showActions && (
              <td className={cellClass}>
                <span className="flex gap-1">
                  {canRelease(hold) && (
                    <Button size="sm" aria-label={`Release ${hold.item_id}`} onClick={() => setAction({ hold, kind: 'release' })}>
                      Release
                    </Button>
                  )}
                  {canDrop(hold) && (
                    <Button size="sm" variant="ghost" aria-label={`Drop ${hold.item_id}`} onClick={() => setAction({ hold, kind: 'drop' })}>
                      Drop
                    </Button>
                  )}
                </span>
              </td>
            )}
          </tr>
        ))}
      </SimpleTable>
      <ConfirmDialog
        open={action?.kind === 'release'}
        title={`Release the adopt of ${action?.hold.item_id ?? ''}?`}
        confirmLabel="Release and charge"
        busy={resolve.isPending}
        onCancel={() => setAction(null)}
        onConfirm={() => action && resolve.mutate(action)}
      >
        {action && (
          <>
            It will be sent to the vendor and charged <strong>{price(action.hold)}</strong> even though it passes the{' '}
            {limitText(action.hold.limit).toLowerCase()}. Adopted by {action.hold.member.email ?? action.hold.member.id} in{' '}
            {action.hold.subscription_id ?? 'an unknown subscription'}.
          </>
        )}
      </ConfirmDialog>
      <ConfirmDialog
        open={action?.kind === 'drop'}
        title={`Drop the adopt of ${action?.hold.item_id ?? ''}?`}
        confirmLabel="Drop adopt"
        busy={resolve.isPending}
        onCancel={() => setAction(null)}
        onConfirm={() => action && resolve.mutate(action)}
      >
        The adopt will not be sent and nothing is charged; the item can be decided again.
      </ConfirmDialog>
    </>
  );
}

/** The count of open holds, for the team nav: what waits for an admin. */
export function HoldsBadge() {
  const { data } = useQuery(holdsQuery(false));
  const count = data?.holds.length ?? 0;
  if (count === 0) return null;
  return (
    // relative: the hidden word is placed inside the nav's scroller, not by the page (where it would widen it at 390 px).
    <span className="relative ml-1.5 inline-flex min-w-5 items-center justify-center rounded-full bg-amber-700 px-1.5 text-xs font-semibold text-white dark:bg-amber-300 dark:text-slate-950">
      {count}
      <span className="sr-only"> open</span>
    </span>
  );
}
