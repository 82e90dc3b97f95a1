import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createElement, useSyncExternalStore, type ComponentProps } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Connection, ConnectionSubscription } from '../../../data';
import type { NewDecision, OutboxEntry } from '../../../domain/outbox/model';
import type { ReviewItem } from '../model';
import type { ReviewSearch } from '../search';
import { testQueryClient } from '../../../test/query-client';
import { ReviewWorkspace } from './review-workspace';
import type { ReviewSource } from './use-review-source';

/**
 * The workspace wired together: its source of items and the outbox are stand-ins (a list the test
 * sets, decisions kept in memory); the list, the item, the keys and the dialogs are the real ones.
 */
const world = vi.hoisted(() => {
  const listeners = new Set<() => void>();
  const later = new Set<() => void>();
  return {
    source: null as unknown,
    entries: [] as readonly unknown[],
    noEntries: [] as readonly unknown[],
    /** Decisions standing elsewhere (another tab's) that the outbox skips an item for, by item ID. */
    standing: new Map<string, OutboxEntry>(),
    /** Whether the outbox has read this device's stored decisions (after a page load it has not, at first). */
    entriesRead: true,
    /** The props each render gave the list, the item and the pull controls. */
    props: { list: [] as Record<string, unknown>[], detail: [] as Record<string, unknown>[], controls: [] as Record<string, unknown>[] },
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    emit: () => {
      listeners.forEach((listener) => listener());
      setTimeout(() => {
        world.laterEntries = world.entries;
        later.forEach((listener) => listener());
      });
    },
    laterEntries: [] as readonly unknown[],
    /** A render of the 'after-paint' entries from a snapshot taken before the latest change (a transition started before a key). */
    staleLater: (entries: readonly unknown[]) => {
      world.laterEntries = entries;
      later.forEach((listener) => listener());
    },
    subscribeLater: (listener: () => void) => {
      later.add(listener);
      return () => void later.delete(listener);
    },
  };
});

vi.mock('@tanstack/react-router', async (original) => ({
  ...(await original<typeof import('@tanstack/react-router')>()),
  Link: ({ children }: { children: unknown }) => children,
  useNavigate: () => () => Promise.resolve(),
}));
vi.mock('./use-review-source', () => ({ useReviewSource: () => useSyncExternalStore(world.subscribe, () => world.source) }));
vi.mock('../../../data', async (original) => {
  // 'after-paint' follows a task later, as the app's does (after the frame): a keypress's handlers
  // meanwhile see the entries of the last render.
  const useEntries = (_connectionId: string, follow?: string) => {
    const now = useSyncExternalStore(world.subscribe, () => world.entries);
    const later = useSyncExternalStore(world.subscribeLater, () => world.laterEntries);
    return follow === 'after-paint' ? later : now;
  };
  let entryNo = 0;
  // One object, as the app's outbox is: handlers built on it stay the same across renders.
  const outbox = {
    enqueue: (connectionId: string, decision: NewDecision, group?: string) => {
      // A new ID for each entry, as the outbox gives (an undone entry's ID is never given again).
      const entry = { ...decision, id: `e${++entryNo}`, connectionId, group, state: 'grace', createdAt: world.entries.length };
      world.entries = [...world.entries, entry];
      world.emit();
      return entry;
    },
    /** As the outbox's: an item another decision stands on (`world.standing`, another tab's) is skipped, naming it. */
    enqueueMany: (connectionId: string, decisions: readonly NewDecision[], group?: string) => {
      const skipped = decisions.flatMap((decision) => {
        const standing = world.standing.get(decision.itemId);
        return standing ? [{ decision, standing }] : [];
      });
      const recorded = decisions.filter((d) => !world.standing.has(d.itemId)).map((d) => outbox.enqueue(connectionId, d, group));
      return { recorded, skipped };
    },
    undoLatest: () => {
      const last = world.entries.at(-1) as OutboxEntry | undefined;
      if (!last) return [];
      const undone = world.entries.filter((e) => (e as OutboxEntry).id === last.id || (!!last.group && (e as OutboxEntry).group === last.group));
      world.entries = world.entries.filter((e) => !undone.includes(e));
      world.emit();
      return undone;
    },
  };
  return {
    ...(await original<typeof import('../../../data')>()),
    useOutboxEntries: useEntries,
    // One array, as the app's snapshot is: a new one each render would rebuild the workspace's entries every time.
    useOtherTabsEntries: () => world.noEntries,
    useOutboxLoaded: () => useSyncExternalStore(world.subscribeLater, () => world.entriesRead),
    useOutbox: () => outbox,
  };
});
// The real components, with the props of each render recorded.
vi.mock('./item-list', async (original) => {
  const real = await original<typeof import('./item-list')>();
  return { ...real, ItemList: (props: ComponentProps<typeof real.ItemList>) => (world.props.list.push(props), createElement(real.ItemList, props)) };
});
vi.mock('./item-detail', async (original) => {
  const real = await original<typeof import('./item-detail')>();
  return {
    ...real,
    ItemDetail: (props: ComponentProps<typeof real.ItemDetail>) => (world.props.detail.push({ ...props }), createElement(real.ItemDetail, props)),
  };
});
vi.mock('./pull-controls', async (original) => {
  const real = await original<typeof import('./pull-controls')>();
  return {
    ...real,
    PullControls: (props: ComponentProps<typeof real.PullControls>) => (world.props.controls.push({ ...props }), createElement(real.PullControls, props)),
  };
});

const item = (n: number, serverState: ReviewItem['serverState'] = 'new'): ReviewItem => ({
  key: `simulated:it_${n}`,
  id: `it_${n}`,
  kind: 'simulated',
  subscriptionId: 'sub_1',
  title: `Item it_${n}`,
  content: { text: `content ${n}` },
  serverState,
  priceMicros: 10_000 * n,
  summary: `retail ${n}`,
  meta: () => [],
});
const items = (from: number, to: number, serverState: ReviewItem['serverState'] = 'new') =>
  Array.from({ length: to - from + 1 }, (_, i) => item(from + i, serverState));

function setSource(change: Partial<ReviewSource>) {
  const current = world.source as ReviewSource | null;
  world.source = {
    ...(current ?? {
      mode: 'pending',
      items: [],
      scope: 'S',
      stored: { items: [], complete: true, unwritten: 0, error: null },
      pull: vi.fn(),
      pullNext: vi.fn(),
      prefetchNext: vi.fn(),
      hasMore: null,
      nextCursor: null,
      loading: false,
      error: null,
      retry: vi.fn(),
      pageKey: 'stored',
      sizeOk: true,
      losses: [],
      task: null,
      lastTask: null,
      pullAll: vi.fn(),
      recover: vi.fn(),
      lastPull: null,
    }),
    ...change,
  } as ReviewSource;
}
const source = () => world.source as ReviewSource;

const connection = { id: 'c1', baseUrl: 'https://dds.example.com' } as Connection;
const subscription: ConnectionSubscription = { id: 'sub_1', kind: 'simulated' };
const search: ReviewSearch = { mode: 'new', limit: 50, run: true };

function renderWorkspace(list: ReviewItem[], change: Partial<ReviewSource> = {}) {
  setSource({ items: list, ...change });
  render(<ReviewWorkspace connection={connection} subscription={subscription} search={search} />, testQueryClient());
  return userEvent.setup();
}
/** The list changes as a pull (or another tab) changes it. */
const change = (update: Partial<ReviewSource>) =>
  act(() => {
    setSource(update);
    world.emit();
  });

const focusedTitle = () => within(screen.getByRole('region', { name: 'Focused item' })).getByRole('heading').textContent;
const selectedCount = () => screen.getByText(/^\d+ selected$/).textContent;
const decided = () => world.entries.map((e) => `${(e as OutboxEntry).decision} ${(e as OutboxEntry).itemId}`);
const reasons = () => world.entries.map((e) => (e as OutboxEntry).reason);

beforeEach(() => {
  world.source = null;
  world.entries = [];
  world.laterEntries = [];
  world.entriesRead = true;
  world.standing.clear();
  world.props = { list: [], detail: [], controls: [] };
  // jsdom lays nothing out: give the scrolling list a size so the virtualizer renders the rows in view.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(560);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(400);
});
afterEach(() => vi.restoreAllMocks());

/** The review's live region saying `text` (what was done and the hint are parts of their own). */
const said = (text: string) => screen.findByText((_, element) => element?.getAttribute('role') === 'status' && element.textContent === text);

describe('ReviewWorkspace', () => {
  it('moves the focus with j, k, End and Home; a click focuses a row', async () => {
    const user = renderWorkspace(items(1, 5));
    expect(focusedTitle()).toBe('Item it_1');
    await user.keyboard('jj');
    expect(focusedTitle()).toBe('Item it_3');
    await user.keyboard('k');
    expect(focusedTitle()).toBe('Item it_2');
    await user.keyboard('{End}');
    expect(focusedTitle()).toBe('Item it_5');
    await user.keyboard('j');
    expect(focusedTitle()).toBe('Item it_5');
    await user.keyboard('{Home}');
    expect(focusedTitle()).toBe('Item it_1');
    await user.click(screen.getByRole('option', { name: /^Item it_4,/ }));
    expect(focusedTitle()).toBe('Item it_4');
  });

  it('a move renders the card before its paint and the list after it; a click meanwhile wins', async () => {
    const user = renderWorkspace(items(1, 6));
    // The keydown alone, with no timer run after it: the card shows the next item at once, the list
    // has not rendered for it yet (focus-lead.ts).
    act(() => void fireEvent.keyDown(document.body, { key: 'j', code: 'KeyJ' }));
    expect(focusedTitle()).toBe('Item it_2');
    expect(world.props.list.at(-1)).toMatchObject({ focusIndex: 0 });
    await vi.waitFor(() => expect(world.props.list.at(-1)).toMatchObject({ focusIndex: 1 }));
    expect(focusedTitle()).toBe('Item it_2');
    // Two moves, then a click before the workspace followed: the click's item stays focused.
    await user.keyboard('jj');
    await user.click(screen.getByRole('option', { name: /^Item it_6,/ }));
    expect(focusedTitle()).toBe('Item it_6');
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    expect(focusedTitle()).toBe('Item it_6');
    expect(world.props.list.at(-1)).toMatchObject({ focusIndex: 5 });
    // X right after a move selects the item the card shows.
    await user.keyboard('{Home}x');
    expect(screen.getByRole('option', { name: /^Item it_1,/ })).toHaveAttribute('aria-selected', 'true');
  });

  it('a reason picker left by a click is closed, and does not come back with its item to take the keys', async () => {
    const user = renderWorkspace(items(1, 5));
    await user.keyboard('jj');
    await user.keyboard('d');
    expect(screen.getByRole('form', { name: 'Dispute reason' })).toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: /^Item it_2,/ }));
    expect(screen.queryByRole('form', { name: 'Dispute reason' })).not.toBeInTheDocument();
    // A adopts item 2 and moves on to item 3: no picker there, and the keys still decide.
    await user.keyboard('a');
    expect(focusedTitle()).toBe('Item it_3');
    expect(screen.queryByRole('form', { name: 'Dispute reason' })).not.toBeInTheDocument();
    await user.keyboard('a');
    expect(decided()).toEqual(['adopt it_2', 'adopt it_3']);
  });

  it('A, K and A inside one frame: the item just adopted is not decided again', async () => {
    renderWorkspace(items(1, 3));
    const press = (key: string) => act(() => void fireEvent.keyDown(document.body, { key, code: `Key${key.toUpperCase()}` }));
    press('a');
    press('k');
    press('a');
    expect(decided()).toEqual(['adopt it_1']);
    expect(await screen.findByText('Item it_1 is already adopted.')).toBeInTheDocument();
  });

  /** Three items, the first adopted and that adopt in the list (it_1 reads as waiting); the keys, each pressed in its own act. */
  async function adoptedAndShown() {
    renderWorkspace(items(1, 3));
    const press = (key: string) => act(() => void fireEvent.keyDown(document.body, { key, code: `Key${key.toUpperCase()}` }));
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    press('a');
    await frame();
    await frame();
    expect(screen.getByRole('option', { name: /^Item it_1,/ })).toHaveTextContent(/waiting/i);
    return press;
  }

  it('Z and A inside one frame: the item just undone is adopted again, not called already decided', async () => {
    const press = await adoptedAndShown();
    press('z');
    press('a');
    expect(decided()).toEqual(['adopt it_1']);
    expect(screen.queryByText(/already/)).not.toBeInTheDocument();
    expect(await screen.findByText(/^Adopted Item it_1\./)).toBeInTheDocument();
    expect(focusedTitle()).toBe('Item it_2');
  });

  it('Z then A on an item another tab’s decision also stands on: A says what stands, not "Adopted"', async () => {
    const press = await adoptedAndShown();
    // Another tab disputed it_1 too; this render shows this tab's adopt, which Z takes back.
    world.standing.set('it_1', { id: 'other', itemId: 'it_1', decision: 'dispute', state: 'queued' } as OutboxEntry);
    press('z');
    press('a');
    expect(decided()).toEqual([]);
    expect(await screen.findByText('Item it_1 is already disputed.')).toBeInTheDocument();
    expect(screen.queryByText(/^Adopted/)).not.toBeInTheDocument();
    expect(focusedTitle()).toBe('Item it_1');
  });

  it('Z, A, Z and A inside one frame: every decision taken back is kept, and the last A adopts', async () => {
    const press = await adoptedAndShown();
    for (const key of ['z', 'a', 'z', 'a']) press(key);
    expect(decided()).toEqual(['adopt it_1']);
    expect(screen.queryByText(/already/)).not.toBeInTheDocument();
  });

  it('J, A, K, K and A inside one frame: the second adopt moves on past the item just adopted', async () => {
    renderWorkspace(items(1, 4));
    const press = (key: string) => act(() => void fireEvent.keyDown(document.body, { key, code: `Key${key.toUpperCase()}` }));
    for (const key of ['j', 'a', 'k', 'k', 'a']) press(key);
    expect(decided()).toEqual(['adopt it_2', 'adopt it_1']);
    // it_2's entry had not reached the list when it_1 was adopted: the focus skips it all the same.
    expect(focusedTitle()).toBe('Item it_3');
    press('a');
    expect(decided()).toEqual(['adopt it_2', 'adopt it_1', 'adopt it_3']);
  });

  it('J, A on the last item, then a pull answered before the paint: the jump starts from the item the card shows', async () => {
    const first = items(1, 2);
    renderWorkspace(first);
    const press = (key: string) => act(() => void fireEvent.keyDown(document.body, { key, code: `Key${key.toUpperCase()}` }));
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    // The card leads to it_2 (the list's focus is still it_1), and it_2 is the last item: no move on.
    press('j');
    press('a');
    change({ items: [...first, ...items(3, 4)] });
    // The jump moved on from it_2, and the follow after the paint does not take the focus back there.
    await frame();
    await frame();
    expect(focusedTitle()).toBe('Item it_3');
    press('a');
    press('a');
    expect(decided()).toEqual(['adopt it_2', 'adopt it_3', 'adopt it_4']);
  });

  it('A, A on the last two items, then a pull answered before the paint: the focus goes on to the pulled items', async () => {
    const first = items(1, 2);
    renderWorkspace(first);
    const press = (key: string) => act(() => void fireEvent.keyDown(document.body, { key, code: `Key${key.toUpperCase()}` }));
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    press('a');
    press('a');
    change({ items: [...first, ...items(3, 4)] });
    await frame();
    await frame();
    expect(focusedTitle()).toBe('Item it_3');
    // A later K onto it_2 is a keypress of its own: it moves there.
    press('k');
    await frame();
    expect(focusedTitle()).toBe('Item it_2');
  });

  it('an item with an earlier discarded decision stays decided ahead through a render from an older snapshot', async () => {
    const discarded = {
      id: 'old_it_2',
      itemId: 'it_2',
      kind: 'simulated',
      subscriptionId: 'sub_1',
      decision: 'adopt',
      connectionId: 'c1',
      state: 'discarded',
      createdAt: -1,
    } as unknown as OutboxEntry;
    world.entries = [discarded];
    world.laterEntries = world.entries;
    renderWorkspace(items(1, 4));
    const press = (key: string) => act(() => void fireEvent.keyDown(document.body, { key, code: `Key${key.toUpperCase()}` }));
    press('j');
    press('a');
    // A render of entries read before the adopt: it_2's discarded decision, not the new one.
    act(() => world.staleLater([discarded]));
    press('k');
    press('a');
    expect(await screen.findByText('Item it_2 is already adopted.')).toBeInTheDocument();
    press('k');
    press('a');
    // The move on after adopting it_1 skips it_2 too.
    expect(decided()).toEqual(['adopt it_2', 'adopt it_2', 'adopt it_1']);
    expect(focusedTitle()).toBe('Item it_3');
  });

  it('Z pressed before a decision is announced: the undo is what is said', async () => {
    const user = renderWorkspace(items(1, 3));
    await user.keyboard('az');
    expect(decided()).toEqual([]);
    expect(focusedTitle()).toBe('Item it_1');
    expect(await screen.findByText('Undid adopt of item it_1.')).toBeInTheDocument();
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    expect(screen.queryByText(/^Adopted Item it_1/)).not.toBeInTheDocument();
  });

  it('A and D decide the focused item and move on to the next undecided one; Z takes the last back and returns to it', async () => {
    const user = renderWorkspace([item(1), item(2, 'adopted'), item(3), item(4)]);
    await user.keyboard('a');
    expect(decided()).toEqual(['adopt it_1']);
    expect(focusedTitle()).toBe('Item it_3');
    // What the decision did is said once its frame has painted (the card moved on before).
    expect(await said('Adopted Item it_1. Press Z to undo.')).toBeInTheDocument();
    // D opens the reason picker on a simulated item too; Enter alone disputes without a reason.
    await user.keyboard('d');
    expect(screen.getByRole('form', { name: 'Dispute reason' })).toBeInTheDocument();
    expect(decided()).toEqual(['adopt it_1']);
    await user.keyboard('{Enter}');
    expect(decided()).toEqual(['adopt it_1', 'dispute it_3']);
    expect(reasons()).toEqual([undefined, undefined]);
    expect(focusedTitle()).toBe('Item it_4');
    await user.keyboard('z');
    expect(decided()).toEqual(['adopt it_1']);
    expect(focusedTitle()).toBe('Item it_3');
    await user.keyboard('{Home}a');
    expect(screen.getByText('Item it_1 is already waiting.')).toBeInTheDocument();
    expect(decided()).toEqual(['adopt it_1']);
  });

  it('"Press Z to undo" is said only while the announced decision is in its undo window', async () => {
    const user = renderWorkspace(items(1, 3));
    await user.keyboard('a');
    const status = await said('Adopted Item it_1. Press Z to undo.');
    // Its window closes (the decision is on its way): the announcement stays, the hint goes.
    act(() => {
      world.entries = world.entries.map((e) => ({ ...(e as OutboxEntry), state: 'queued' }));
      world.emit();
    });
    await vi.waitFor(() => expect(status).toHaveTextContent(/^Adopted Item it_1\.$/));
    // Another decision in its window does not bring the first one's hint back.
    await user.keyboard('d{Enter}');
    expect(await said('Disputed Item it_2. Press Z to undo.')).toBeInTheDocument();
  });

  it('D then a number then Enter keeps the reason of a simulated dispute in its outbox entry; Esc disputes nothing', async () => {
    const user = renderWorkspace(items(1, 3));
    await user.keyboard('d{Escape}');
    expect(screen.queryByRole('form', { name: 'Dispute reason' })).not.toBeInTheDocument();
    expect(decided()).toEqual([]);
    await user.keyboard('d2{Enter}');
    expect(decided()).toEqual(['dispute it_1']);
    expect(reasons()).toEqual(['missing_object']);
    expect(await said('Disputed Item it_1. Press Z to undo.')).toBeInTheDocument();
    // The Dispute button opens the same picker.
    await user.click(screen.getByRole('button', { name: 'Dispute' }));
    await user.keyboard('5{Enter}');
    expect(decided()).toEqual(['dispute it_1', 'dispute it_2']);
    expect(reasons()).toEqual(['missing_object', 'unreadable']);
  });

  it('a key right after a dispute’s Enter is the review’s, though the closed picker keeps the focus until it goes', async () => {
    const user = renderWorkspace(items(1, 4));
    await user.keyboard('d2');
    const radio = document.activeElement as HTMLElement;
    // Enter, then j in the same task, before any frame: j reaches the radio of the picker Enter hid.
    const press = (key: string, code: string) => act(() => void fireEvent.keyDown(document.activeElement!, { key, code }));
    press('Enter', 'Enter');
    expect(document.activeElement).toBe(radio);
    expect(radio).not.toBeVisible();
    press('j', 'KeyJ');
    expect(decided()).toEqual(['dispute it_1']);
    expect(reasons()).toEqual(['missing_object']);
    expect(focusedTitle()).toBe('Item it_3');
    // The render after the paint removes the picker, which gives the focus up first.
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Dispute reason', hidden: true })).not.toBeInTheDocument());
    expect(document.activeElement).toBe(document.body);
    // A picker opened again starts afresh: Enter alone disputes without a reason.
    await user.keyboard('d{Enter}');
    expect(reasons()).toEqual(['missing_object', undefined]);
  });

  it('a second Enter before the closed picker goes (its form submitted again) disputes nothing', async () => {
    const user = renderWorkspace(items(1, 4));
    await user.keyboard('d2');
    act(() => void fireEvent.keyDown(document.activeElement!, { key: 'Enter', code: 'Enter' }));
    // Enter on a field of the hidden form submits it (the browser's implicit submission), as does
    // Enter or Space on its hidden "Confirm dispute" after a click.
    act(() => void fireEvent.submit(screen.getByRole('form', { name: 'Dispute reason', hidden: true })));
    expect(decided()).toEqual(['dispute it_1']);
    expect(focusedTitle()).toBe('Item it_2');
  });

  it('an Enter that disputes nothing (another tab decided the item) leaves the picker open and focused', async () => {
    const user = renderWorkspace(items(1, 3));
    await user.keyboard('d');
    world.standing.set('it_1', { id: 'other', itemId: 'it_1', decision: 'adopt', state: 'queued' } as OutboxEntry);
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Item it_1 is already adopted.')).toBeInTheDocument();
    // After the paint, when a picker the Enter had closed would go.
    await act(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
    const picker = screen.getByRole('form', { name: 'Dispute reason' });
    expect(picker).toBeVisible();
    expect(picker).toContainElement(document.activeElement as HTMLElement);
  });

  it('X, Shift-click and Ctrl-click select; Shift+D disputes the selection and clears it', async () => {
    const user = renderWorkspace(items(1, 6));
    await user.keyboard('xjjx');
    expect(selectedCount()).toBe('2 selected');
    await user.keyboard('{Shift>}');
    await user.click(screen.getByRole('option', { name: /^Item it_5,/ }));
    await user.keyboard('{/Shift}');
    expect(selectedCount()).toBe('4 selected');
    await user.keyboard('{Control>}');
    await user.click(screen.getByRole('option', { name: /^Item it_4,/ }));
    await user.keyboard('{/Control}');
    expect(selectedCount()).toBe('3 selected');
    expect(screen.getByRole('option', { name: /^Item it_4,/ })).toHaveAttribute('aria-selected', 'false');
    // One reason for all of them, as a single dispute asks: 3 picks the third code, Enter confirms.
    await user.keyboard('{Shift>}D{/Shift}');
    const dialog = screen.getByRole('alertdialog', { name: 'Dispute 3 items?' });
    expect(decided()).toEqual([]);
    await user.keyboard('3');
    expect(within(dialog).getByRole('radio', { name: 'Box too loose (box_too_loose)' })).toBeChecked();
    await user.keyboard('{Enter}');
    expect(decided()).toEqual(['dispute it_1', 'dispute it_3', 'dispute it_5']);
    expect(reasons()).toEqual(['box_too_loose', 'box_too_loose', 'box_too_loose']);
    expect(selectedCount()).toBe('0 selected');
  });

  it('after a pull, focus moves from a decided item to the first new one; an undecided focus stays', async () => {
    const first = items(1, 3);
    const user = renderWorkspace(first);
    await user.keyboard('aaa');
    expect(focusedTitle()).toBe('Item it_3');
    // The pull comes once the workspace has followed the last A (its paint done): a pull that
    // renders before then is the case of the test below.
    expect(await said('Adopted Item it_3. Press Z to undo.')).toBeInTheDocument();
    change({ items: [...first, ...items(4, 6)] });
    expect(focusedTitle()).toBe('Item it_4');
    await user.keyboard('j');
    change({ items: [...first, ...items(4, 8)] });
    expect(focusedTitle()).toBe('Item it_5');
  });

  it('A on the last item, then a pull that renders before the decision reaches the list: the focus moves on to the new items', async () => {
    const first = items(1, 1);
    renderWorkspace(first);
    const press = (key: string) => act(() => void fireEvent.keyDown(document.body, { key, code: `Key${key.toUpperCase()}` }));
    press('a');
    // The list grows in the same task, before the outbox's entries follow (a task later here).
    change({ items: [...first, ...items(2, 3)] });
    expect(focusedTitle()).toBe('Item it_2');
    press('a');
    expect(decided()).toEqual(['adopt it_1', 'adopt it_2']);
  });

  it('a decision discarded after it reached the list can be made again on its item', async () => {
    const user = renderWorkspace(items(1, 2));
    await user.keyboard('a');
    expect(decided()).toEqual(['adopt it_1']);
    await vi.waitFor(() => expect(world.props.list.at(-1)).not.toMatchObject({ states: ['new', 'new'] }));
    // Discarded elsewhere (the outbox's notices), with no decision key pressed in between.
    act(() => {
      world.entries = [];
      world.emit();
    });
    await vi.waitFor(() => expect(world.props.list.at(-1)).toMatchObject({ states: ['new', 'new'] }));
    await user.keyboard('ka');
    expect(decided()).toEqual(['adopt it_1']);
    expect(screen.queryByText('Item it_1 is already adopted.')).not.toBeInTheDocument();
  });

  it('a new page starts at its first item with nothing selected', async () => {
    const user = renderWorkspace(items(1, 5), { mode: 'reread', pageKey: 'reread:p1' });
    await user.keyboard('xjjx');
    expect(selectedCount()).toBe('2 selected');
    change({ items: items(11, 15), pageKey: 'reread:p2' });
    expect(focusedTitle()).toBe('Item it_11');
    expect(selectedCount()).toBe('0 selected');
  });

  it('when the list is emptied and filled again, the focus starts at the first item', async () => {
    const user = renderWorkspace(items(1, 5));
    await user.keyboard('{End}x');
    change({ items: [] });
    expect(screen.queryByRole('region', { name: 'Focused item' })).not.toBeInTheDocument();
    change({ items: items(21, 25) });
    expect(focusedTitle()).toBe('Item it_21');
    expect(selectedCount()).toBe('0 selected');
  });

  it('after a reload, the page starts at the first item with no decision once the stored decisions are read, whatever the list put first', async () => {
    // The store lists it_1 and it_2 first (their flags were not written before the reload), but the
    // last visit adopted them and a budget holds the adopts.
    const held = (itemId: string, n: number) =>
      ({
        id: `old_${itemId}`,
        itemId,
        kind: 'simulated',
        subscriptionId: 'sub_1',
        decision: 'adopt',
        connectionId: 'c1',
        state: 'held-budget',
        createdAt: -n,
      }) as unknown as OutboxEntry;
    world.entriesRead = false;
    const user = renderWorkspace(items(1, 5));
    expect(focusedTitle()).toBe('Item it_1');
    act(() => {
      world.entries = [held('it_1', 2), held('it_2', 1)];
      world.entriesRead = true;
      world.staleLater(world.entries);
    });
    expect(focusedTitle()).toBe('Item it_3');
    await user.keyboard('a');
    expect(decided()).toEqual(['adopt it_1', 'adopt it_2', 'adopt it_3']);
    // Read once: a later change of the decisions leaves the focus with the reviewer.
    await user.keyboard('kk');
    act(() => world.staleLater([...world.entries]));
    expect(focusedTitle()).toBe('Item it_2');
  });

  it('a re-read page reads from its first item, decided or not', () => {
    renderWorkspace([...items(1, 2, 'adopted'), ...items(3, 5)], { mode: 'reread', pageKey: 'reread:p1' });
    expect(focusedTitle()).toBe('Item it_1');
  });

  it('tells the list the room it has below where it will start, measured as Pull was pressed with no item shown', async () => {
    // jsdom lays nothing out: the empty page's place for the list starts 168 px down a 768 px window.
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(DOMRect.fromRect({ y: 168, width: 400, height: 40 }));
    const user = renderWorkspace([]);
    await user.click(screen.getByRole('button', { name: 'Pull' }));
    expect(source().pull).toHaveBeenCalledTimes(1);
    change({ items: items(1, 5) });
    expect(world.props.list.at(-1)).toMatchObject({ room: window.innerHeight - 168 });
  });
  it('fetches the next page once the focus is 60 % in, and not again on each render', async () => {
    const user = renderWorkspace(items(1, 10), { mode: 'reread', pageKey: 'reread:p1', nextCursor: 'c2' });
    const prefetchNext = vi.mocked(source().prefetchNext);
    await user.keyboard('jjjjj');
    // The workspace takes the card's focus after the frame that showed it.
    await vi.waitFor(() => expect(world.props.list.at(-1)).toMatchObject({ focusIndex: 5 }));
    expect(prefetchNext).not.toHaveBeenCalled();
    await user.keyboard('j');
    await vi.waitFor(() => expect(prefetchNext).toHaveBeenCalledTimes(1));
    // Renders that move nothing (a selection, a source with new functions) fetch nothing more.
    await user.keyboard('x');
    const again = vi.fn();
    change({ prefetchNext: again, pull: vi.fn() });
    expect(prefetchNext).toHaveBeenCalledTimes(1);
    expect(again).not.toHaveBeenCalled();
    await user.keyboard('j');
    await vi.waitFor(() => expect(again).toHaveBeenCalledTimes(1));
  });

  it('gives the list, the item and the pull controls the same handlers on every render', async () => {
    const user = renderWorkspace(items(1, 6));
    await user.keyboard('jxjadk');
    change({ items: items(1, 8) });
    await user.click(screen.getByRole('option', { name: /^Item it_5,/ }));
    const distinct = (records: Record<string, unknown>[], name: string) => new Set(records.map((props) => props[name])).size;
    expect(world.props.list.length).toBeGreaterThan(5);
    expect(distinct(world.props.list, 'onPick')).toBe(1);
    for (const name of ['onAdopt', 'onDispute', 'onDisputeConfirm', 'onDisputeCancel']) expect(distinct(world.props.detail, name), name).toBe(1);
    for (const name of ['onPull', 'onPullNext', 'onSizeText', 'onGraceSeconds']) expect(distinct(world.props.controls, name), name).toBe(1);
  });

  it('a page size typed wrong is said, and N pulls nothing', async () => {
    const user = renderWorkspace(items(1, 2));
    const size = screen.getByRole('spinbutton', { name: 'Page size' });
    await user.clear(size);
    await user.type(size, '500');
    await user.tab();
    await user.click(document.body);
    await user.keyboard('n');
    expect(screen.getByText('Not pulled: Page size must be a whole number from 1 to 200.')).toBeInTheDocument();
    expect(source().pullNext).not.toHaveBeenCalled();
  });

  it('a valid size typed stays in the field until the URL has it, whatever blurs the field meanwhile; a new size in the URL then shows', async () => {
    setSource({ items: items(1, 2) });
    const { rerender } = render(<ReviewWorkspace connection={connection} subscription={subscription} search={{ ...search, limit: 500 }} />, testQueryClient());
    const user = userEvent.setup();
    const size = screen.getByRole('spinbutton', { name: 'Page size' });
    const wrong = () => screen.queryByText('Page size must be a whole number from 1 to 200.');
    expect(wrong()).toBeInTheDocument();
    await user.clear(size);
    await user.type(size, '7{Enter}');
    // The navigation has not committed (the URL still says 500): a blur now (a pull's answer moving
    // the focus) must not take the URL's old size for the user's.
    await user.click(document.body);
    expect(size).toHaveValue(7);
    expect(wrong()).not.toBeInTheDocument();
    rerender(<ReviewWorkspace connection={connection} subscription={subscription} search={{ ...search, limit: 7 }} />);
    expect(size).toHaveValue(7);
    rerender(<ReviewWorkspace connection={connection} subscription={subscription} search={{ ...search, limit: 20 }} />);
    expect(size).toHaveValue(20);
  });

  it('Hide list collapses the list (kept on this device) and Show list brings it back; keys still move', async () => {
    window.localStorage.clear();
    const user = renderWorkspace(items(1, 3));
    await user.click(screen.getByRole('button', { name: 'Hide list' }));
    expect(screen.queryByRole('listbox', { name: 'Items on this page' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Show list' })).toHaveAttribute('aria-expanded', 'false');
    expect(JSON.parse(window.localStorage.getItem('dds.review.layout')!)).toEqual({ listCollapsed: true });
    await user.keyboard('j');
    expect(focusedTitle()).toBe('Item it_2');
    await user.click(screen.getByRole('button', { name: 'Show list' }));
    expect(screen.getByRole('listbox', { name: 'Items on this page' })).toBeInTheDocument();
    expect(JSON.parse(window.localStorage.getItem('dds.review.layout')!)).toEqual({ listCollapsed: false });
    window.localStorage.clear();
  });

  it('F shows only the item card, and F again (or Exit focus mode) brings the workspace back', async () => {
    const user = renderWorkspace(items(1, 3));
    const chrome = () => [
      screen.queryByRole('listbox', { name: 'Items on this page' }),
      screen.queryByRole('region', { name: 'Pull controls' }),
      screen.queryByRole('heading', { level: 1 }),
    ];
    await user.keyboard('f');
    expect(chrome()).toEqual([null, null, null]);
    expect(screen.getByRole('region', { name: 'Focused item' })).toBeInTheDocument();
    await user.keyboard('j');
    expect(focusedTitle()).toBe('Item it_2');
    await user.keyboard('f');
    expect(chrome().every((element) => element !== null)).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Focus mode' }));
    expect(chrome()).toEqual([null, null, null]);
    await user.click(screen.getByRole('button', { name: 'Exit focus mode' }));
    expect(chrome().every((element) => element !== null)).toBe(true);
  });
});
