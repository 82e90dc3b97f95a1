import { Link } from '@tanstack/react-router';
import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialogs';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { Panel } from '../../../components/ui/panel';
import { formatMicros, sumMicros } from '../../../lib/money';
import { isCharged, loadSettings, outbox, useOtherTabsEntries, useOutboxEntries, type Decision } from '../../outbox';
import { prefetchContent } from '../content-cache';
import { displayState, entriesByItem, visitSpending, type ReviewItem } from '../model';
import { pageSizeError } from '../search';
import { BulkDisputeDialog } from './bulk-dispute-dialog';
import { ItemDetail } from './item-detail';
import { ItemList, type PickMode } from './item-list';
import { PullControls } from './pull-controls';
import { ShortcutsDialog } from './shortcuts';
import { useReviewKeys } from './use-review-keys';
import { NotStoredDialog } from './not-stored-dialog';
import { StoreStatus } from './store-status';
import { useReviewSource, type ReviewSourceProps } from './use-review-source';

type Props = ReviewSourceProps;

/**
 * The review workspace: a virtualized list of the page's items beside the focused item,
 * decisions by keyboard or mouse, sent through the outbox.
 */
export function ReviewWorkspace(props: Props) {
  const { connection, subscription, search } = props;
  const source = useReviewSource(props);
  const entries = useOutboxEntries(connection.id);
  const otherTabs = useOtherTabsEntries(connection.id);
  // This tab's decisions, and those other tabs recorded on the same items (shown, not sent here).
  const byItem = useMemo(() => entriesByItem([...otherTabs, ...entries]), [otherTabs, entries]);
  // When this visit (this workspace) started: what "spent this visit" counts from.
  const [visitStart] = useState(() => Date.now());
  const { items } = source;
  const states = useMemo(() => items.map((item) => displayState(item, byItem.get(item.id))), [items, byItem]);
  const decidedCount = useMemo(() => states.reduce((count, state) => (state === 'new' ? count : count + 1), 0), [states]);

  const [focusIndex, setFocusIndex] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [disputeOpen, setDisputeOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [confirm, setConfirm] = useState<{ decision: Decision; items: ReviewItem[] } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [bulkDispute, setBulkDispute] = useState<ReviewItem[] | null>(null);
  const [sizeDraft, setSizeDraft] = useState<string | null>(null);
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
    if (source.mode !== 'reread' && items.length > seenCount && seenCount > 0 && states[index] !== 'new') setFocusIndex(nextUndecided(index));
  }
  // The next item is rendered (hidden) after the keypress has painted, so moving on paints at once.
  const upcoming = useDeferredValue(focused ? items[nextUndecided(index, new Set([focused.key]))] : undefined);

  // Content of the items around the focused one is read ahead, so moving on paints from memory.
  useEffect(() => {
    void prefetchContent(items.slice(Math.max(0, index - 2), index + 8)).catch(() => undefined);
  }, [items, index]);

  // Fetch the next re-read page before the user reaches the end of this one.
  const { prefetchNext } = source;
  useEffect(() => {
    if (items.length > 0 && index >= Math.floor(items.length * 0.6)) prefetchNext();
  }, [index, items.length, prefetchNext]);

  // The same rule as `states`, per item: no search for its index.
  const isUndecided = (item: ReviewItem) => displayState(item, byItem.get(item.id)) === 'new';

  const decideMany = (targets: ReviewItem[], decision: Decision, reason?: string) => {
    const open = targets.filter(isUndecided);
    // Decisions made together are undone together.
    const group = open.length > 1 ? (globalThis.crypto?.randomUUID?.() ?? `g${Date.now()}${Math.random()}`) : undefined;
    for (const item of open) {
      outbox.enqueue(connection.id, {
        kind: item.kind,
        itemId: item.id,
        subscriptionId: item.subscriptionId,
        decision,
        reason: reason || undefined,
        priceMicros: item.kind === 'simulated' && decision === 'adopt' ? item.priceMicros : null,
      }, group);
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

  // Z and the Undo buttons do the same: take back the newest decision (or bulk decision) still in its window.
  const canUndo = entries.some((e) => e.state === 'grace');
  const undo = () => {
    const undone = outbox.undoLatest(connection.id);
    const first = undone[0];
    if (!first) {
      setAnnouncement('Nothing to undo: decisions past their undo window are already on their way.');
      return;
    }
    const at = items.findIndex((item) => item.id === first.itemId);
    if (at >= 0) setFocusIndex(at);
    setAnnouncement(
      undone.length === 1
        ? `Undid ${first.decision} of ${first.kind === 'live' ? 'submission' : 'item'} ${first.itemId}.`
        : `Undid ${first.decision} of ${undone.length} items.`,
    );
  };

  const selection = useMemo(() => (selected.size === 0 ? [] : items.filter((item) => selected.has(item.key))), [items, selected]);
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
    // Live disputes take one optional reason, as a single dispute does.
    if (decision === 'dispute' && open.some((item) => item.kind === 'live')) {
      setBulkDispute(open);
      return;
    }
    const done = decideMany(open, decision);
    setSelected(new Set());
    setAnnouncement(`${decision === 'adopt' ? 'Adopted' : 'Disputed'} ${done.length} items. Press Z to undo.`);
  };

  // Mouse selection: the box or Ctrl/Cmd-click toggles one item, Shift-click selects the range from the focused item.
  const pick = (at: number, mode: PickMode) => {
    const item = items[at];
    if (!item) return;
    if (mode === 'range') {
      const [from, to] = at < index ? [at, index] : [index, at];
      setSelected((current) => new Set([...current, ...items.slice(from, to + 1).map((i) => i.key)]));
    } else if (mode === 'toggle') {
      setSelected((current) => {
        const next = new Set(current);
        if (next.has(item.key)) next.delete(item.key);
        else next.add(item.key);
        return next;
      });
    }
    setFocusIndex(at);
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

  const dialogsOpen = helpOpen || confirm !== null || bulkDispute !== null;
  // The page size typed (kept until corrected) or the URL's; an invalid one is never pulled.
  const sizeText = sizeDraft ?? (Number.isNaN(search.limit) ? '' : String(search.limit));
  const sizeError = sizeDraft !== null ? pageSizeError(sizeDraft.trim() === '' ? Number.NaN : Number(sizeDraft)) : pageSizeError(search.limit);
  const guarded = (action: () => void) => () => {
    if (sizeError) setAnnouncement(`Not pulled: ${sizeError}`);
    else action();
  };
  const pull = guarded(source.pull);
  const pullNext = guarded(source.pullNext);
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
      pullNext,
      help: () => setHelpOpen(true),
    },
    !dialogsOpen && !disputeOpen,
  );

  // What this visit has cost: charges the service confirmed since the workspace opened (resumed
  // decisions included, repeats of an adopt it already held not), and those on their way.
  const alreadyAdopted = useMemo(
    () =>
      new Set([
        ...items.filter((item) => item.serverState === 'adopted').map((item) => item.id),
        ...otherTabs.filter((e) => isCharged(e) && e.state === 'sent').map((e) => e.itemId),
      ]),
    [items, otherTabs],
  );
  const spent = visitSpending(entries, alreadyAdopted, visitStart);
  const onTheirWay = sumMicros(
    entries.filter((e) => isCharged(e) && (e.state === 'grace' || e.state === 'queued' || e.state === 'sending')).map((e) => e.priceMicros ?? 0),
  );
  const pageTotal = useMemo(() => sumMicros(items.map((item) => item.priceMicros ?? 0)), [items]);
  const confirmTotal = confirm ? sumMicros(confirm.items.map((item) => item.priceMicros ?? 0)) : 0;

  const isLive = subscription.kind === 'live';
  // What the last action did, visibly, beside the item it was done on; Undo works like Z.
  const lastAction = (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <p role="status" aria-live="polite" className="min-w-0 [overflow-wrap:anywhere]">
        {announcement}
      </p>
      {canUndo && (
        <Button size="sm" onClick={undo} aria-keyshortcuts="z">
          Undo
        </Button>
      )}
    </div>
  );

  return (
    // On wide screens the workspace fills the window: the list and the item scroll on their own,
    // so the focused item's content is in view without scrolling the page.
    <div className="flex flex-col gap-3 lg:h-[calc(100dvh-8.5rem)] lg:min-h-[36rem]">
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <div className="min-w-0">
          <nav aria-label="Breadcrumb" className="text-sm">
            <Link to="/review" className="text-brand-600 underline dark:text-brand-100">
              Review
            </Link>{' '}
            / {subscription.label ?? subscription.id}
          </nav>
          <h1 className="text-xl font-semibold text-slate-900 dark:text-slate-50">Review {subscription.label ?? subscription.id}</h1>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {isLive
              ? search.mode === 'new'
                ? 'New items: each Pull moves this subscription forward; every item pulled is kept on this device, undecided first.'
                : 'Re-read: pages through everything from the beginning without moving the subscription.'
              : 'Pending simulated items, kept on this device once pulled. Adopting charges the item’s price; disputing charges nothing.'}
          </p>
        </div>
        <Button variant="ghost" onClick={() => setHelpOpen(true)} aria-keyshortcuts="?">
          Keyboard shortcuts
        </Button>
      </div>
      <PullControls
        search={search}
        isLive={isLive}
        source={source}
        onPull={pull}
        onPullNext={pullNext}
        sizeText={sizeText}
        sizeError={sizeError}
        onSizeText={setSizeDraft}
        itemCount={items.length}
        pageTotal={pageTotal}
        spent={spent}
        onTheirWay={onTheirWay}
        graceSeconds={graceSeconds}
        onGraceSeconds={setGraceSeconds}
      />
      <StoreStatus source={source} />
      <NotStoredDialog error={source.error} />
      {items.length === 0 ? (
        <div className="flex flex-col gap-2">
          {lastAction}
          {source.error ? <ErrorPanel error={source.error} onRetry={source.retry} /> : null}
          <Panel>
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {source.loading
                ? 'Pulling…'
                : source.mode !== 'reread' && !source.stored.complete
                  ? 'Reading the items kept on this device…'
                  : source.hasMore === false || (source.mode === 'pending' && search.run)
                    ? 'Nothing to review here.'
                    : 'Press Pull (or N) to fetch a page.'}
            </p>
          </Panel>
        </div>
      ) : (
        <div className="grid min-h-0 flex-1 gap-4 lg:grid-cols-[minmax(16rem,22rem)_minmax(0,1fr)]">
          {/* Narrow screens show the focused item first and a short list after it. */}
          <div className="order-2 flex min-h-0 min-w-0 flex-col gap-2 lg:order-1">
            {source.error ? <ErrorPanel error={source.error} onRetry={source.retry} /> : null}
            {source.loading && <p className="text-sm text-slate-600 dark:text-slate-400">Pulling…</p>}
            <ItemList items={items} states={states} focusIndex={index} selected={selected} onPick={pick} label="Items on this page" className="h-[45vh] lg:h-auto lg:min-h-40 lg:flex-1" />
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
            <div className="order-1 min-h-0 min-w-0 lg:order-2 lg:overflow-auto">
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
                lastAction={lastAction}
              />
            </div>
          )}
        </div>
      )}
      <ShortcutsDialog open={helpOpen} onOpenChange={setHelpOpen} />
      <BulkDisputeDialog
        items={bulkDispute}
        onCancel={() => setBulkDispute(null)}
        onConfirm={(reason) => {
          if (!bulkDispute) return;
          const done = decideMany(bulkDispute, 'dispute', reason);
          setBulkDispute(null);
          setSelected(new Set());
          setAnnouncement(`Disputed ${done.length} items. Press Z to undo.`);
        }}
      />
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
          setAnnouncement(`Adopted ${done.length} items for ${formatMicros(confirmTotal)}. Press Z to undo.`);
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
