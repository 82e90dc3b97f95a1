import type { DisplayState } from './model';

/**
 * Where the reviewer is in the list and what they have selected. A pure reducer, so that its rules
 * (moves, the jumps after a decision and after a pull, a new page, picks, items that go away) are
 * tested without rendering; the review workspace dispatches to it.
 */
export interface FocusSelection<T extends Keyed = Keyed> {
  /** Which page the focus belongs to: a new page starts over. */
  page: string;
  /** The list the focus points into (the one last synced). */
  items: readonly T[];
  /** The focused item's index: always within `items`, 0 when there are none. */
  focus: number;
  /** Keys of the selected items, always items of `items`. */
  selected: ReadonlySet<string>;
  /**
   * The card's lead (focus-lead.ts) a pull's jump started from, one object per jump: the workspace
   * drops that lead, or its follow after the paint would take the focus back to the decided item.
   */
  tookLead?: { key: string };
  /**
   * Whether the focus has been placed on this page: by the reviewer (a move, a click, a decision),
   * or on the first undecided item once every item's state was known ('place'). Until then, a
   * page's focus waits on its first item.
   */
  placed: boolean;
}

export interface Keyed {
  key: string;
}

/** How a click picks: a plain click focuses, Shift extends a range from the focused item, Ctrl/Cmd toggles one. */
export type PickMode = 'focus' | 'range' | 'toggle';

export type FocusAction<T extends Keyed = Keyed> =
  /**
   * The list as it is now, with each item's state. `grows`: the list is one that grows in place
   * (items kept on this device), where a pull appends rather than replaces. `decidedAhead`: an item
   * this tab decided that `states` does not show yet (they follow the outbox a frame late, or more
   * on a busy page). `seen`: the key of the item the card shows when a keypress moved it ahead of
   * the focus (focus-lead.ts), where a pull's jump starts from.
   */
  | {
      type: 'list';
      page: string;
      items: readonly T[];
      states: readonly DisplayState[];
      grows: boolean;
      decidedAhead?: (item: T) => boolean;
      seen?: string | null;
    }
  /**
   * Every item's state is known now (this device's unsent decisions read): a page the reviewer has
   * not moved in yet starts at its first undecided item. The store's ordering puts undecided items
   * first, but only as a hint (its flags are written after the paint, and a reload can come first):
   * after a reload the first item listed was one held by budget, and every A on it went nowhere.
   */
  | { type: 'place'; states: readonly DisplayState[] }
  | { type: 'move'; to: 'next' | 'previous' | 'first' | 'last' }
  | { type: 'focus'; index: number }
  /** X: the focused item in or out of the selection. */
  | { type: 'toggle' }
  | { type: 'pick'; index: number; mode: PickMode }
  | { type: 'clear' };

const NOTHING: ReadonlySet<string> = new Set();

export function initialFocusSelection<T extends Keyed>(page: string, items: readonly T[]): FocusSelection<T> {
  return { page, items, focus: 0, selected: NOTHING, placed: false };
}

/**
 * The index of the first undecided item after `from`; when none is left, the one just after
 * `from` (or `from` itself at the end), so a decision always moves on if it can. `decidedAhead`
 * names the items this tab decided whose entries have not reached `states` yet (keys pressed
 * faster than the workspace renders): they are decided too.
 */
export function nextUndecided(states: readonly DisplayState[], from: number, decidedAhead?: (index: number) => boolean): number {
  for (let i = from + 1; i < states.length; i++) if (states[i] === 'new' && decidedAhead?.(i) !== true) return i;
  return Math.max(0, Math.min(from + 1, states.length - 1));
}

/** How many items ahead of the focused one the review keeps rendered (hidden). */
export const AHEAD = 3;

/** The items moving on from `from` would focus, in order (as many as `AHEAD`): each next undecided one. */
export function itemsAhead<T>(items: readonly T[], states: readonly DisplayState[], from: number, count = AHEAD): T[] {
  const ahead: T[] = [];
  for (let at = from; ahead.length < count;) {
    const next = nextUndecided(states, at);
    if (next <= at || next >= items.length) break;
    ahead.push(items[next]!);
    at = next;
  }
  return ahead;
}

export function focusSelectionReducer<T extends Keyed>(state: FocusSelection<T>, action: FocusAction<T>): FocusSelection<T> {
  const { items, focus } = state;
  const last = Math.max(items.length - 1, 0);
  switch (action.type) {
    case 'list':
      return synced(state, action);
    case 'place': {
      if (state.placed) return state;
      const first = action.states.indexOf('new');
      return { ...state, focus: first >= 0 && first < items.length ? first : focus, placed: true };
    }
    case 'move': {
      const to = action.to === 'next' ? Math.min(focus + 1, last) : action.to === 'previous' ? Math.max(focus - 1, 0) : action.to === 'first' ? 0 : last;
      return withFocus(state, to);
    }
    case 'focus':
      return action.index >= 0 && action.index < items.length ? withFocus(state, action.index) : state;
    case 'toggle': {
      const item = items[focus];
      return item ? { ...state, selected: toggled(state.selected, item.key), placed: true } : state;
    }
    case 'pick': {
      const item = items[action.index];
      if (!item) return state;
      let selected = state.selected;
      if (action.mode === 'toggle') selected = toggled(selected, item.key);
      else if (action.mode === 'range') {
        // From the focused item to the one clicked, whichever comes first, added to what is selected.
        const [from, to] = action.index < focus ? [action.index, focus] : [focus, action.index];
        const range = new Set(selected);
        for (let i = from; i <= to; i++) range.add(items[i]!.key);
        selected = range;
      }
      return selected === state.selected && action.index === focus && state.placed ? state : { ...state, focus: action.index, selected, placed: true };
    }
    case 'clear':
      return state.selected.size === 0 ? state : { ...state, selected: NOTHING };
  }
}

/** The same state when nothing changes, so React skips the render (j on the last item, say). */
function withFocus<T extends Keyed>(state: FocusSelection<T>, focus: number): FocusSelection<T> {
  return focus === state.focus && state.placed ? state : { ...state, focus, placed: true };
}

function toggled(selected: ReadonlySet<string>, key: string): ReadonlySet<string> {
  const next = new Set(selected);
  if (next.has(key)) next.delete(key);
  else next.add(key);
  return next;
}

function synced<T extends Keyed>(
  state: FocusSelection<T>,
  { page, items, states, grows, decidedAhead, seen }: Extract<FocusAction<T>, { type: 'list' }>,
): FocusSelection<T> {
  // A new page starts at its first item with nothing selected.
  if (page !== state.page) return initialFocusSelection(page, items);
  if (items === state.items) return state;
  const before = state.items;
  // Most changes append (a pull, another tab's pull): everything listed stays where it was.
  const appended = items.length >= before.length && before.every((item, i) => items[i] === item);
  let focus = state.focus;
  let selected = state.selected;
  if (!appended) {
    // Items went away or moved (their local data was deleted, the list was read again): the focus
    // stays on its item wherever it is now, else on the item that took its place; what is gone
    // is no longer selected.
    const key = before[focus]?.key;
    const at = key === undefined ? -1 : items[focus]?.key === key ? focus : items.findIndex((item) => item.key === key);
    focus = at >= 0 ? at : Math.min(focus, Math.max(items.length - 1, 0));
    if (selected.size > 0) {
      const keys = new Set(items.map((item) => item.key));
      const kept = [...selected].filter((k) => keys.has(k));
      if (kept.length < selected.size) selected = kept.length === 0 ? NOTHING : new Set(kept);
    }
  }
  // When a pull adds items while the focused one is decided (the user finished what they had and
  // pressed N), focus moves on to the first undecided new item; an undecided one keeps the focus.
  // The last decision may not have reached `states` when the pull's answer arrives (A then N at
  // once, on a busy page): left on that item, every A after the pull said "already adopted".
  // The jump starts from the item the reviewer sees: the card's lead when keys moved it ahead of
  // the focus within the frame (J, A on the last item, then the pull's answer before the paint).
  let tookLead: { key: string } | undefined;
  if (grows && items.length > before.length && before.length > 0) {
    const seenAt = seen == null ? -1 : items.findIndex((item) => item.key === seen);
    const from = seenAt >= 0 ? seenAt : focus;
    const shown = items[from];
    const decided = states[from] !== 'new' || (shown !== undefined && decidedAhead?.(shown) === true);
    const ahead = decidedAhead && ((i: number) => items[i] !== undefined && decidedAhead(items[i]));
    if (decided) {
      focus = Math.min(nextUndecided(states, from, ahead), items.length - 1);
      if (seenAt >= 0) tookLead = { key: seen! };
    }
  }
  // A list emptied (its items deleted) starts over, like a new page, when items come again.
  const placed = items.length > 0 && state.placed;
  return tookLead ? { page, items, focus, selected, placed, tookLead } : { page, items, focus, selected, placed };
}
