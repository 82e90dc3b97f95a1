import { useRef, useState, type Dispatch } from 'react';
import { formatMicros } from '../../../lib/money';
import { useOutbox } from '../../../data';
import { afterPaint } from '../../../lib/after-paint';
import type { Decision, OutboxEntry } from '../../../domain/outbox/model';
import { nextUndecided, type FocusAction } from '../focus-selection';
import { displayState, totalPrice, type DisplayState, type ReviewItem } from '../model';
import { useStableHandlers } from './use-stable-handlers';

const NOTHING_SAID = { text: '', undoable: [] } as const;

export interface ReviewDecisionsInput {
  connectionId: string;
  items: readonly ReviewItem[];
  states: readonly DisplayState[];
  byItem: ReadonlyMap<string, OutboxEntry>;
  /** The focused item's index as the reviewer sees it now (the card may lead the last render: focus-lead.ts). */
  focusNow: () => number;
  /** Hands a focus lead over to the workspace's focus, so what is dispatched next starts from it. */
  settle: () => void;
  /** Moves the card on to an item ahead of the workspace (focus-lead.ts): a decision's jump. */
  moveTo: (index: number) => void;
  /** Brings the card's top into view (after a decision's paint: the next item is judged from its title). */
  revealCard: () => void;
  /** The selected items, in list order. */
  selection: readonly ReviewItem[];
  dispatch: Dispatch<FocusAction<ReviewItem>>;
  /** Why this member may not decide (a team hub's viewer): every decision is refused with it, nothing recorded or sent. */
  readOnly?: string | null;
  /**
   * Decisions recorded since the entries this render was given (the workspace follows the outbox a
   * frame late): an item decided there is not decided again, nor taken into a bulk decision, in that
   * frame. This hook adds to it and removes what Z undoes; the workspace owns it, drops each item
   * once its entry has reached a render, and moves a pull's focus on from an item decided there.
   */
  decidedAhead: Map<string, OutboxEntry>;
  /**
   * Decisions Z took back since the entries this render was given: entry ID → item ID. Until a
   * render drops that entry, its item reads as undecided here (Z then A in one frame adopts it again,
   * instead of saying it is already adopted; Z, A, Z, A too: every entry taken back is kept). The
   * workspace owns it and drops each once the render no longer shows it.
   */
  undoneAhead: Map<string, string>;
}

/**
 * Deciding: on the focused item (A, D with a reason), on the selection (Shift+A, Shift+D, with a
 * confirmation naming the total for charged adopts and one reason for the disputes), and undoing
 * (Z). Each says what it did. The actions are stable functions.
 *
 * Every dispute, live or simulated, asks the same optional reason. A live one sends it (spec 4.9);
 * a simulated one has no body on the wire (spec 4.12), so its reason is kept in the outbox entry,
 * which statistics and exports read.
 */
export function useReviewDecisions({
  connectionId,
  items,
  states,
  byItem,
  focusNow,
  settle,
  moveTo,
  revealCard,
  selection,
  dispatch,
  readOnly,
  decidedAhead,
  undoneAhead,
}: ReviewDecisionsInput) {
  const outbox = useOutbox();
  // What the last action did, and the items it decided: "Press Z to undo" is said only while one of
  // them is still in its undo window (it stayed after the decision was sent, and Z then undid another).
  const [last, setLast] = useState<{ text: string; undoable: readonly string[] }>(NOTHING_SAID);
  // Each announcement is numbered: one said after a paint (a decision's) never replaces a later one (an Undo pressed within that frame).
  const said = useRef(0);
  const setAnnouncement = (text: string, undoable: readonly ReviewItem[] = []) => {
    said.current++;
    setLast({ text, undoable: undoable.map((item) => item.id) });
  };
  // The item whose reason picker is open: the card shows it on that item only, so a dispute's Enter
  // closes it with the move on, before the workspace has rendered again.
  const [disputeFor, setDisputeFor] = useState<string | null>(null);
  // Selected items waiting for a confirmation: charged adopts, and disputes (one reason for all).
  const [adoptPending, setAdoptPending] = useState<readonly ReviewItem[] | null>(null);
  const [disputePending, setDisputePending] = useState<readonly ReviewItem[] | null>(null);

  const aheadOf = (item: ReviewItem): Decision | undefined => decidedAhead.get(item.id)?.decision;
  // The entry this render shows on an item, unless Z took it back since.
  const shownEntry = (item: ReviewItem) => {
    const entry = byItem.get(item.id);
    return entry && undoneAhead.has(entry.id) ? undefined : entry;
  };
  // The same rule as `states`, per item: no search for its index.
  const isUndecided = (item: ReviewItem) => displayState(item, shownEntry(item)) === 'new' && aheadOf(item) === undefined;
  // `states`, with what Z took back in this frame undecided again (the same array when it took back nothing shown).
  const statesNow = (): readonly DisplayState[] =>
    undoneAhead.size === 0 ? states : items.map((item, i) => (shownEntry(item) !== byItem.get(item.id) ? displayState(item, undefined) : states[i]!));

  // What stands on an item that is not undecided: its state, or the decision recorded in this frame.
  const sayAlreadyDecided = (item: ReviewItem) => {
    const state = displayState(item, shownEntry(item));
    setAnnouncement(`${item.title} is already ${state !== 'new' ? state : aheadOf(item) === 'dispute' ? 'disputed' : 'adopted'}.`);
  };

  /**
   * Records a decision on each undecided target, in one call: the outbox skips an item another
   * decision already stands on (another tab's, which this render may not show: one of this tab's
   * that Z took back hid it). Returns the items recorded and, for those skipped, what stands.
   */
  const decideMany = (targets: readonly ReviewItem[], decision: Decision, reason?: string) => {
    if (readOnly) return { done: [], standing: new Map<string, OutboxEntry>() };
    const open = targets.filter(isUndecided);
    // Decisions made together are undone together.
    const group = open.length > 1 ? (globalThis.crypto?.randomUUID?.() ?? `g${Date.now()}${Math.random()}`) : undefined;
    // Recorded once the outbox has the entries (an enqueue that throws leaves the items undecided).
    const { recorded, skipped } = outbox.enqueueMany(
      connectionId,
      open.map((item) => ({
        kind: item.kind,
        itemId: item.id,
        subscriptionId: item.subscriptionId,
        decision,
        reason: reason || undefined,
        priceMicros: item.kind === 'simulated' && decision === 'adopt' ? item.priceMicros : null,
      })),
      group,
    );
    for (const entry of recorded) decidedAhead.set(entry.itemId, entry);
    const standing = new Map(skipped.map((s) => [s.decision.itemId, s.standing]));
    return { done: open.filter((item) => !standing.has(item.id)), standing };
  };

  const decide = (decision: Decision, reason?: string) => {
    const focus = focusNow();
    const focused = items[focus];
    if (!focused) return;
    if (readOnly) {
      setAnnouncement(readOnly);
      return;
    }
    if (!isUndecided(focused)) {
      sayAlreadyDecided(focused);
      return;
    }
    const { standing } = decideMany([focused], decision, reason);
    const other = standing.get(focused.id);
    if (other) {
      setAnnouncement(`${focused.title} is already ${other.decision === 'dispute' ? 'disputed' : 'adopted'}.`);
      return;
    }
    // On to the next undecided item: only the card renders before the paint. The rest of the
    // workspace (the decided row, the picker's state, what the decision says) follows after it.
    moveTo(nextUndecided(statesNow(), focus, (i) => items[i] !== undefined && aheadOf(items[i]) !== undefined));
    const turn = ++said.current;
    afterPaint(() => {
      revealCard();
      setDisputeFor((key) => (key === focused.key ? null : key));
      if (said.current === turn) setAnnouncement(`${decision === 'adopt' ? 'Adopted' : 'Disputed'} ${focused.title}.`, [focused]);
    });
  };

  const decideSelection = (decision: Decision) => {
    if (readOnly) {
      setAnnouncement(readOnly);
      return;
    }
    const open = selection.filter(isUndecided);
    if (open.length === 0) {
      setAnnouncement('Select undecided items with X first.');
      return;
    }
    if (decision === 'adopt' && open.some((item) => item.kind === 'simulated')) {
      setAdoptPending(open);
      return;
    }
    // Disputes take one optional reason, as a single dispute does.
    if (decision === 'dispute') {
      setDisputePending(open);
      return;
    }
    const { done } = decideMany(open, decision);
    dispatch({ type: 'clear' });
    setAnnouncement(`Adopted ${done.length} items.`, done);
  };

  return {
    announcement: last.text,
    /** The item IDs the announced action decided (none for any other announcement). */
    announcedDecisions: last.undoable,
    /** The key of the item whose reason picker is open. */
    disputeFor,
    adoptPending,
    disputePending,
    ...useStableHandlers({
      adopt: () => decide('adopt'),
      /** D and the Dispute button: the reason picker opens (for an undecided item); its Enter disputes. */
      dispute: () => {
        const focus = focusNow();
        const focused = items[focus];
        if (!focused) return;
        if (readOnly) {
          setAnnouncement(readOnly);
          return;
        }
        if (isUndecided(focused)) setDisputeFor(focused.key);
        else sayAlreadyDecided(focused);
      },
      disputeWithReason: (reason: string) => decide('dispute', reason),
      cancelDispute: () => setDisputeFor(null),
      adoptSelection: () => decideSelection('adopt'),
      disputeSelection: () => decideSelection('dispute'),
      confirmAdoptSelection: () => {
        if (!adoptPending) return;
        const { done } = decideMany(adoptPending, 'adopt');
        setAdoptPending(null);
        dispatch({ type: 'clear' });
        // What was recorded: an item another tab decided meanwhile was skipped, and is not charged here.
        setAnnouncement(`Adopted ${done.length} items for ${formatMicros(totalPrice(done))}.`, done);
      },
      cancelAdoptSelection: () => setAdoptPending(null),
      confirmDisputeSelection: (reason: string) => {
        if (!disputePending) return;
        const { done } = decideMany(disputePending, 'dispute', reason);
        setDisputePending(null);
        dispatch({ type: 'clear' });
        setAnnouncement(`Disputed ${done.length} items.`, done);
      },
      cancelDisputeSelection: () => setDisputePending(null),
      // Z and the Undo buttons do the same: take back the newest decision (or bulk decision) still in its window.
      undo: () => {
        const undone = outbox.undoLatest(connectionId);
        for (const entry of undone) {
          decidedAhead.delete(entry.itemId);
          undoneAhead.set(entry.id, entry.itemId);
        }
        const first = undone[0];
        if (!first) {
          setAnnouncement('Nothing to undo: decisions past their undo window are already on their way.');
          return;
        }
        const at = items.findIndex((item) => item.id === first.itemId);
        settle();
        if (at >= 0) dispatch({ type: 'focus', index: at });
        setAnnouncement(
          undone.length === 1
            ? `Undid ${first.decision} of ${first.kind === 'live' ? 'submission' : 'item'} ${first.itemId}.`
            : `Undid ${first.decision} of ${undone.length} items.`,
        );
      },
      announce: (text: string) => setAnnouncement(text),
    }),
  };
}
