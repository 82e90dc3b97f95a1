import { memo, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { cx } from '../../../lib/cx';
import { Button } from '../../../components/ui/button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { FontWarmup } from '../../../components/ui/font-warmup';
import { useDisputeReasons } from '../../dispute-reasons';
import { decideRefusal, subscriptionName, useOtherTabsEntries, useOutboxEntries, useOutboxLoaded } from '../../../data';
import { loadSettings } from '../../../domain/outbox/settings';
import type { OutboxEntry } from '../../../domain/outbox/model';
import { useLotSample } from '../../sampling';
import { hasFilters } from '../../../domain/triage';
import { prefetchContent } from '../content-cache';
import { type PickMode } from '../focus-selection';
import { createFocusLead } from '../focus-lead';
import { afterPaint } from '../../../lib/after-paint';
import { displayState, entriesByItem, teammateOf, totalPrice } from '../model';
import { loadLayout, saveLayout } from '../layout-prefs';
import { pageSizeError } from '../search';
import { BatchBar } from './batch-bar';
import { BulkAdoptDialog } from './bulk-adopt-dialog';
import { BulkDisputeDialog } from './bulk-dispute-dialog';
import { EmptyList } from './empty-list';
import { FilterBanner, useReviewFilter, type ReviewFilter } from './filtered-view';
import { FocusedCard, shownIndex } from './focused-card';
import { ItemList } from './item-list';
import { LastAction } from './last-action';
import { NotStoredDialog } from './not-stored-dialog';
import { PullControls } from './pull-controls';
import { SelectionBar } from './selection-bar';
import { ShortcutsDialog } from './shortcuts';
import { StoreStatus } from './store-status';
import { useFocusSelection } from './use-focus-selection';
import { useReviewDecisions } from './use-review-decisions';
import { useReviewKeys } from './use-review-keys';
import { useReviewSource, type ReviewSourceProps } from './use-review-source';
import { useStableHandlers } from './use-stable-handlers';
import { useTeamBatch, type TeamBatchState } from './use-team-batch';
import { useFillWindow } from './use-fill-window';
import { WorkspaceHeader } from './workspace-header';
import { ariaKeys } from '../keymap';

type Props = ReviewSourceProps;

// Memoised: the workspace renders on every keypress (the focus is its state), and none of these
// changes with the focus; their props are values and stable handlers.
const Header = memo(WorkspaceHeader);
const Controls = memo(PullControls);
const Status = memo(StoreStatus);
const NotStored = memo(NotStoredDialog);
const Selection = memo(SelectionBar);
const Last = memo(LastAction);
const Shortcuts = memo(ShortcutsDialog);
const BulkDispute = memo(BulkDisputeDialog);
const BulkAdopt = memo(BulkAdoptDialog);

/**
 * The review workspace: a virtualized list of the page's items beside the focused item,
 * decisions by keyboard or mouse, sent through the outbox. One visit per subscription: focus,
 * selection, dialogs and what this visit spent start over for another, whatever the route keeps.
 */
export function ReviewWorkspace(props: Props) {
  const key = `${props.connection.id}:${props.subscription.id}`;
  // With triage filters in the URL, only the matching stored items are listed; the store is read
  // for them only then (a plain review never loads every row).
  // A sampling lot in the URL lists exactly its sampled items, decided or not.
  if (props.search.lot) return <LotWorkspace key={key} {...props} lotId={props.search.lot} />;
  // On a team hub the review walks a batch leased from the team's queue (the URL's filters choose it).
  if (props.connection.hub && props.search.queue !== 'all') return <BatchWorkspace key={key} {...props} />;
  return hasFilters(props.search) ? <FilteredWorkspace key={key} {...props} /> : <Workspace key={key} {...props} filter={null} />;
}

function LotWorkspace(props: Props & { lotId: string }) {
  const filter = useLotSample(props.connection, props.lotId);
  return <Workspace {...props} filter={filter} />;
}

function BatchWorkspace(props: Props) {
  const batch = useTeamBatch(props.connection, props.subscription, props.search);
  // A viewer holds no batch: they read the whole subscription, as before.
  const filter = useMemo<ReviewFilter | null>(() => (batch.refusal ? null : { ids: batch.ids, description: 'your batch' }), [batch.refusal, batch.ids]);
  return <Workspace {...props} filter={filter} batch={batch} />;
}

function FilteredWorkspace(props: Props) {
  const filter = useReviewFilter(props.connection, props.subscription.id, props.search);
  return <Workspace {...props} filter={filter} />;
}

function Workspace(props: Props & { filter: ReviewFilter | null; batch?: TeamBatchState }) {
  const { connection, subscription, search, filter, batch } = props;
  const source = useReviewSource(props);
  // The filter's ID set keeps its identity until the matches change, so the list is filtered again only then.
  const filtered = filter !== null;
  const ids = filter?.ids ?? null;
  const items = useMemo(() => (!filtered ? source.items : ids ? source.items.filter((item) => ids.has(item.id)) : []), [filtered, ids, source.items]);
  // A frame late (after its paint): a decision renders only the card before its paint (focus-lead.ts).
  const entries = useOutboxEntries(connection.id, 'after-paint');
  const otherTabs = useOtherTabsEntries(connection.id, 'after-paint');
  const entriesRead = useOutboxLoaded(connection.id, 'after-paint');
  // This tab's decisions, and those other tabs recorded on the same items (shown, not sent here).
  const byItem = useMemo(() => entriesByItem([...otherTabs, ...entries]), [otherTabs, entries]);
  const states = useMemo(() => items.map((item) => displayState(item, byItem.get(item.id))), [items, byItem]);
  const decidedBy = useMemo(() => items.map((item) => teammateOf(byItem.get(item.id))), [items, byItem]);
  const decidedCount = useMemo(() => states.reduce((count, state) => (state === 'new' ? count : count + 1), 0), [states]);
  // The batch's items still to decide here, and those the lease no longer covers.
  const lostIds = batch?.batch?.lost;
  const batchLeft = useMemo(() => {
    const lost = new Set(lostIds ?? []);
    return items.reduce((n, item, i) => (states[i] === 'new' && !lost.has(item.id) ? n + 1 : n), 0);
  }, [items, states, lostIds]);

  // Focus and selection follow the rules of focus-selection.ts (a new page starts over, a pull jumps on).
  // This tab's decisions not yet in `states` (use-review-decisions.ts records them with their
  // entries). Each leaves once its own entry (or a later one) has reached a render: from then on
  // `states` say it, and a later discard or undo from elsewhere (the outbox's notices) makes its item
  // undecided again. An earlier entry of the item (discarded, say) is no sign: a render from a
  // snapshot taken before the key has it, and would free the item too early.
  const [decidedAhead] = useState(() => new Map<string, OutboxEntry>());
  // And what Z took back that this render still shows: each leaves once a render no longer has its entry.
  const [undoneAhead] = useState(() => new Map<string, string>());
  useLayoutEffect(() => {
    for (const [id, entry] of decidedAhead) {
      const shown = byItem.get(id);
      if (shown && (shown.id === entry.id || shown.createdAt >= entry.createdAt)) decidedAhead.delete(id);
    }
    for (const [entryId, id] of undoneAhead) if (byItem.get(id)?.id !== entryId) undoneAhead.delete(entryId);
  }, [decidedAhead, undoneAhead, byItem]);
  // Where a keypress moved the card ahead of this render (focus-lead.ts): the card shows it at once,
  // the workspace takes it after the paint, and the lead is dropped once this render has its item
  // focused (or its item is gone), or once a pull's jump has moved on from it.
  const [lead] = useState(createFocusLead);
  // A list from the store grows in place and is the items to decide; a re-read page is read as delivered.
  const grows = source.mode !== 'reread';
  const [view, dispatch] = useFocusSelection(
    source.pageKey,
    items,
    states,
    grows,
    (item) => decidedAhead.has(item.id),
    () => lead.get(),
  );
  const index = view.focus;
  const focused = items[index];
  const { selected } = view;
  const selection = useMemo(() => (selected.size === 0 ? [] : items.filter((item) => selected.has(item.key))), [items, selected]);
  // Each jump's lead is dropped once: a later lead on the same item is a new keypress's.
  const leadTaken = useRef(view.tookLead);
  useLayoutEffect(() => {
    const key = lead.get();
    const jumped = view.tookLead !== leadTaken.current ? view.tookLead : undefined;
    leadTaken.current = view.tookLead;
    if (key !== null && (focused?.key === key || jumped?.key === key || !items.some((item) => item.key === key))) lead.clear();
  });
  // The items to decide (not a re-read page, which reads as delivered, from its first item) start
  // at the first undecided one once this device's decisions are read (before, an item decided in
  // the last visit reads as undecided), unless the reviewer has moved already.
  useLayoutEffect(() => {
    if (grows && !view.placed && entriesRead && items.length > 0 && lead.get() === null) dispatch({ type: 'place', states });
  });
  // The focus the reviewer sees: the lead's item, if a keypress moved on since this render.
  const shown = () => shownIndex(items, index, lead.get());
  // A move renders only the card before its paint; the workspace follows in the task after it.
  const moveTo = (to: number) => {
    const item = items[Math.max(0, Math.min(to, items.length - 1))];
    if (!item || item.key === items[shown()]?.key) return;
    lead.set(item.key);
    afterPaint(act.followLead);
  };
  // Any other change of focus or selection starts from the focus seen: the lead is taken first.
  // Dropping the lead is safe only because the render that takes it over comes before any other
  // event: a key's or a click's own render does (discrete), and the follow after the paint is
  // flushed at once (followLead), so no handler reads the focus between the two.
  const settle = () => {
    const key = lead.get();
    if (key === null) return;
    lead.clear();
    const at = items.findIndex((item) => item.key === key);
    if (at >= 0) dispatch({ type: 'focus', index: at });
  };
  const { reasons } = useDisputeReasons(connection);
  // A team hub's viewer reads everything and decides nothing: no key or button sends a decision.
  const readOnly = decideRefusal(connection);
  // On narrow screens the page scrolls, and a dispute's reason picker or a long item leaves it
  // scrolled down: after a decision the next item is shown from its title (never when the card's
  // top is in view; wide screens scroll the card's content in place).
  const cardRef = useRef<HTMLElement>(null);
  const revealCard = () => {
    const card = cardRef.current;
    if (card && !window.matchMedia?.('(min-width: 64rem)').matches && card.getBoundingClientRect().top < 0) card.scrollIntoView({ block: 'start' });
  };
  const decisions = useReviewDecisions({
    connectionId: connection.id,
    items,
    states,
    byItem,
    focusNow: shown,
    settle,
    moveTo,
    revealCard,
    selection,
    dispatch,
    readOnly,
    decidedAhead,
    undoneAhead,
  });
  const pageTotal = useMemo(() => totalPrice(items), [items]);
  const [helpOpen, setHelpOpen] = useState(false);
  // The layout: the list collapsed (kept on this device) and focus mode (only the item card).
  const [listCollapsed, setListCollapsed] = useState(() => loadLayout().listCollapsed);
  const [focusMode, setFocusMode] = useState(false);
  const listId = useId();
  const fillRef = useFillWindow<HTMLDivElement>();
  // Where the list will start while no item is shown, measured as a pull is asked for (the page
  // laid out already; the answer not yet waited for): the list's first frame renders only the rows
  // that room can show, not a window's height of them.
  const emptyRef = useRef<HTMLDivElement>(null);
  const [listRoom, setListRoom] = useState<number | undefined>(undefined);
  const measureListRoom = () => {
    const empty = emptyRef.current;
    if (empty) setListRoom(window.innerHeight - empty.getBoundingClientRect().top);
  };
  const [graceSeconds, setGraceSeconds] = useState(() => loadSettings().graceSeconds);
  // The page size typed (kept until corrected) or the URL's; an invalid one is never pulled.
  // A valid size typed stays the field's text until the URL has it: until the navigation commits,
  // the URL's old size is no text to show (a blur then, as when a pull's answer moves the focus,
  // would take that old size for the user's). Any new size in the URL drops the draft.
  const [sizeDraft, setSizeDraft] = useState<string | null>(null);
  const [sizeSeen, setSizeSeen] = useState(search.limit);
  if (!Object.is(sizeSeen, search.limit)) {
    setSizeSeen(search.limit);
    setSizeDraft(null);
  }
  const sizeText = sizeDraft ?? (Number.isNaN(search.limit) ? '' : String(search.limit));
  const sizeError = sizeDraft !== null ? pageSizeError(sizeDraft.trim() === '' ? Number.NaN : Number(sizeDraft)) : pageSizeError(search.limit);

  const act = useStableHandlers({
    followLead: () => flushSync(settle),
    next: () => moveTo(shown() + 1),
    previous: () => moveTo(shown() - 1),
    first: () => moveTo(0),
    last: () => moveTo(items.length - 1),
    toggleSelect: () => {
      settle();
      dispatch({ type: 'toggle' });
    },
    adopt: decisions.adopt,
    dispute: decisions.dispute,
    undo: decisions.undo,
    adoptSelection: decisions.adoptSelection,
    disputeSelection: decisions.disputeSelection,
    pick: (at: number, mode: PickMode) => {
      settle();
      dispatch({ type: 'pick', index: at, mode });
    },
    pull: () => {
      setPulls((n) => n + 1);
      measureListRoom();
      const why = source.refusal ?? sizeError;
      return why ? decisions.announce(`Not pulled: ${why}`) : source.pull();
    },
    pullNext: () => {
      setPulls((n) => n + 1);
      measureListRoom();
      const why = source.refusal ?? sizeError;
      return why ? decisions.announce(`Not pulled: ${why}`) : source.pullNext();
    },
    // Only once the batch is done: a key pressed mid-batch must not lease more than the reviewer can walk.
    nextBatch: () => batch && !batch.refusal && (batch.batch === null || batchLeft === 0) && batch.take(),
    prefetchNext: () => source.prefetchNext(),
    help: () => setHelpOpen(true),
    focusMode: () => setFocusMode((on) => !on),
    toggleList: () =>
      setListCollapsed((collapsed) => {
        saveLayout({ listCollapsed: !collapsed });
        return !collapsed;
      }),
  });
  // The reason picker holds the keys only while it is shown: on its item, undecided. A dispute's
  // Enter moves the card on (and so closes it) before the workspace renders again.
  const pickerShown = () => {
    const at = shown();
    return decisions.disputeFor !== null && decisions.disputeFor === items[at]?.key && states[at] === 'new' && !readOnly;
  };
  const dialogsOpen = () => helpOpen || decisions.adoptPending !== null || decisions.disputePending !== null || pickerShown();
  // A picker left behind (a click on another row, an Undo, a bulk decision, a new page, its item
  // decided elsewhere) is closed, not kept to reappear, focused, when the card comes back to its item.
  const leftPicker = decisions.disputeFor !== null && (focused?.key !== decisions.disputeFor || states[index] !== 'new');
  const closePicker = decisions.cancelDispute;
  // After every commit: one that comes while a lead is pending is followed by the one that takes it.
  useLayoutEffect(() => {
    if (leftPicker && lead.get() === null) closePicker();
  });
  useReviewKeys(act, () => !dialogsOpen());

  // A team queue found empty is asked again once this reviewer's own pull brought items into the
  // store (not on the inbox's sync: an unattended tab would lease what its teammates could review).
  const storedCount = source.items.length;
  const waitingForItems = batch?.batch === null && batch.empty && !batch.refusal;
  const takeAgain = batch?.take;
  const [pulls, setPulls] = useState(0);
  useEffect(() => {
    if (waitingForItems && pulls > 0 && storedCount > 0) takeAgain?.();
  }, [waitingForItems, pulls, storedCount, takeAgain]);

  // Content of the items around the focused one is read ahead, so moving on paints from memory.
  useEffect(() => {
    void prefetchContent(items.slice(Math.max(0, index - 2), index + 8)).catch(() => undefined);
  }, [items, index]);
  // Fetch the next re-read page before the user reaches the end of this one.
  useEffect(() => {
    if (items.length > 0 && index >= Math.floor(items.length * 0.6)) act.prefetchNext();
  }, [index, items, act]);

  const canUndo = useMemo(() => entries.some((e) => e.state === 'grace'), [entries]);
  const announced = decisions.announcedDecisions;
  const undoHint = useMemo(() => {
    if (announced.length === 0) return false;
    const ids = new Set(announced);
    return entries.some((e) => e.state === 'grace' && ids.has(e.itemId));
  }, [entries, announced]);
  // One element while its props stay: the memoised card is then skipped by renders that change nothing of it.
  const lastAction = useMemo(
    () => <Last announcement={decisions.announcement} undoHint={undoHint} canUndo={canUndo} onUndo={decisions.undo} />,
    [decisions.announcement, undoHint, canUndo, decisions.undo],
  );
  const error = source.error ? <ErrorPanel error={source.error} onRetry={source.retry} /> : null;

  return (
    // On wide screens the workspace fills the window: the list and the item scroll on their own,
    // so the focused item's content is in view without scrolling the page. Focus mode keeps only
    // the item card (the rest stays mounted, hidden, so nothing is lost or fetched again).
    <div ref={fillRef} className="flex flex-col gap-2 lg:-mb-4 lg:h-[calc(100dvh-var(--fill-top,8rem)-0.5rem)] lg:min-h-[30rem]">
      {focusMode && (
        <div className="flex justify-end">
          <Button size="sm" variant="ghost" aria-pressed onClick={act.focusMode} aria-keyshortcuts={ariaKeys('focusMode')}>
            Exit focus mode
          </Button>
        </div>
      )}
      <div hidden={focusMode} className="contents">
        <Header
          subscription={subscription}
          mode={source.mode}
          onHelp={act.help}
          listCollapsed={listCollapsed}
          listId={listId}
          onToggleList={act.toggleList}
          onFocusMode={act.focusMode}
        />
        {batch ? <BatchBar state={batch} left={batchLeft} lost={lostIds?.length ?? 0} /> : filter && <FilterBanner filter={filter} count={items.length} />}
        <Controls
          search={search}
          isLive={subscription.kind === 'live'}
          source={source}
          onPull={act.pull}
          onPullNext={act.pullNext}
          sizeText={sizeText}
          sizeError={sizeError}
          onSizeText={setSizeDraft}
          itemCount={items.length}
          pageTotal={pageTotal}
          connectionId={connection.id}
          items={items}
          graceSeconds={graceSeconds}
          onGraceSeconds={setGraceSeconds}
        />
        <Status source={source} />
      </div>
      <NotStored error={source.error} />
      {/* The focus is on an item whenever there are items. */}
      {!focused ? (
        <div ref={emptyRef} className="flex flex-col gap-2">
          {lastAction}
          {error}
          <EmptyList source={source} search={search} batchless={batch?.batch === null && !batch.refusal} />
          {/* The first page of items lays out without looking fonts up. */}
          <FontWarmup />
        </div>
      ) : (
        <div className={cx('grid min-h-0 flex-1 gap-4', !listCollapsed && !focusMode && 'lg:grid-cols-[minmax(15rem,21rem)_minmax(0,1fr)]')}>
          {/* Narrow screens show the focused item first and a short list after it. */}
          <div id={listId} hidden={listCollapsed || focusMode} className="order-2 flex min-h-0 min-w-0 flex-col gap-2 lg:order-1">
            {error}
            {source.loading && <p className="text-sm text-slate-600 dark:text-slate-400">Pulling…</p>}
            <ItemList
              items={items}
              states={states}
              decidedBy={decidedBy}
              focusIndex={index}
              selected={selected}
              onPick={act.pick}
              label="Items on this page"
              room={listRoom}
              className="h-[45vh] lg:h-auto lg:min-h-40 lg:flex-1"
            />
            <Selection
              decided={decidedCount}
              total={items.length}
              selected={selection.length}
              focusedSelected={selected.has(focused.key)}
              onAdopt={decisions.adoptSelection}
              onDispute={decisions.disputeSelection}
              onToggle={act.toggleSelect}
            />
          </div>
          <div className="order-1 flex min-h-0 min-w-0 flex-col lg:order-2">
            <FocusedCard
              items={items}
              states={states}
              byItem={byItem}
              focus={index}
              lead={lead}
              sectionRef={cardRef}
              baseUrl={connection.baseUrl}
              disputeFor={decisions.disputeFor}
              reasons={reasons}
              onAdopt={decisions.adopt}
              onDispute={decisions.dispute}
              onDisputeConfirm={decisions.disputeWithReason}
              onDisputeCancel={decisions.cancelDispute}
              readOnly={readOnly}
              subscriptionName={subscriptionName({ subscriptions: [subscription] }, subscription.id)}
              lastAction={lastAction}
            />
          </div>
        </div>
      )}
      <Shortcuts open={helpOpen} onOpenChange={setHelpOpen} />
      <BulkDispute
        items={decisions.disputePending}
        reasons={reasons}
        onCancel={decisions.cancelDisputeSelection}
        onConfirm={decisions.confirmDisputeSelection}
      />
      <BulkAdopt
        items={decisions.adoptPending}
        graceSeconds={graceSeconds}
        onCancel={decisions.cancelAdoptSelection}
        onConfirm={decisions.confirmAdoptSelection}
      />
    </div>
  );
}
