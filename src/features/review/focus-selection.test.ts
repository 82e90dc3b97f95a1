import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  focusSelectionReducer as reduce,
  initialFocusSelection,
  itemsAhead,
  nextUndecided,
  type FocusAction,
  type FocusSelection,
  type Keyed,
} from './focus-selection';
import type { DisplayState } from './model';

const item = (n: number): Keyed => ({ key: `k${n}` });
const list = (...ns: number[]) => ns.map(item);
const keys = (state: FocusSelection) => [...state.selected].sort();
const allNew = (n: number): DisplayState[] => Array.from({ length: n }, () => 'new');

/** A state on page `p1` over `items`, focused at `focus` (placed there), with `selected` keys. */
function at(items: readonly Keyed[], focus = 0, selected: string[] = []): FocusSelection {
  return { ...initialFocusSelection('p1', items), focus, selected: new Set(selected), placed: true };
}

function run(state: FocusSelection, ...actions: FocusAction[]) {
  return actions.reduce(reduce, state);
}

const sync = (
  items: readonly Keyed[],
  states: readonly DisplayState[] = allNew(items.length),
  page = 'p1',
  grows = true,
): Extract<FocusAction, { type: 'list' }> => ({
  type: 'list',
  page,
  items,
  states,
  grows,
});

describe('itemsAhead', () => {
  it('lists the next undecided items after the focus, as many as asked', () => {
    const states: DisplayState[] = ['new', 'adopted', 'new', 'disputed', 'new', 'new', 'new'];
    expect(itemsAhead(list(0, 1, 2, 3, 4, 5, 6), states, 0, 3)).toEqual(list(2, 4, 5));
  });

  it('stops at the end of the page, and goes on through decided items once none is left undecided', () => {
    expect(itemsAhead(list(0, 1, 2), allNew(3), 1, 3)).toEqual(list(2));
    expect(itemsAhead(list(0, 1, 2, 3), ['new', 'adopted', 'adopted', 'adopted'], 0, 2)).toEqual(list(1, 2));
    expect(itemsAhead(list(0), allNew(1), 0, 3)).toEqual([]);
  });
});

describe('nextUndecided', () => {
  it('finds the first undecided item after the one given, skipping decided and waiting ones', () => {
    expect(nextUndecided(['new', 'new', 'adopted', 'waiting', 'new'], 0)).toBe(1);
    expect(nextUndecided(['new', 'adopted', 'waiting', 'failed', 'new'], 0)).toBe(4);
  });

  it('moves one on when nothing after is undecided, and stays on the last item', () => {
    expect(nextUndecided(['new', 'adopted', 'disputed'], 0)).toBe(1);
    expect(nextUndecided(['new', 'new', 'adopted'], 2)).toBe(2);
  });

  it('does not look back before the item given', () => {
    expect(nextUndecided(['new', 'adopted', 'adopted'], 1)).toBe(2);
  });

  it('is 0 for an empty list', () => {
    expect(nextUndecided([], 0)).toBe(0);
  });

  it('skips items decided here whose decisions have not reached the states yet', () => {
    // A on 2, K, K, A on 0 within one frame: 1 and 2 still read 'new', but 2 is decided.
    const ahead = new Set([2]);
    expect(nextUndecided(['new', 'adopted', 'new', 'new'], 0, (i) => ahead.has(i))).toBe(3);
    expect(nextUndecided(['new', 'adopted', 'new', 'new'], 0)).toBe(2);
  });
});

describe('moving the focus (j/k/Home/End, Undo)', () => {
  const items = list(0, 1, 2, 3);

  it('starts on the first item with nothing selected', () => {
    const state = initialFocusSelection('p1', items);
    expect(state.focus).toBe(0);
    expect(state.selected.size).toBe(0);
  });

  it('j and k move one item, Home and End to either end', () => {
    let state = at(items);
    state = reduce(state, { type: 'move', to: 'next' });
    expect(state.focus).toBe(1);
    state = reduce(state, { type: 'move', to: 'last' });
    expect(state.focus).toBe(3);
    state = reduce(state, { type: 'move', to: 'previous' });
    expect(state.focus).toBe(2);
    state = reduce(state, { type: 'move', to: 'first' });
    expect(state.focus).toBe(0);
  });

  it('stops at either end, returning the same state so nothing re-renders', () => {
    const first = at(items, 0);
    expect(reduce(first, { type: 'move', to: 'previous' })).toBe(first);
    expect(reduce(first, { type: 'move', to: 'first' })).toBe(first);
    const last = at(items, 3);
    expect(reduce(last, { type: 'move', to: 'next' })).toBe(last);
    expect(reduce(last, { type: 'move', to: 'last' })).toBe(last);
  });

  it('stays at 0 on an empty list', () => {
    const empty = at([]);
    for (const to of ['next', 'previous', 'first', 'last'] as const) expect(reduce(empty, { type: 'move', to }).focus).toBe(0);
  });

  it('focuses an index in the list (the item an undo took back), and ignores one outside it', () => {
    const state = at(items, 3);
    expect(reduce(state, { type: 'focus', index: 1 }).focus).toBe(1);
    expect(reduce(state, { type: 'focus', index: 4 })).toBe(state);
    expect(reduce(state, { type: 'focus', index: -1 })).toBe(state);
  });

  it('keeps the selection while moving', () => {
    const state = run(at(items, 0, ['k2']), { type: 'move', to: 'next' }, { type: 'move', to: 'last' });
    expect(keys(state)).toEqual(['k2']);
  });
});

describe('after a decision (nextUndecided: the decision moves the card there)', () => {
  it('moves to the next undecided item, past decided and waiting ones', () => {
    expect(nextUndecided(['new', 'adopted', 'waiting', 'new', 'new'], 0)).toBe(3);
  });

  it('does not go back to undecided items before it', () => {
    expect(nextUndecided(['new', 'new', 'new', 'adopted', 'adopted'], 2)).toBe(3);
  });

  it('moves one on when nothing after it is undecided, and stays on the last item', () => {
    expect(nextUndecided(['new', 'new', 'adopted', 'adopted', 'new'], 4)).toBe(4);
    expect(nextUndecided(['new', 'new', 'adopted', 'adopted', 'disputed'], 1)).toBe(2);
  });

  it('takes the states from before the decision (the decided item itself is not looked at), and skips items decided ahead', () => {
    expect(nextUndecided(allNew(5), 1)).toBe(2);
    expect(nextUndecided(allNew(5), 1, (i) => i === 2)).toBe(3);
  });
});

describe('selecting', () => {
  const items = list(0, 1, 2, 3, 4, 5);

  it('X toggles the focused item', () => {
    let state = at(items, 2);
    state = reduce(state, { type: 'toggle' });
    expect(keys(state)).toEqual(['k2']);
    state = run(state, { type: 'move', to: 'next' }, { type: 'toggle' });
    expect(keys(state)).toEqual(['k2', 'k3']);
    state = run(state, { type: 'move', to: 'previous' }, { type: 'toggle' });
    expect(keys(state)).toEqual(['k3']);
  });

  it('X does nothing on an empty list', () => {
    const empty = at([]);
    expect(reduce(empty, { type: 'toggle' })).toBe(empty);
  });

  it('a plain click focuses the item without touching the selection', () => {
    const state = reduce(at(items, 0, ['k1']), { type: 'pick', index: 4, mode: 'focus' });
    expect(state.focus).toBe(4);
    expect(keys(state)).toEqual(['k1']);
  });

  it('Ctrl/Cmd-click (or the box) toggles the item clicked and focuses it', () => {
    let state = reduce(at(items, 0), { type: 'pick', index: 3, mode: 'toggle' });
    expect(state.focus).toBe(3);
    expect(keys(state)).toEqual(['k3']);
    state = reduce(state, { type: 'pick', index: 3, mode: 'toggle' });
    expect(keys(state)).toEqual([]);
  });

  it('Shift-click adds the range from the focused item to the one clicked, either way, to the selection', () => {
    let state = reduce(at(items, 1, ['k5']), { type: 'pick', index: 3, mode: 'range' });
    expect(keys(state)).toEqual(['k1', 'k2', 'k3', 'k5']);
    expect(state.focus).toBe(3);
    state = reduce(at(items, 4), { type: 'pick', index: 2, mode: 'range' });
    expect(keys(state)).toEqual(['k2', 'k3', 'k4']);
    expect(state.focus).toBe(2);
  });

  it('Shift-click on the focused item selects it alone; a range never unselects', () => {
    expect(keys(reduce(at(items, 2), { type: 'pick', index: 2, mode: 'range' }))).toEqual(['k2']);
    expect(keys(reduce(at(items, 0, ['k1']), { type: 'pick', index: 2, mode: 'range' }))).toEqual(['k0', 'k1', 'k2']);
  });

  it('a click outside the list does nothing', () => {
    const state = at(items, 1);
    expect(reduce(state, { type: 'pick', index: 6, mode: 'toggle' })).toBe(state);
  });

  it('a plain click on the focused item changes nothing', () => {
    const state = at(items, 1, ['k0']);
    expect(reduce(state, { type: 'pick', index: 1, mode: 'focus' })).toBe(state);
  });

  it('clearing (after a bulk decision) empties the selection and keeps the focus', () => {
    const state = reduce(at(items, 4, ['k1', 'k2']), { type: 'clear' });
    expect(keys(state)).toEqual([]);
    expect(state.focus).toBe(4);
    expect(reduce(state, { type: 'clear' })).toBe(state);
  });
});

describe('a new page', () => {
  it('starts at its first item with nothing selected', () => {
    const state = reduce(at(list(0, 1, 2), 2, ['k0', 'k1']), sync(list(3, 4, 5), allNew(3), 'p2', false));
    expect(state).toMatchObject({ page: 'p2', focus: 0 });
    expect(state.items.map((i) => i.key)).toEqual(['k3', 'k4', 'k5']);
    expect(keys(state)).toEqual([]);
  });

  it('starts over even when the new page holds the same items', () => {
    const items = list(0, 1, 2);
    const state = reduce(at(items, 2, ['k0']), sync(items, allNew(3), 'p2'));
    expect(state.focus).toBe(0);
    expect(keys(state)).toEqual([]);
  });

  it('does not jump on to undecided items even when the list is one that grows', () => {
    const state = reduce(at(list(0, 1), 1), sync(list(0, 1, 2, 3), ['adopted', 'adopted', 'new', 'new'], 'p2'));
    expect(state.focus).toBe(0);
  });

  it('is the same state when neither the page nor the list changed', () => {
    const items = list(0, 1);
    const state = at(items, 1, ['k0']);
    expect(reduce(state, sync(items))).toBe(state);
  });
});

describe('where a page starts', () => {
  const opened = (items: readonly Keyed[], states: readonly DisplayState[], page = 'p1') =>
    run(initialFocusSelection<Keyed>('x', []), sync(items, states, page), { type: 'place', states });

  it('at its first undecided item once every state is known: an item held or decided before a reload is not where A goes', () => {
    expect(opened(list(0, 1, 2, 3), ['held', 'waiting', 'new', 'new']).focus).toBe(2);
    expect(opened(list(0, 1, 2), ['adopted', 'new', 'new'], 'p2').focus).toBe(1);
  });

  it('at its first item when nothing is left undecided', () => {
    expect(opened(list(0, 1), ['adopted', 'held']).focus).toBe(0);
  });

  it('where the reviewer moved, if they moved first: states known later do not take the focus back', () => {
    const states: DisplayState[] = ['held', 'new', 'new', 'new'];
    const moved = run(initialFocusSelection<Keyed>('x', []), sync(list(0, 1, 2, 3), states), { type: 'move', to: 'last' });
    expect(reduce(moved, { type: 'place', states })).toBe(moved);
    const clicked = run(initialFocusSelection<Keyed>('x', []), sync(list(0, 1, 2, 3), states), { type: 'pick', index: 0, mode: 'focus' });
    expect(reduce(clicked, { type: 'place', states }).focus).toBe(0);
  });

  it('once: a later list of the same page keeps the focus where it is', () => {
    const state = opened(list(0, 1, 2), ['adopted', 'new', 'new']);
    expect(reduce(state, { type: 'place', states: ['adopted', 'adopted', 'new'] })).toBe(state);
  });

  it('over again on a new page, and on a list emptied and filled again', () => {
    const first = opened(list(0, 1, 2), ['adopted', 'new', 'new']);
    expect(reduce(first, sync(list(5, 6), ['adopted', 'new'], 'p2')).placed).toBe(false);
    const emptied = run(first, sync([], []), sync(list(7, 8, 9)));
    expect(emptied.placed).toBe(false);
    expect(reduce(emptied, { type: 'place', states: ['adopted', 'adopted', 'new'] }).focus).toBe(2);
  });
});

describe('a list that grows in place (items kept on this device)', () => {
  const first = list(0, 1, 2);
  const grown = list(0, 1, 2, 3, 4);

  it('keeps the focus and the selection when items are appended and the focused item is undecided', () => {
    const state = reduce(at(first, 1, ['k0']), sync(grown, ['adopted', 'new', 'new', 'new', 'new']));
    expect(state.focus).toBe(1);
    expect(keys(state)).toEqual(['k0']);
    expect(state.items).toBe(grown);
  });

  it('after a pull, focus moves from a decided item to the first undecided new one', () => {
    const state = reduce(at(first, 2), sync(grown, ['adopted', 'adopted', 'adopted', 'new', 'new']));
    expect(state.focus).toBe(3);
  });

  it('after a pull, focus moves from an item decided here whose decision has not reached the states yet', () => {
    // A on the last item, then N at once: the pull's answer can render before the outbox's entry.
    const decidedHere = new Set(['k2']);
    const action: FocusAction = { ...sync(grown), decidedAhead: (item) => decidedHere.has(item.key) };
    expect(reduce(at(first, 2), action).focus).toBe(3);
    // Without that knowledge the focus stays on the decided item (the states say it is undecided).
    expect(reduce(at(first, 2), sync(grown)).focus).toBe(2);
  });

  it('the jump skips items decided here before their decisions reached the states', () => {
    // A on 2, K, A on 1, N, all within a frame: 1 and 2 still read 'new'.
    const decidedHere = new Set(['k1', 'k2']);
    const action: FocusAction = { ...sync(grown), decidedAhead: (item) => decidedHere.has(item.key) };
    expect(reduce(at(first, 1), action).focus).toBe(3);
  });

  it('the jump starts from the item the card shows ahead of the focus, and says it took that lead', () => {
    // J then A on the last item (2), and the pull's answer before the paint: the focus is still 1.
    const decidedHere = new Set(['k2']);
    const action: FocusAction = { ...sync(grown), decidedAhead: (item) => decidedHere.has(item.key), seen: 'k2' };
    const state = reduce(at(first, 1), action);
    expect(state.focus).toBe(3);
    expect(state.tookLead).toEqual({ key: 'k2' });
    // A lead on an undecided item is no reason to jump: the workspace follows it after the paint.
    const kept = reduce(at(first, 1), { ...sync(grown), seen: 'k2' });
    expect(kept.focus).toBe(1);
    expect(kept.tookLead).toBeUndefined();
  });

  it('the jump skips items decided meanwhile (in another tab)', () => {
    const state = reduce(at(first, 2), sync(grown, ['adopted', 'adopted', 'waiting', 'adopted', 'new']));
    expect(state.focus).toBe(4);
  });

  it('the jump goes to the first undecided item after the focused one, not before it', () => {
    const state = reduce(at(first, 1), sync(grown, ['new', 'disputed', 'adopted', 'new', 'new']));
    expect(state.focus).toBe(3);
  });

  it('a re-read page (a list that does not grow in place) keeps the focus where it was', () => {
    const state = reduce(at(first, 2), sync(grown, ['adopted', 'adopted', 'adopted', 'new', 'new'], 'p1', false));
    expect(state.focus).toBe(2);
  });

  it('the first items to arrive in an empty list leave the focus on the first one', () => {
    const state = reduce(at([]), sync(grown, ['adopted', 'adopted', 'new', 'new', 'new']));
    expect(state.focus).toBe(0);
  });

  it('a list that changes without growing does not jump', () => {
    const same = list(0, 1, 2);
    const state = reduce(at(first, 1), sync(same, ['adopted', 'adopted', 'new']));
    expect(state.focus).toBe(1);
  });
});

describe('items that go away (their local data deleted, the list read again)', () => {
  it('the focus stays on its item where it is now', () => {
    const state = reduce(at(list(0, 1, 2, 3), 2), sync(list(2, 3, 0)));
    expect(state.focus).toBe(0);
    expect(state.items[state.focus]!.key).toBe('k2');
  });

  it('when the focused item is gone, the focus is on the item that took its place', () => {
    const state = reduce(at(list(0, 1, 2, 3), 1), sync(list(0, 2, 3)));
    expect(state.items[state.focus]!.key).toBe('k2');
  });

  it('when the list is shorter than the focus, the focus is on its last item', () => {
    const state = reduce(at(list(0, 1, 2, 3, 4), 4), sync(list(0, 1)));
    expect(state.focus).toBe(1);
  });

  it('an emptied list has its focus at 0, and the next items start there (not where the focus was)', () => {
    let state = reduce(at(list(0, 1, 2, 3), 3, ['k1']), sync([]));
    expect(state.focus).toBe(0);
    expect(keys(state)).toEqual([]);
    state = reduce(state, sync(list(7, 8, 9, 10, 11)));
    expect(state.focus).toBe(0);
  });

  it('items gone are no longer selected; those still listed stay selected', () => {
    const state = reduce(at(list(0, 1, 2, 3), 0, ['k1', 'k3']), sync(list(0, 3, 4)));
    expect(keys(state)).toEqual(['k3']);
  });

  it('items read again as new objects keep the focus and the selection by key', () => {
    const before = list(0, 1, 2);
    const state = reduce(at(before, 2, ['k0', 'k2']), sync(list(0, 1, 2)));
    expect(state.focus).toBe(2);
    expect(keys(state)).toEqual(['k0', 'k2']);
  });

  it('a list read again with the focused item decided and more items jumps on from where that item is now', () => {
    const state = reduce(at(list(0, 1, 2), 0), sync(list(5, 0, 6, 7), ['new', 'adopted', 'adopted', 'new']));
    expect(state.focus).toBe(3);
  });
});

describe('whatever happens', () => {
  const action = (size: number): fc.Arbitrary<FocusAction> =>
    fc.oneof(
      fc.constantFrom<FocusAction>(
        { type: 'move', to: 'next' },
        { type: 'move', to: 'previous' },
        { type: 'move', to: 'first' },
        { type: 'move', to: 'last' },
        { type: 'toggle' },
        { type: 'clear' },
      ),
      fc.record({ type: fc.constant('focus' as const), index: fc.integer({ min: -2, max: size + 2 }) }),
      fc.record({
        type: fc.constant('pick' as const),
        index: fc.integer({ min: -2, max: size + 2 }),
        mode: fc.constantFrom('focus' as const, 'range' as const, 'toggle' as const),
      }),
      fc.array(fc.constantFrom<DisplayState>('new', 'adopted', 'held'), { maxLength: size + 2 }).map((states): FocusAction => ({ type: 'place', states })),
      fc
        .record({
          keys: fc.uniqueArray(fc.integer({ min: 0, max: size }), { maxLength: size }),
          page: fc.constantFrom('p1', 'p2'),
          grows: fc.boolean(),
          decided: fc.array(fc.boolean(), { minLength: size + 1, maxLength: size + 1 }),
        })
        .map(({ keys, page, grows, decided }): FocusAction => ({
          type: 'list',
          page,
          items: keys.map(item),
          states: keys.map((k) => (decided[k] ? 'adopted' : 'new')),
          grows,
        })),
    );

  it('the focus is within the list and only listed items are selected', () => {
    fc.assert(
      fc.property(fc.array(action(12), { maxLength: 40 }), (actions) => {
        let state = initialFocusSelection<Keyed>('p1', list(0, 1, 2));
        for (const a of actions) {
          state = reduce(state, a);
          expect(state.focus).toBeGreaterThanOrEqual(0);
          expect(state.focus).toBeLessThanOrEqual(Math.max(state.items.length - 1, 0));
          const listed = new Set(state.items.map((i) => i.key));
          for (const key of state.selected) expect(listed.has(key)).toBe(true);
        }
      }),
    );
  });
});
