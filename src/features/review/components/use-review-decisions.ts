import { useState, type Dispatch } from 'react';
import { formatMicros } from '../../../lib/money';
import { useOutbox } from '../../../data';
import type { Decision, OutboxEntry } from '../../../domain/outbox/model';
import type { FocusAction } from '../focus-selection';
import { displayState, totalPrice, type DisplayState, type ReviewItem } from '../model';
import { useStableHandlers } from './use-stable-handlers';

const NOTHING_SAID = { text: '', undoable: [] } as const;

export interface ReviewDecisionsInput {
  connectionId: string;
  items: readonly ReviewItem[];
  states: readonly DisplayState[];
  byItem: ReadonlyMap<string, OutboxEntry>;
  focus: number;
  /** The selected items, in list order. */
  selection: readonly ReviewItem[];
  dispatch: Dispatch<FocusAction<ReviewItem>>;
  /** Why this member may not decide (a team hub's viewer): every decision is refused with it, nothing recorded or sent. */
  readOnly?: string | null;
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
export function useReviewDecisions({ connectionId, items, states, byItem, focus, selection, dispatch, readOnly }: ReviewDecisionsInput) {
  const outbox = useOutbox();
  // What the last action did, and the items it decided: "Press Z to undo" is said only while one of
  // them is still in its undo window (it stayed after the decision was sent, and Z then undid another).
  const [last, setLast] = useState<{ text: string; undoable: readonly string[] }>(NOTHING_SAID);
  const setAnnouncement = (text: string, undoable: readonly ReviewItem[] = []) => setLast({ text, undoable: undoable.map((item) => item.id) });
  const [disputeOpen, setDisputeOpen] = useState(false);
  // Selected items waiting for a confirmation: charged adopts, and disputes (one reason for all).
  const [adoptPending, setAdoptPending] = useState<readonly ReviewItem[] | null>(null);
  const [disputePending, setDisputePending] = useState<readonly ReviewItem[] | null>(null);
  const focused = items[focus];

  // The same rule as `states`, per item: no search for its index.
  const isUndecided = (item: ReviewItem) => displayState(item, byItem.get(item.id)) === 'new';

  const decideMany = (targets: readonly ReviewItem[], decision: Decision, reason?: string) => {
    if (readOnly) return [];
    const open = targets.filter(isUndecided);
    // Decisions made together are undone together.
    const group = open.length > 1 ? (globalThis.crypto?.randomUUID?.() ?? `g${Date.now()}${Math.random()}`) : undefined;
    for (const item of open) {
      outbox.enqueue(
        connectionId,
        {
          kind: item.kind,
          itemId: item.id,
          subscriptionId: item.subscriptionId,
          decision,
          reason: reason || undefined,
          priceMicros: item.kind === 'simulated' && decision === 'adopt' ? item.priceMicros : null,
        },
        group,
      );
    }
    return open;
  };

  const decide = (decision: Decision, reason?: string) => {
    if (!focused) return;
    if (readOnly) {
      setAnnouncement(readOnly);
      return;
    }
    if (states[focus] !== 'new') {
      setAnnouncement(`${focused.title} is already ${states[focus]}.`);
      return;
    }
    decideMany([focused], decision, reason);
    setDisputeOpen(false);
    setAnnouncement(`${decision === 'adopt' ? 'Adopted' : 'Disputed'} ${focused.title}.`, [focused]);
    dispatch({ type: 'decided', states });
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
    const done = decideMany(open, decision);
    dispatch({ type: 'clear' });
    setAnnouncement(`Adopted ${done.length} items.`, done);
  };

  return {
    announcement: last.text,
    /** The item IDs the announced action decided (none for any other announcement). */
    announcedDecisions: last.undoable,
    disputeOpen,
    adoptPending,
    disputePending,
    ...useStableHandlers({
      adopt: () => decide('adopt'),
      /** D and the Dispute button: the reason picker opens (for an undecided item); its Enter disputes. */
      dispute: () => {
        if (!focused) return;
        if (readOnly) {
          setAnnouncement(readOnly);
          return;
        }
        if (states[focus] === 'new') setDisputeOpen(true);
        else setAnnouncement(`${focused.title} is already ${states[focus]}.`);
      },
      disputeWithReason: (reason: string) => decide('dispute', reason),
      cancelDispute: () => setDisputeOpen(false),
      adoptSelection: () => decideSelection('adopt'),
      disputeSelection: () => decideSelection('dispute'),
      confirmAdoptSelection: () => {
        if (!adoptPending) return;
        const total = totalPrice(adoptPending);
        const done = decideMany(adoptPending, 'adopt');
        setAdoptPending(null);
        dispatch({ type: 'clear' });
        setAnnouncement(`Adopted ${done.length} items for ${formatMicros(total)}.`, done);
      },
      cancelAdoptSelection: () => setAdoptPending(null),
      confirmDisputeSelection: (reason: string) => {
        if (!disputePending) return;
        const done = decideMany(disputePending, 'dispute', reason);
        setDisputePending(null);
        dispatch({ type: 'clear' });
        setAnnouncement(`Disputed ${done.length} items.`, done);
      },
      cancelDisputeSelection: () => setDisputePending(null),
      // Z and the Undo buttons do the same: take back the newest decision (or bulk decision) still in its window.
      undo: () => {
        const undone = outbox.undoLatest(connectionId);
        const first = undone[0];
        if (!first) {
          setAnnouncement('Nothing to undo: decisions past their undo window are already on their way.');
          return;
        }
        const at = items.findIndex((item) => item.id === first.itemId);
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
