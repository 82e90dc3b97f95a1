import { Link } from '@tanstack/react-router';
import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialogs';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { PageHeader, Panel } from '../../../components/ui/panel';
import { formatMicros, sumMicros } from '../../../lib/money';
import { isCharged, loadSettings, outbox, useOutboxEntries, type Decision } from '../../outbox';
import { displayState, entriesByItem, type ReviewItem } from '../model';
import { ItemDetail } from './item-detail';
import { ItemList } from './item-list';
import { PullControls } from './pull-controls';
import { ShortcutsDialog } from './shortcuts';
import { useReviewKeys } from './use-review-keys';
import { useReviewSource, type ReviewSourceProps } from './use-review-source';

/** When this visit started: what "spent this visit" counts from. */
const VISIT_START = Date.now();

type Props = ReviewSourceProps;

/**
 * The review workspace: a virtualized list of the page's items beside the focused item,
 * decisions by keyboard or mouse, sent through the outbox.
 */
export function ReviewWorkspace(props: Props) {
  const { connection, subscription, search } = props;
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
      <PullControls
        search={search}
        isLive={isLive}
        source={source}
        itemCount={items.length}
        pageTotal={pageTotal}
        spent={spent}
        onTheirWay={onTheirWay}
        graceSeconds={graceSeconds}
        onGraceSeconds={setGraceSeconds}
      />
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
