import { useReducer } from 'react';
import { focusSelectionReducer, initialFocusSelection } from '../focus-selection';
import type { DisplayState, ReviewItem } from '../model';

/**
 * The focus and the selection over the list shown (focus-selection.ts holds the rules). When the
 * list or the page changes, the reducer hears of it within the same render, so the list is never
 * painted with a focus or a selection that belongs to another.
 */
export function useFocusSelection(
  page: string,
  items: readonly ReviewItem[],
  states: readonly DisplayState[],
  grows: boolean,
  decidedAhead: (item: ReviewItem) => boolean,
  seen: () => string | null,
) {
  const [view, dispatch] = useReducer(focusSelectionReducer<ReviewItem>, undefined, () => initialFocusSelection(page, items));
  if (view.items !== items || view.page !== page) dispatch({ type: 'list', page, items, states, grows, decidedAhead, seen: seen() });
  return [view, dispatch] as const;
}
