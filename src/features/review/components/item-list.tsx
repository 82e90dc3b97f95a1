import { elementScroll, observeElementOffset, useVirtualizer, type Rect, type Virtualizer } from '@tanstack/react-virtual';
import { memo, useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { cx } from '../../../lib/cx';
import { formatMicros } from '../../../lib/money';
import type { PickMode } from '../focus-selection';
import { itemSummary, STATE_LABELS, type DisplayState, type ReviewItem } from '../model';
import { useNames } from '../../../data';
import { cut } from '../../../components/ui/long-text';
import { GradeBadge } from '../../../components/payload';

/** A row shows less than the item's header: one line each, whatever the server sent. */
const ROW_CHARACTERS = 200;

const ROW_HEIGHT = 56;

const pickModeOf = (event: { shiftKey: boolean; ctrlKey: boolean; metaKey: boolean }): PickMode =>
  event.shiftKey ? 'range' : event.ctrlKey || event.metaKey ? 'toggle' : 'focus';

const STATE_STYLES: Record<DisplayState, string> = {
  new: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
  adopted: 'bg-green-100 text-green-800 dark:bg-green-900/60 dark:text-green-100',
  disputed: 'bg-red-100 text-red-800 dark:bg-red-900/60 dark:text-red-100',
  waiting: 'bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-100',
  held: 'bg-orange-200 text-orange-950 dark:bg-orange-900/70 dark:text-orange-50',
  'held-team': 'bg-orange-200 text-orange-950 dark:bg-orange-900/70 dark:text-orange-50',
  accepted: 'bg-sky-100 text-sky-900 dark:bg-sky-900/60 dark:text-sky-100',
  failed: 'bg-red-600 text-white',
};

const optionId = (item: ReviewItem) => `review-option-${item.kind}-${item.id}`;

interface RowProps {
  item: ReviewItem;
  index: number;
  state: DisplayState;
  /** A teammate decided it (through the team hub): who. */
  by: string | undefined;
  focused: boolean;
  selected: boolean;
  start: number;
  onPick: (index: number, mode: PickMode) => void;
}

const Row = memo(function Row({ item, index, state, by, focused, selected, start, onPick }: RowProps) {
  const price = item.priceMicros !== null ? `, ${formatMicros(item.priceMicros)}` : '';
  const title = cut(item.title, ROW_CHARACTERS);
  // Names from context (read once by the shell): the task's or vertical's name, not its ID.
  const names = useNames();
  const label = by ? `${STATE_LABELS[state]} by ${by}` : STATE_LABELS[state];
  return (
    <div
      id={optionId(item)}
      role="option"
      aria-selected={selected}
      aria-label={`${title}, ${label}${price}${selected ? ', selected' : ''}`}
      data-state={state}
      onClick={(event) => {
        const mode = pickModeOf(event);
        // Shift-click would also select the page's text.
        if (mode === 'range') window.getSelection()?.removeAllRanges();
        onPick(index, mode);
      }}
      className={cx(
        'absolute left-0 top-0 flex w-full cursor-pointer items-center gap-2 border-b border-slate-100 px-3 text-sm dark:border-slate-800',
        focused ? 'bg-brand-50 ring-2 ring-inset ring-brand-500 dark:bg-brand-700/30' : 'hover:bg-slate-50 dark:hover:bg-slate-800/60',
      )}
      style={{ height: ROW_HEIGHT, transform: `translateY(${start}px)` }}
    >
      {/* Room for the row's selection box, laid over it from outside the listbox (an option holds no controls). */}
      <span aria-hidden="true" className="w-4 shrink-0" />
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="truncate font-medium">{title}</span>
        <span
          className="truncate text-xs text-slate-600 dark:text-slate-400"
          title={item.taskId ? `Task ${item.taskId}` : item.verticalId ? `Vertical ${item.verticalId}` : undefined}
        >
          {cut(itemSummary(item, names), ROW_CHARACTERS)}
        </span>
      </span>
      {item.grade ? <GradeBadge grade={item.grade} /> : null}
      {item.priceMicros !== null && <span className="font-mono text-xs tabular-nums">{formatMicros(item.priceMicros)}</span>}
      <span className={cx('max-w-40 truncate rounded px-1.5 py-0.5 text-xs font-medium', STATE_STYLES[state])}>{label}</span>
    </div>
  );
});

const ignore = () => undefined;

/**
 * The height a list given `room` assumes until it is measured: never more than the window, and
 * never less than a narrow screen's list (45vh tall, below the item), so a page scrolled meanwhile
 * shows no gap where rows would be.
 */
const initialHeight = (room: number | undefined) => Math.min(window.innerHeight, Math.max(room ?? Infinity, window.innerHeight * 0.45));

/**
 * The list's size as a ResizeObserver tells it, after the frame's layout. The virtualizer's own
 * observer also asks the element at once (clientHeight), which forced a whole layout of the page
 * in the middle of the commit that first shows a pull's items, and then a second render and layout
 * of the rows (bench:ui). Until the first answer the list assumes the room it was given, or the
 * window's height (`initialRect`): a few rows too many for one frame, never a gap.
 */
function observeRectAfterLayout(measured: { current: boolean }, onMeasured: () => void) {
  return (instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: Rect) => void) => {
    const element = instance.scrollElement;
    if (!element) return;
    const tell = () => {
      if (!measured.current) onMeasured();
      measured.current = true;
      cb({ width: element.clientWidth, height: element.clientHeight });
    };
    // Without a ResizeObserver (jsdom), asked once, as the virtualizer would.
    if (typeof ResizeObserver === 'undefined') return void tell();
    const observer = new ResizeObserver(tell);
    observer.observe(element, { box: 'content-box' });
    return () => observer.disconnect();
  };
}

/** A row's selection box. Memoised as rows are: a keypress re-renders the rows it changed, not every box in view. */
const RowBox = memo(function RowBox({ item, index, checked, start, onPick }: Omit<RowProps, 'state' | 'by' | 'focused' | 'selected'> & { checked: boolean }) {
  return (
    <input
      type="checkbox"
      tabIndex={-1}
      aria-label={`Select ${cut(item.title, ROW_CHARACTERS)}`}
      checked={checked}
      onClick={(event) => onPick(index, event.shiftKey ? 'range' : 'toggle')}
      onChange={ignore}
      className="absolute left-3 size-4 accent-brand-600"
      style={{ top: start + (ROW_HEIGHT - 16) / 2 }}
    />
  );
});

/**
 * The page's items as a virtualized listbox: only the rows in view (plus a few) are in the
 * DOM, so thousands of items stay fast. The focused row is the active descendant.
 */
export function ItemList({
  items,
  states,
  decidedBy,
  focusIndex,
  selected,
  onPick,
  label,
  className,
  room,
}: {
  items: readonly ReviewItem[];
  states: readonly DisplayState[];
  /** Per item: the teammate who decided it through the team hub, if one did. */
  decidedBy?: readonly (string | undefined)[];
  focusIndex: number;
  selected: ReadonlySet<string>;
  onPick: (index: number, mode: PickMode) => void;
  label: string;
  className?: string;
  /**
   * How far down the window the list can reach when it first shows: from where it starts to the
   * window's bottom (px), measured before it was rendered. Rows past it are out of view.
   */
  room?: number;
}) {
  const parentRef = useRef<HTMLDivElement>(null);
  const measured = useRef(false);
  // Until the list knows its size it assumes the room it was given (else the window's height),
  // more than it shows: rows past that are out of view whatever the list's size, so the rows kept
  // ready below the view (for the keys that move on) join once it is measured, after the frame
  // that first shows the list. They were a third of what that frame added to the page after a pull
  // (bench:ui); the window's height alone, where the list starts a sixth of the way down, rendered
  // 18 rows where 13 fit, and each row is a part of that frame's style, layout and paint.
  const [sized, setSized] = useState(false);
  const [initialRect] = useState(() => ({ width: 0, height: initialHeight(room) }));
  const [observeElementRect] = useState(() => observeRectAfterLayout(measured, () => setSized(true)));
  // At mount the virtualizer writes its initial offset (0) to the element: a list just shown is at
  // its top already, and the write (scrollTo) forced the same layout as asking its size.
  const [scrollToFn] = useState(
    () =>
      (...[offset, options, instance]: Parameters<typeof elementScroll<HTMLDivElement>>) =>
        measured.current || offset !== 0 || options.adjustments ? elementScroll(offset, options, instance) : undefined,
  );
  // The list's own scroll (bringing the focused row along, below) is told to the virtualizer with
  // its rows rendered at once, inside the scroll event: that event comes at the start of the next
  // frame, which then lays out the new rows too. Rendered with React's own scheduling, they took a
  // frame of their own after it, and a keypress coming then waited for the vsync behind it.
  const ownScroll = useRef(false);
  const [observeOffset] = useState(
    () =>
      (...[instance, cb]: Parameters<typeof observeElementOffset<HTMLDivElement>>) =>
        observeElementOffset(instance, (offset, isScrolling) => {
          if (!ownScroll.current) return cb(offset, isScrolling);
          ownScroll.current = false;
          flushSync(() => cb(offset, isScrolling));
        }),
  );
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => parentRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: sized ? 8 : 0,
    observeElementRect,
    scrollToFn,
    observeElementOffset: observeOffset,
    initialRect,
    // A scroll re-renders the list with React's own scheduling: flushSync rendered it inside each
    // scroll event (the list scrolls a row per keypress at its bottom), in the way of the next keypress.
    useFlushSync: false,
  });
  // Keeps the focused row in view. It reads the virtualizer's cached scroll position and size
  // rather than the element's (scrollToIndex asks the element). The review moves this focus after a
  // keypress's frame has painted (the card leads): the scroll is set in that render's commit, so
  // the frame after it shows the scroll and its rows (see `ownScroll`), and none follows for them.
  // (Scrolled from a requestAnimationFrame, the rows came two frames after the render.)
  useLayoutEffect(() => {
    const element = parentRef.current;
    if (focusIndex < 0 || focusIndex >= items.length || !element) return;
    const top = virtualizer.scrollOffset;
    const height = measured.current ? virtualizer.scrollRect?.height : undefined;
    // A list just shown starts at its top, where the first row is in view.
    if (!measured.current && focusIndex === 0 && !top) return;
    if (top === null || !height) {
      virtualizer.scrollToIndex(focusIndex, { align: 'auto' });
      return;
    }
    // Rows have one fixed height, so a row's place is its index times that height. A row that left
    // the view brings it along by a stretch, not by one row: moving down, the focused row lands a
    // third of the way down, with the rows ahead below it (and up, two thirds down). So the list
    // scrolls (and renders its rows anew, in a frame of its own) once in several keypresses, not at each.
    const start = focusIndex * ROW_HEIGHT;
    const end = start + ROW_HEIGHT;
    const target = start < top ? Math.max(0, end - Math.round((height * 2) / 3)) : end > top + height ? Math.max(0, start - Math.round(height / 3)) : null;
    if (target === null || target === element.scrollTop) return;
    ownScroll.current = true;
    element.scrollTo({ top: target });
  }, [focusIndex, items.length, virtualizer]);
  const focused = items[focusIndex];
  const rows = virtualizer.getVirtualItems();
  return (
    <div
      ref={parentRef}
      className={cx('overflow-auto rounded-lg border border-slate-200 bg-white [contain:strict] dark:border-slate-700 dark:bg-slate-900', className)}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        <div
          role="listbox"
          aria-label={label}
          aria-multiselectable="true"
          aria-activedescendant={focused ? optionId(focused) : undefined}
          tabIndex={0}
          className="absolute inset-0 rounded-lg"
        >
          {rows.map((row) => {
            const item = items[row.index]!;
            return (
              <Row
                key={item.key}
                item={item}
                index={row.index}
                state={states[row.index]!}
                by={decidedBy?.[row.index]}
                focused={row.index === focusIndex}
                selected={selected.has(item.key)}
                start={row.start}
                onPick={onPick}
              />
            );
          })}
        </div>
        {/* Selecting by mouse: one click on a row's box (Shift-click extends the range); X does it by keyboard. */}
        {rows.map((row) => {
          const item = items[row.index]!;
          return <RowBox key={item.key} item={item} index={row.index} checked={selected.has(item.key)} start={row.start} onPick={onPick} />;
        })}
      </div>
    </div>
  );
}
