import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useCallback, useDeferredValue, useEffect, useMemo, useState, type FormEvent } from 'react';
import { LIMITS } from '../../../api/contract';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialogs';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { inputClass } from '../../../components/ui/field';
import { PageHeader, Panel } from '../../../components/ui/panel';
import { formatMicros, sumMicros } from '../../../lib/money';
import { clientFor, type Connection, type ConnectionSubscription } from '../../connections';
import { isCharged, loadSettings, outbox, saveSettings, useOutboxEntries, GRACE_MAX_S, GRACE_MIN_S, type Decision } from '../../outbox';
import { appendPull, useIncrementalSession } from '../incremental-session';
import { displayState, entriesByItem, fromLive, fromSimulated, type ReviewItem } from '../model';
import { pendingItemsQuery, rereadPageQuery } from '../queries';
import type { ReviewSearch } from '../search';
import { ItemDetail } from './item-detail';
import { ItemList } from './item-list';
import { ShortcutsDialog } from './shortcuts';
import { useReviewKeys } from './use-review-keys';

/** When this visit started: what "spent this visit" counts from. */
const VISIT_START = Date.now();

interface Props {
  connection: Connection;
  subscription: ConnectionSubscription;
  search: ReviewSearch;
}

/** Where the page's items come from, by subscription kind and mode. */
function useReviewSource({ connection, subscription, search }: Props) {
  const queryClient = useQueryClient();
  const navigate = useNavigate({ from: '/review/$subscriptionId' });
  const live = subscription.kind === 'live';
  const mode = live ? search.mode : 'pending';
  const session = useIncrementalSession(connection.id, subscription.id);

  const incremental = useMutation({
    mutationFn: () => clientFor(connection).pullLive({ subscription_id: subscription.id, limit: search.limit }),
    onSuccess: (page) => appendPull(connection.id, subscription.id, page),
    meta: { connectionId: connection.id },
  });
  const rereadParams = { subscriptionId: subscription.id, cursor: search.cursor, tasks: search.tasks, campaigns: search.campaigns, limit: search.limit };
  const reread = useQuery({ ...rereadPageQuery(connection, rereadParams), enabled: mode === 'reread' && !!search.run });
  const pending = useQuery({ ...pendingItemsQuery(connection, subscription.id, search.limit), enabled: mode === 'pending' && !!search.run });

  const items: ReviewItem[] = useMemo(() => {
    if (mode === 'new') return session.items.map((s) => fromLive(s, subscription.id));
    if (mode === 'reread') return (reread.data?.items ?? []).map((s) => fromLive(s, subscription.id));
    return (pending.data?.data ?? []).map((i) => fromSimulated(i, subscription.id));
  }, [mode, session.items, reread.data, pending.data, subscription.id]);

  const nextCursor = mode === 'reread' ? (reread.data?.nextCursor ?? null) : null;
  const pull = () => {
    if (mode === 'new') incremental.mutate();
    else if (mode === 'reread') void navigate({ search: (prev) => ({ ...prev, run: true, cursor: undefined }) });
    else if (search.run) void pending.refetch();
    else void navigate({ search: (prev) => ({ ...prev, run: true }) });
  };
  const pullNext = () => {
    if (mode === 'reread') {
      if (nextCursor) void navigate({ search: (prev) => ({ ...prev, run: true, cursor: nextCursor }) });
    } else pull();
  };
  const prefetchNext = () => {
    if (nextCursor) void queryClient.prefetchQuery(rereadPageQuery(connection, { ...rereadParams, cursor: nextCursor }));
  };
  const hasMore = mode === 'new' ? session.hasMore : mode === 'reread' ? (reread.data?.hasMore ?? null) : null;
  return {
    mode,
    items,
    pull,
    pullNext,
    prefetchNext,
    hasMore,
    nextCursor,
    loading: incremental.isPending || reread.isFetching || pending.isFetching,
    error: (mode === 'new' ? incremental.error : mode === 'reread' ? reread.error : pending.error) ?? null,
    retry: mode === 'new' ? () => incremental.mutate() : mode === 'reread' ? () => void reread.refetch() : () => void pending.refetch(),
    pageKey: mode === 'new' ? 'new' : mode === 'reread' ? `reread:${search.cursor ?? ''}:${search.tasks ?? ''}:${search.campaigns ?? ''}` : `pending:${pending.dataUpdatedAt}`,
    session,
  };
}

/**
 * The review workspace: a virtualized list of the page's items beside the focused item,
 * decisions by keyboard or mouse, sent through the outbox.
 */
export function ReviewWorkspace(props: Props) {
  const { connection, subscription, search } = props;
  const navigate = useNavigate({ from: '/review/$subscriptionId' });
  const source = useReviewSource(props);
  const entries = useOutboxEntries(connection.id);
  const byItem = useMemo(() => entriesByItem(entries), [entries]);
  const { items } = source;
  const states = useMemo(() => items.map((item) => displayState(item, byItem.get(item.id))), [items, byItem]);
  const decidedCount = useMemo(() => states.reduce((count, state) => (state === 'new' ? count : count + 1), 0), [states]);

  const [focusIndex, setFocusIndex] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [disputeOpen, setDisputeOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [confirm, setConfirm] = useState<{ decision: Decision; items: ReviewItem[] } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [graceSeconds, setGraceSeconds] = useState(() => loadSettings().graceSeconds);

  // A new page starts at its first item with nothing selected (a growing incremental list keeps its place).
  const pageKey = source.pageKey;
  const [seenPage, setSeenPage] = useState(pageKey);
  if (seenPage !== pageKey) {
    setSeenPage(pageKey);
    setFocusIndex(0);
    setSelected(new Set());
  }
  const index = Math.min(focusIndex, Math.max(0, items.length - 1));
  const focused = items[index];

  const nextUndecided = useCallback(
    (from: number, decidedKeys: ReadonlySet<string> = new Set()) => {
      for (let i = from + 1; i < items.length; i++) if (states[i] === 'new' && !decidedKeys.has(items[i]!.key)) return i;
      return Math.min(from + 1, items.length - 1);
    },
    [items, states],
  );

  // When an incremental pull adds items while the focused one is decided (the user finished what
  // they had and pressed N), focus moves on to the first undecided new item.
  const [seenCount, setSeenCount] = useState(items.length);
  if (seenCount !== items.length) {
    setSeenCount(items.length);
    if (source.mode === 'new' && items.length > seenCount && seenCount > 0 && states[index] !== 'new') setFocusIndex(nextUndecided(index));
  }
  // The next item is rendered (hidden) after the keypress has painted, so moving on paints at once.
  const upcoming = useDeferredValue(focused ? items[nextUndecided(index, new Set([focused.key]))] : undefined);

  // Fetch the next re-read page before the user reaches the end of this one.
  const { prefetchNext } = source;
  useEffect(() => {
    if (items.length > 0 && index >= Math.floor(items.length * 0.6)) prefetchNext();
  }, [index, items.length, prefetchNext]);

  // The same rule as `states`, per item: no search for its index.
  const isUndecided = (item: ReviewItem) => displayState(item, byItem.get(item.id)) === 'new';

  const decideMany = (targets: ReviewItem[], decision: Decision, reason?: string) => {
    const open = targets.filter(isUndecided);
    for (const item of open) {
      outbox.enqueue(connection.id, {
        kind: item.kind,
        itemId: item.id,
        subscriptionId: item.subscriptionId,
        decision,
        reason: reason || undefined,
        priceMicros: item.kind === 'simulated' && decision === 'adopt' ? item.priceMicros : null,
      });
    }
    return open;
  };

  const decide = (decision: Decision, reason?: string) => {
    if (!focused) return;
    if (states[index] !== 'new') {
      setAnnouncement(`${focused.title} is already ${states[index]}.`);
      return;
    }
    decideMany([focused], decision, reason);
    setDisputeOpen(false);
    setAnnouncement(`${decision === 'adopt' ? 'Adopted' : 'Disputed'} ${focused.title}. Press Z to undo.`);
    setFocusIndex(nextUndecided(index, new Set([focused.key])));
  };

  const undo = () => {
    const undone = outbox.undoLast(connection.id);
    if (!undone) {
      setAnnouncement('Nothing to undo: decisions past their undo window are already on their way.');
      return;
    }
    const at = items.findIndex((item) => item.id === undone.itemId);
    if (at >= 0) setFocusIndex(at);
    setAnnouncement(`Undid ${undone.decision} of ${undone.kind === 'live' ? 'submission' : 'item'} ${undone.itemId}.`);
  };

  const selection = items.filter((item) => selected.has(item.key));
  const decideSelection = (decision: Decision) => {
    const open = selection.filter(isUndecided);
    if (open.length === 0) {
      setAnnouncement('Select undecided items with X first.');
      return;
    }
    if (decision === 'adopt' && open.some((item) => item.kind === 'simulated')) {
      setConfirm({ decision, items: open });
      return;
    }
    const done = decideMany(open, decision);
    setSelected(new Set());
    setAnnouncement(`${decision === 'adopt' ? 'Adopted' : 'Disputed'} ${done.length} items. Press Z to undo the last.`);
  };

  const toggleSelect = () => {
    if (!focused) return;
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(focused.key)) next.delete(focused.key);
      else next.add(focused.key);
      return next;
    });
  };

  const dialogsOpen = helpOpen || confirm !== null;
  useReviewKeys(
    {
      next: () => setFocusIndex((i) => Math.min(i + 1, items.length - 1)),
      previous: () => setFocusIndex((i) => Math.max(i - 1, 0)),
      first: () => setFocusIndex(0),
      last: () => setFocusIndex(Math.max(items.length - 1, 0)),
      adopt: () => decide('adopt'),
      dispute: () => (focused?.kind === 'live' ? states[index] === 'new' && setDisputeOpen(true) : decide('dispute')),
      undo,
      toggleSelect,
      adoptSelection: () => decideSelection('adopt'),
      disputeSelection: () => decideSelection('dispute'),
      pullNext: source.pullNext,
      help: () => setHelpOpen(true),
    },
    !dialogsOpen && !disputeOpen,
  );

  // What this visit has cost: confirmed charges, and those on their way.
  const visitCharges = entries.filter((e) => isCharged(e) && e.createdAt >= VISIT_START);
  const spent = sumMicros(visitCharges.filter((e) => e.state === 'sent').map((e) => e.priceMicros ?? 0));
  const onTheirWay = sumMicros(visitCharges.filter((e) => e.state !== 'sent' && e.state !== 'failed' && e.state !== 'conflict').map((e) => e.priceMicros ?? 0));
  const pageTotal = sumMicros(items.map((item) => item.priceMicros ?? 0));
  const confirmTotal = confirm ? sumMicros(confirm.items.map((item) => item.priceMicros ?? 0)) : 0;

  const isLive = subscription.kind === 'live';

  return (
    <div className="flex flex-col gap-4">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link to="/review" className="text-brand-600 underline dark:text-brand-100">
          Review
        </Link>{' '}
        / {subscription.label ?? subscription.id}
      </nav>
      <PageHeader
        title={`Review ${subscription.label ?? subscription.id}`}
        description={
          isLive
            ? search.mode === 'new'
              ? 'New items: each Pull moves this subscription forward. Items of an incremental pull are not delivered again, so the console keeps what it pulled for the rest of this visit.'
              : 'Re-read: pages through everything readable from the beginning without moving the subscription; the page is in the URL.'
            : 'Pending simulated items. Adopting charges the item’s price; disputing charges nothing.'
        }
        actions={
          <Button variant="ghost" onClick={() => setHelpOpen(true)} aria-keyshortcuts="?">
            Keyboard shortcuts
          </Button>
        }
      />
      <Panel aria-label="Pull controls" className="flex flex-wrap items-end gap-3">
        {isLive && (
          <div role="group" aria-label="Mode" className="flex gap-1">
            {(['new', 'reread'] as const).map((mode) => (
              <Button
                key={mode}
                size="sm"
                variant={search.mode === mode ? 'secondary' : 'ghost'}
                aria-pressed={search.mode === mode}
                onClick={() => void navigate({ search: (prev) => ({ ...prev, mode, run: undefined, cursor: undefined }) })}
              >
                {mode === 'new' ? 'New items' : 'Re-read'}
              </Button>
            ))}
          </div>
        )}
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">Page size</span>
          <input
            type="number"
            min={LIMITS.livePull.min}
            max={LIMITS.livePull.max}
            className={`${inputClass} w-24`}
            defaultValue={search.limit}
            key={search.limit}
            onBlur={(e) => {
              const value = Number(e.target.value);
              if (Number.isInteger(value) && value >= 1 && value <= 200) void navigate({ search: (prev) => ({ ...prev, limit: value, cursor: undefined }) });
              else e.target.value = String(search.limit);
            }}
          />
        </label>
        {isLive && search.mode === 'reread' && <RereadFilters search={search} />}
        <Button variant="primary" onClick={source.pull} disabled={source.loading}>
          Pull
        </Button>
        {source.mode === 'reread' && search.cursor && (
          <Button onClick={() => void navigate({ search: (prev) => ({ ...prev, cursor: undefined }) })}>First page</Button>
        )}
        {source.mode === 'reread' && (
          <Button onClick={source.pullNext} disabled={!source.nextCursor} aria-keyshortcuts="n">
            Next page
          </Button>
        )}
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">Undo window (s)</span>
          <input
            type="number"
            min={GRACE_MIN_S}
            max={GRACE_MAX_S}
            className={`${inputClass} w-20`}
            value={graceSeconds}
            onChange={(e) => {
              const value = Math.round(Number(e.target.value));
              if (Number.isFinite(value) && value >= GRACE_MIN_S && value <= GRACE_MAX_S) {
                setGraceSeconds(value);
                saveSettings({ graceSeconds: value });
              }
            }}
          />
        </label>
        <div className="ml-auto flex flex-col items-end text-sm" aria-live="polite">
          {source.mode === 'pending' && items.length > 0 && (
            <span>
              Page total <strong className="font-mono">{formatMicros(pageTotal)}</strong> for {items.length} items
            </span>
          )}
          {!isLive && (
            <span>
              Spent this visit <strong className="font-mono">{formatMicros(spent)}</strong>
              {onTheirWay > 0 && <> · {formatMicros(onTheirWay)} on its way</>}
            </span>
          )}
          {source.mode === 'new' && source.session.pulls > 0 && (
            <span>
              {source.session.items.length.toLocaleString()} items from {source.session.pulls.toLocaleString()} pull{source.session.pulls === 1 ? '' : 's'}
              {source.session.hasMore === false ? ' · up to date' : ''}
            </span>
          )}
        </div>
      </Panel>
      {source.error ? <ErrorPanel error={source.error} onRetry={source.retry} /> : null}
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
      {items.length === 0 ? (
        <Panel>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {source.loading ? 'Pulling…' : source.hasMore === false || (source.mode === 'pending' && search.run) ? 'Nothing to review here.' : 'Press Pull (or N) to fetch a page.'}
          </p>
        </Panel>
      ) : (
        <div className="grid gap-4 lg:grid-cols-[minmax(16rem,22rem)_1fr]">
          <div className="flex flex-col gap-2">
            <ItemList items={items} states={states} focusIndex={index} selected={selected} onFocus={setFocusIndex} label="Items on this page" />
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <span>
                {decidedCount.toLocaleString()} of {items.length.toLocaleString()} decided
              </span>
              <span aria-hidden="true">·</span>
              <span>{selection.length} selected</span>
              <Button size="sm" onClick={() => decideSelection('adopt')} disabled={selection.length === 0} aria-keyshortcuts="Shift+A">
                Adopt selected
              </Button>
              <Button size="sm" onClick={() => decideSelection('dispute')} disabled={selection.length === 0} aria-keyshortcuts="Shift+D">
                Dispute selected
              </Button>
              <Button size="sm" variant="ghost" onClick={toggleSelect} aria-keyshortcuts="x">
                {focused && selected.has(focused.key) ? 'Unselect' : 'Select'}
              </Button>
            </div>
          </div>
          {focused && (
            <ItemDetail
              item={focused}
              upcoming={upcoming}
              state={states[index]!}
              entry={byItem.get(focused.id)}
              baseUrl={connection.baseUrl}
              disputeOpen={disputeOpen}
              onAdopt={() => decide('adopt')}
              onDispute={() => (focused.kind === 'live' ? setDisputeOpen(true) : decide('dispute'))}
              onDisputeConfirm={(reason) => decide('dispute', reason)}
              onDisputeCancel={() => setDisputeOpen(false)}
              onUndo={undo}
            />
          )}
        </div>
      )}
      <ShortcutsDialog open={helpOpen} onOpenChange={setHelpOpen} />
      <ConfirmDialog
        open={confirm !== null}
        title={`Adopt ${confirm?.items.length ?? 0} items?`}
        confirmLabel={`Adopt and pay ${formatMicros(confirmTotal)}`}
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          if (!confirm) return;
          const done = decideMany(confirm.items, 'adopt');
          setConfirm(null);
          setSelected(new Set());
          setAnnouncement(`Adopted ${done.length} items for ${formatMicros(confirmTotal)}. Press Z to undo the last.`);
        }}
      >
        <p>
          Adopting {confirm?.items.length} simulated items charges <strong className="font-mono">{formatMicros(confirmTotal)}</strong> in total.
        </p>
        <p className="mt-1">Each decision can be undone during its {graceSeconds}-second undo window.</p>
      </ConfirmDialog>
    </div>
  );
}

function RereadFilters({ search }: { search: ReviewSearch }) {
  const navigate = useNavigate({ from: '/review/$subscriptionId' });
  const [tasks, setTasks] = useState(search.tasks ?? '');
  const [campaigns, setCampaigns] = useState(search.campaigns ?? '');
  const [error, setError] = useState<string>();
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const clean = (text: string) => text.split(',').map((s) => s.trim()).filter(Boolean).join(',');
    const t = clean(tasks);
    const c = clean(campaigns);
    if (![t, c].every((v) => v === '' || /^[A-Za-z0-9_-]+(,[A-Za-z0-9_-]+)*$/.test(v))) {
      setError('IDs are letters, digits, - and _, separated by commas');
      return;
    }
    setError(undefined);
    void navigate({ search: (prev) => ({ ...prev, tasks: t || undefined, campaigns: c || undefined, cursor: undefined }) });
  };
  return (
    <form onSubmit={apply} className="flex flex-wrap items-end gap-2" aria-label="Re-read filters">
      <label className="flex flex-col gap-1 text-sm">
        <span className="font-medium">Task IDs</span>
        <input className={`${inputClass} w-36`} value={tasks} onChange={(e) => setTasks(e.target.value)} placeholder="1001,1002" />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        <span className="font-medium">Campaign IDs</span>
        <input className={`${inputClass} w-44`} value={campaigns} onChange={(e) => setCampaigns(e.target.value)} placeholder="cmp_…" />
      </label>
      <Button type="submit" size="sm">
        Apply filters
      </Button>
      {error && <span className="text-xs text-red-700">{error}</span>}
    </form>
  );
}
