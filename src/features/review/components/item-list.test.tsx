import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DisplayState, ReviewItem } from '../model';
import { ItemList } from './item-list';

const item = (n: number, priceMicros: number | null = null): ReviewItem => ({
  key: `simulated:it_${n}`,
  id: `it_${n}`,
  kind: 'simulated',
  subscriptionId: 'sub_1',
  title: `Item it_${n}`,
  serverState: 'new',
  priceMicros,
  summary: `vertical ${n}`,
  meta: () => [],
});

// jsdom lays nothing out: give the scrolling list a size so the virtualizer renders the rows in view.
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(560);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(400);
});
afterEach(() => vi.restoreAllMocks());

function renderList({
  items,
  states,
  focusIndex = 0,
  selected = new Set<string>(),
}: {
  items: ReviewItem[];
  states?: DisplayState[];
  focusIndex?: number;
  selected?: Set<string>;
}) {
  const onPick = vi.fn();
  render(
    <ItemList items={items} states={states ?? items.map(() => 'new')} focusIndex={focusIndex} selected={selected} onPick={onPick} label="Items of sub_1" />,
  );
  return { onPick, user: userEvent.setup(), listbox: screen.getByRole('listbox', { name: 'Items of sub_1' }) };
}

describe('ItemList', () => {
  it('brings a focused row that left the view along by a stretch: it lands a third of the way down, the rows ahead below it', async () => {
    const scrollTo = vi.fn();
    // jsdom scrolls nothing: the list's request is what is checked.
    Object.defineProperty(HTMLElement.prototype, 'scrollTo', { configurable: true, value: scrollTo });
    const items = Array.from({ length: 40 }, (_, i) => item(i + 1));
    const onPick = vi.fn();
    const list = (focusIndex: number) => (
      <ItemList items={items} states={items.map(() => 'new')} focusIndex={focusIndex} selected={new Set()} onPick={onPick} label="Items of sub_1" />
    );
    const { rerender } = render(list(0));
    // (The virtualizer writes its initial offset, 0, to the list once it knows its size.)
    scrollTo.mockClear();
    // The view is 560 px: ten rows of 56. The eleventh row (560-616 px) is past its bottom.
    rerender(list(9));
    rerender(list(10));
    await vi.waitFor(() => expect(scrollTo).toHaveBeenCalled());
    expect(scrollTo).toHaveBeenCalledTimes(1);
    expect(scrollTo).toHaveBeenCalledWith({ top: 560 - Math.round(560 / 3) });
  });

  it('renders the rows of its own scroll inside the scroll event, so the frame that shows the scroll shows them too', () => {
    // jsdom scrolls nothing: the list's element keeps the offset it was asked for.
    let top = 0;
    vi.spyOn(HTMLElement.prototype, 'scrollTop', 'get').mockImplementation(() => top);
    Object.defineProperty(HTMLElement.prototype, 'scrollTo', {
      configurable: true,
      value: (options: { top: number }) => {
        top = options.top;
      },
    });
    const items = Array.from({ length: 60 }, (_, i) => item(i + 1));
    const list = (focusIndex: number) => (
      <ItemList items={items} states={items.map(() => 'new')} focusIndex={focusIndex} selected={new Set()} onPick={vi.fn()} label="Items of sub_1" />
    );
    const { rerender } = render(list(0));
    rerender(list(9));
    // The eleventh row is past the view's bottom: the render that focuses it scrolls, in its commit.
    rerender(list(10));
    expect(top).toBe(560 - Math.round(560 / 3));
    // Rows 1-10 in view and 8 more below; at 373 px, rows 7-17 and 8 more each way.
    expect(screen.queryByRole('option', { name: 'Item it_25, new' })).toBeNull();
    // The browser tells the scroll at the start of the next frame. Outside act, as in a browser:
    // React's own scheduling would render the rows after this frame, in one more.
    const scroller = screen.getByRole('listbox', { name: 'Items of sub_1' }).parentElement!.parentElement!;
    const actEnvironment = (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT;
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
    try {
      scroller.dispatchEvent(new Event('scroll'));
      expect(screen.getByRole('option', { name: 'Item it_25, new' })).toBeInTheDocument();
    } finally {
      (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = actEnvironment;
    }
  });

  it('is a multi-select listbox whose options say the title, the state, the price and whether selected', () => {
    const items = [item(1, 12_500), item(2), item(3, 1_500_000)];
    const { listbox } = renderList({ items, states: ['new', 'waiting', 'adopted'], selected: new Set([items[2]!.key]) });
    expect(listbox).toHaveAttribute('aria-multiselectable', 'true');
    const options = within(listbox).getAllByRole('option');
    expect(options.map((o) => o.getAttribute('aria-label'))).toEqual([
      'Item it_1, new, $0.0125',
      'Item it_2, waiting to send',
      'Item it_3, adopted, $1.50, selected',
    ]);
    expect(within(listbox).getByRole('option', { name: /^Item it_3/ })).toHaveAttribute('aria-selected', 'true');
    expect(within(listbox).getByRole('option', { name: /^Item it_1/ })).toHaveAttribute('aria-selected', 'false');
  });

  it('points the active descendant at the focused item', () => {
    const items = [item(1), item(2), item(3)];
    const { listbox } = renderList({ items, focusIndex: 1 });
    const active = document.getElementById(listbox.getAttribute('aria-activedescendant') ?? '');
    expect(active).toBe(screen.getByRole('option', { name: 'Item it_2, new' }));
  });

  it('focuses on a click, extends a range on Shift-click, toggles on Ctrl- or Cmd-click', async () => {
    const items = [item(1), item(2), item(3), item(4)];
    const { onPick, user } = renderList({ items });
    await user.click(screen.getByRole('option', { name: 'Item it_3, new' }));
    expect(onPick).toHaveBeenLastCalledWith(2, 'focus');
    await user.keyboard('{Shift>}');
    await user.click(screen.getByRole('option', { name: 'Item it_4, new' }));
    await user.keyboard('{/Shift}');
    expect(onPick).toHaveBeenLastCalledWith(3, 'range');
    await user.keyboard('{Control>}');
    await user.click(screen.getByRole('option', { name: 'Item it_2, new' }));
    await user.keyboard('{/Control}');
    expect(onPick).toHaveBeenLastCalledWith(1, 'toggle');
    await user.keyboard('{Meta>}');
    await user.click(screen.getByRole('option', { name: 'Item it_1, new' }));
    await user.keyboard('{/Meta}');
    expect(onPick).toHaveBeenLastCalledWith(0, 'toggle');
    expect(onPick).toHaveBeenCalledTimes(4);
  });

  it('has a named selection box per row: a click toggles that item, Shift-click extends the range', async () => {
    const items = [item(1), item(2), item(3)];
    const { onPick, user } = renderList({ items, selected: new Set([items[0]!.key]) });
    expect(screen.getByRole('checkbox', { name: 'Select Item it_1' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select Item it_2' })).not.toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Select Item it_2' }));
    expect(onPick).toHaveBeenLastCalledWith(1, 'toggle');
    await user.keyboard('{Shift>}');
    await user.click(screen.getByRole('checkbox', { name: 'Select Item it_3' }));
    await user.keyboard('{/Shift}');
    expect(onPick).toHaveBeenLastCalledWith(2, 'range');
    expect(onPick).toHaveBeenCalledTimes(2);
  });

  it('keeps only the rows in view in the DOM, however many items there are', () => {
    const items = Array.from({ length: 5_000 }, (_, i) => item(i));
    const { listbox } = renderList({ items });
    const shown = within(listbox).getAllByRole('option');
    // 560 px of 56 px rows is 10 rows, plus a few rows of overscan.
    expect(shown.length).toBeGreaterThanOrEqual(10);
    expect(shown.length).toBeLessThanOrEqual(20);
    expect(shown[0]).toHaveAccessibleName('Item it_0, new');
    expect(screen.queryByRole('option', { name: 'Item it_4999, new' })).not.toBeInTheDocument();
  });

  it('shows a cut of a megabytes-long title and summary in the row, its name and its box', () => {
    const huge = 'G'.repeat(5_000_000);
    const { listbox } = renderList({ items: [{ ...item(1), title: `Item ${huge}`, summary: `Task 1 · grade ${huge} (0.5)` }] });
    const row = within(listbox).getByRole('option');
    expect(row.textContent!.length).toBeLessThan(1_000);
    expect(row.getAttribute('aria-label')!.length).toBeLessThan(300);
    expect(screen.getByRole('checkbox').getAttribute('aria-label')!.length).toBeLessThan(300);
    expect(row).toHaveTextContent(/^Item GGGG.*…Task 1 · grade GGGG.*…new$/);
  });

  /** A ResizeObserver that answers when the test says (the browser's answers after the frame's layout). */
  function unansweredResizeObservers() {
    const observers: (() => void)[] = [];
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(private readonly callback: () => void) {}
        observe() {
          observers.push(this.callback);
        }
        disconnect() {}
      },
    );
    return observers;
  }

  it('first shows the rows the room it was given holds (the window, a narrow screen’s list at least), the rest once it knows its size', () => {
    unansweredResizeObservers();
    try {
      const items = Array.from({ length: 200 }, (_, i) => item(i));
      const rows = (room: number | undefined) => {
        const { unmount } = render(
          <ItemList items={items} states={items.map(() => 'new')} focusIndex={0} selected={new Set()} onPick={vi.fn()} label="Items of sub_1" room={room} />,
        );
        const count = screen.getAllByRole('option').length;
        expect(screen.getAllByRole('checkbox')).toHaveLength(count);
        unmount();
        return count;
      };
      // 600 px from where the list starts to the window's bottom (jsdom's window is 768 px): 11 rows of 56 px, the 11th in part.
      expect(rows(600)).toBe(11);
      // Never more than the window holds, nor fewer than 45% of it (a narrow screen's list, scrolled meanwhile).
      expect(rows(5_000)).toBe(Math.ceil(window.innerHeight / 56));
      expect(rows(100)).toBe(Math.ceil((window.innerHeight * 0.45) / 56));
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('first shows the rows a window’s height holds, and the rows kept ready below the view once it knows its size', () => {
    const observers = unansweredResizeObservers();
    try {
      const items = Array.from({ length: 200 }, (_, i) => item(i));
      const { listbox } = renderList({ items });
      // Before: the window's height (jsdom's is 768 px) of 56 px rows, none past it.
      expect(within(listbox).getAllByRole('option')).toHaveLength(Math.ceil(window.innerHeight / 56));
      expect(screen.getAllByRole('checkbox')).toHaveLength(Math.ceil(window.innerHeight / 56));
      // Measured (560 px): the 10 rows in view and 8 ready below them.
      act(() => observers.forEach((tell) => tell()));
      expect(within(listbox).getAllByRole('option')).toHaveLength(10 + 8);
      expect(screen.getAllByRole('checkbox')).toHaveLength(10 + 8);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
