import { useMutation, useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { SignedInMember } from '../../../api/contract/hub';
import type { LeaseBatch, LeaseHolder } from '../../../api/contract/hub-leases';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialogs';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { inputClass } from '../../../components/ui/field';
import { Badge, PageHeader, Panel } from '../../../components/ui/panel';
import { cellClass, rowClass, SimpleTable } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { LEASES_KEY, leasesApi } from '../leases-api';
import { InboxSchedulePanel } from './inbox-schedule-panel';

/*
 * The team queue of one subscription: how many items are undecided, held and free; a reviewer (or
 * admin) takes the next batch, which is renewed while this page is open and visible (at most
 * every RENEW_MS, so a lease of the default ten minutes never lapses under a working reviewer),
 * and released on demand. Admins see who holds what, take a batch back and set the idle time.
 */

const RENEW_MS = 30_000;
const BATCH_SIZE = 20;

export const subscriptionsQuery = () => ({ queryKey: [...LEASES_KEY, 'subscriptions'], queryFn: leasesApi.subscriptions });

export function LeasesPage({ me }: { me: SignedInMember }) {
  const subscriptions = useSuspenseQuery(subscriptionsQuery()).data;
  const [subscriptionId, setSubscriptionId] = useState(subscriptions[0]?.id ?? '');
  const selectId = useId();
  const canTake = me.role !== 'viewer';
  const canSee = me.role !== 'reviewer';
  return (
    <>
      <PageHeader
        title="Team queue"
        description="Undecided items are leased to one reviewer at a time, in batches; a lease ends when released, taken back, or idle past the subscription’s time, and a batch is done once all its items are decided."
        actions={
          subscriptions.length > 0 && (
            <span className="flex max-w-full min-w-0 flex-wrap items-center gap-2 text-sm">
              <label htmlFor={selectId}>Subscription</label>
              <select id={selectId} className={`${inputClass} max-w-full min-w-0`} value={subscriptionId} onChange={(e) => setSubscriptionId(e.target.value)}>
                {subscriptions.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.label ?? s.id}
                  </option>
                ))}
              </select>
            </span>
          )
        }
      />
      {subscriptions.length === 0 ? (
        <p>The team reviews no subscription yet: an admin lists them on the hub.</p>
      ) : (
        <div className="flex flex-col gap-4">
          <QueuePanel key={subscriptionId} subscriptionId={subscriptionId} canTake={canTake} />
          {canSee && <HoldersPanel subscriptionId={subscriptionId} isAdmin={me.role === 'admin'} />}
          <InboxSchedulePanel subscriptionId={subscriptionId} isAdmin={me.role === 'admin'} />
        </div>
      )}
    </>
  );
}

function QueuePanel({ subscriptionId, canTake }: { subscriptionId: string; canTake: boolean }) {
  const queryClient = useQueryClient();
  const counts = useQuery({ queryKey: [...LEASES_KEY, 'counts', subscriptionId], queryFn: () => leasesApi.counts(subscriptionId) });
  const [batch, setBatch] = useState<LeaseBatch | null>(null);
  const [renewed, setRenewed] = useState<{ at: string; expires: string | null; lost: number } | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: LEASES_KEY });
  const take = useMutation({
    mutationFn: () => leasesApi.take(subscriptionId, BATCH_SIZE),
    onSuccess: (taken) => {
      setBatch(taken);
      setRenewed(null);
    },
    onSettled: refresh,
  });
  const release = useMutation({
    mutationFn: (id: string) => leasesApi.release(id),
    onSuccess: () => {
      setBatch(null);
      setRenewed(null);
    },
    onSettled: refresh,
  });
  const batchId = batch?.id;
  useEffect(() => {
    if (!batchId) return;
    // Renewed while the reviewer has the page in front of them; a hidden tab lets the lease run out.
    const timer = setInterval(() => {
      if (document.visibilityState !== 'visible') return;
      leasesApi.renew(batchId).then(
        (r) => setRenewed({ at: new Date().toISOString(), expires: r.expires_at, lost: r.lost.length }),
        () => undefined,
      );
    }, RENEW_MS);
    return () => clearInterval(timer);
  }, [batchId]);

  const c = counts.data;
  return (
    <Panel className="p-4">
      <h2 className="mb-2 text-lg font-semibold">Queue</h2>
      {counts.error && <ErrorPanel error={counts.error} onRetry={() => void counts.refetch()} />}
      {c && (
        <dl className="mb-3 grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
          {(
            [
              ['Items', c.total],
              ['Undecided', c.undecided],
              ['Leased', c.leased],
              ['Free to take', c.available],
            ] as const
          ).map(([label, value]) => (
            <div key={label}>
              <dt className="text-slate-600 dark:text-slate-300">{label}</dt>
              <dd className="font-mono text-lg tabular-nums">{value.toLocaleString('en-US')}</dd>
            </div>
          ))}
        </dl>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="primary" disabled={!canTake || take.isPending} onClick={() => take.mutate()}>
          {batch ? 'Take next batch' : 'Take a batch'}
        </Button>
        {batch && batch.items.length > 0 && (
          <Button disabled={release.isPending} onClick={() => release.mutate(batch.id)}>
            Release batch
          </Button>
        )}
        {!canTake && <span className="text-sm text-slate-600 dark:text-slate-300">A viewer cannot take batches: reviewers and admins do.</span>}
      </div>
      {take.error && <ErrorPanel error={take.error} />}
      {release.error && <ErrorPanel error={release.error} />}
      {batch && (
        <div className="mt-3 text-sm" role="status">
          {batch.items.length === 0 ? (
            <p>Nothing left to take: every undecided item is held by someone.</p>
          ) : (
            <>
              <p>
                Your batch: {batch.items.length} items, leased until <Time value={renewed?.expires ?? batch.expires_at} /> (idle time{' '}
                {Math.round(batch.idle_seconds / 60)} min).{' '}
                {renewed ? (
                  <>
                    Renewed <Time value={renewed.at} />
                    {renewed.lost > 0 && <Badge tone="warn">{renewed.lost} taken back</Badge>}
                  </>
                ) : (
                  'Renewed every 30 s while this page is open.'
                )}
              </p>
              <ul className="mt-1 flex flex-wrap gap-1 font-mono text-xs">
                {batch.items.map((item) => (
                  <li key={item.item_id} className="rounded bg-slate-100 px-1.5 py-0.5 [overflow-wrap:anywhere] dark:bg-slate-800">
                    {item.item_id}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </Panel>
  );
}

function HoldersPanel({ subscriptionId, isAdmin }: { subscriptionId: string; isAdmin: boolean }) {
  const queryClient = useQueryClient();
  const holders = useQuery({ queryKey: [...LEASES_KEY, 'holders', subscriptionId], queryFn: () => leasesApi.leases(subscriptionId) });
  const [target, setTarget] = useState<LeaseHolder | null>(null);
  const [idle, setIdle] = useState('');
  const idleId = useId();
  const takeBack = useMutation({
    mutationFn: (batchId: string) => leasesApi.takeBack(batchId),
    onSettled: () => {
      setTarget(null);
      void queryClient.invalidateQueries({ queryKey: LEASES_KEY });
    },
  });
  const setIdleTime = useMutation({
    mutationFn: (minutes: number) => leasesApi.setIdle(subscriptionId, Math.round(minutes * 60)),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: LEASES_KEY }),
  });
  const list = holders.data ?? [];
  return (
    <Panel className="p-4">
      <h2 className="mb-2 text-lg font-semibold">Who holds what</h2>
      {holders.error && <ErrorPanel error={holders.error} onRetry={() => void holders.refetch()} />}
      {takeBack.error && <ErrorPanel error={takeBack.error} />}
      <SimpleTable
        caption="Leases held"
        headers={['Reviewer', 'Items', 'Taken', 'Expires', ...(isAdmin ? ['Actions'] : [])]}
        empty="Nobody holds a lease on this subscription."
        isEmpty={list.length === 0}
      >
        {list.map((h) => (
          <tr key={h.batch_id} className={rowClass}>
            <td className={`${cellClass} [overflow-wrap:anywhere]`}>{h.member.email}</td>
            <td className={`${cellClass} font-mono tabular-nums`}>{h.items}</td>
            <td className={cellClass}>
              <Time value={h.taken_at} />
            </td>
            <td className={cellClass}>
              <Time value={h.expires_at} />
            </td>
            {isAdmin && (
              <td className={cellClass}>
                <Button size="sm" aria-label={`Take back the batch of ${h.member.email}`} onClick={() => setTarget(h)}>
                  Take back
                </Button>
              </td>
            )}
          </tr>
        ))}
      </SimpleTable>
      {isAdmin && (
        <form
          className="mt-3 flex flex-wrap items-end gap-2 text-sm"
          onSubmit={(e) => {
            e.preventDefault();
            const minutes = Number(idle);
            if (Number.isFinite(minutes) && minutes > 0) setIdleTime.mutate(minutes);
          }}
        >
          <span className="flex flex-col gap-1">
            <label htmlFor={idleId}>Idle time (minutes) before a lease ends</label>
            <input id={idleId} className={inputClass} inputMode="decimal" value={idle} onChange={(e) => setIdle(e.target.value)} placeholder="10" />
          </span>
          <Button type="submit" disabled={setIdleTime.isPending}>
            Save idle time
          </Button>
          {setIdleTime.isSuccess && <span role="status">Saved: {Math.round(setIdleTime.data.idle_seconds / 60)} min.</span>}
          {setIdleTime.error && <ErrorPanel error={setIdleTime.error} />}
        </form>
      )}
      <ConfirmDialog
        open={target !== null}
        title={`Take back the batch of ${target?.member.email ?? ''}?`}
        confirmLabel="Take back"
        busy={takeBack.isPending}
        onCancel={() => setTarget(null)}
        onConfirm={() => target && takeBack.mutate(target.batch_id)}
      >
        Its {target?.items} items return to the queue at once; decisions the reviewer already sent stay.
      </ConfirmDialog>
    </Panel>
  );
}
