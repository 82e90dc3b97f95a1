import { memo, useMemo, useSyncExternalStore } from 'react';
import type { OutboxEntry } from '../../../domain/outbox/model';
import type { FocusLead } from '../focus-lead';
import { AHEAD, itemsAhead } from '../focus-selection';
import type { DisplayState, ReviewItem } from '../model';
import { ItemDetail, type ItemDetailProps } from './item-detail';

export interface FocusedCardProps extends Omit<ItemDetailProps, 'item' | 'ahead' | 'further' | 'state' | 'entry'> {
  items: readonly ReviewItem[];
  states: readonly DisplayState[];
  byItem: ReadonlyMap<string, OutboxEntry>;
  /** The workspace's focus, as of its last render. */
  focus: number;
  /** The item a keypress moved to since (focus-lead.ts): shown instead, until the workspace follows. */
  lead: FocusLead;
}

/** The index the card shows: the lead's item while the workspace has not caught up, else the workspace's focus. */
export function shownIndex(items: readonly ReviewItem[], focus: number, leadKey: string | null): number {
  if (leadKey === null || items[focus]?.key === leadKey) return focus;
  const at = items.findIndex((item) => item.key === leadKey);
  return at >= 0 ? at : focus;
}

/**
 * The focused item's card, the one part of the review a keypress renders before its frame paints:
 * it follows the focus lead at once, and its other props (the list, its states, the outbox's
 * entries) from the workspace's last render, which the rest of the workspace catches up with after
 * the paint. Memoised: the workspace's renders that change none of them skip it (its `lastAction`
 * element is memoised for that).
 */
export const FocusedCard = memo(function FocusedCard({ items, states, byItem, focus, lead, ...detail }: FocusedCardProps) {
  const leadKey = useSyncExternalStore(lead.subscribe, lead.get);
  const index = shownIndex(items, focus, leadKey);
  // The items moving on would focus: the card keeps them rendered (hidden), so each paints at once.
  // And the ones after those, whose images it fetches: it renders them next.
  const [ahead, further] = useMemo(() => {
    const next = itemsAhead(items, states, index, 2 * AHEAD);
    return [next.slice(0, AHEAD), next.slice(AHEAD)];
  }, [items, states, index]);
  const item = items[index];
  if (!item) return null;
  return <ItemDetail {...detail} item={item} ahead={ahead} further={further} state={states[index]!} entry={byItem.get(item.id)} />;
});
