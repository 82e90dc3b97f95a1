import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_REASONS } from '../../dispute-reasons';
import type { OutboxEntry } from '../../../domain/outbox/model';
import { afterPaint } from '../../../lib/after-paint';
import { recordImageRequests } from '../../../test/image-requests';
import { outboxEntry } from '../../../test/outbox-entry';
import { stubResizeObserver } from '../../../test/resize-observer';
import type { DisplayState, ReviewItem } from '../model';
import { ItemDetail, type ItemDetailProps } from './item-detail';

const item = (id: string, content: unknown, priceMicros: number | null = 12_500): ReviewItem => ({
  key: `simulated:${id}`,
  id,
  kind: 'simulated',
  subscriptionId: 'sub_1',
  title: `Item ${id}`,
  // Content that came with the item: shown without a read from the local store.
  content,
  serverState: 'new',
  priceMicros,
  summary: 'retail · quality 0.9',
  meta: () => [
    { label: 'Vertical', value: 'retail' },
    { label: 'Quality', value: '0.9 (consensus)' },
  ],
});

const entry = (change: Partial<OutboxEntry>) =>
  outboxEntry({ id: 'e1', scope: 'https://dds.example.com org_1', itemId: 'it_1', subscriptionId: 'sub_1', ...change });

function renderDetail(props: Partial<ItemDetailProps> & { state?: DisplayState } = {}) {
  const handlers = { onAdopt: vi.fn(), onDispute: vi.fn(), onDisputeConfirm: vi.fn(), onDisputeCancel: vi.fn() };
  const { unmount } = render(
    <ItemDetail
      item={item('it_1', { caption: 'a red bicycle' })}
      state="new"
      entry={undefined}
      baseUrl="https://dds.example.com"
      disputeFor={null}
      reasons={DEFAULT_REASONS}
      {...handlers}
      {...props}
    />,
  );
  return { ...handlers, unmount, user: userEvent.setup(), pane: screen.getByRole('region', { name: 'Focused item' }) };
}

/** The workspace's part: Dispute opens the reason form, cancelling or confirming closes it. */
function DisputeHarness({ onDisputeConfirm, onDisputeCancel }: { onDisputeConfirm: (reason: string) => void; onDisputeCancel: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <ItemDetail
      item={item('it_1', {})}
      state="new"
      entry={undefined}
      baseUrl="https://dds.example.com"
      disputeFor={open ? 'simulated:it_1' : null}
      reasons={DEFAULT_REASONS}
      onAdopt={vi.fn()}
      onDispute={() => setOpen(true)}
      onDisputeConfirm={(reason) => {
        onDisputeConfirm(reason);
        setOpen(false);
      }}
      onDisputeCancel={() => {
        onDisputeCancel();
        setOpen(false);
      }}
    />
  );
}

describe('ItemDetail', () => {
  it('shows the item: its title as a heading, its state, its metadata and its delivered content', () => {
    const { pane } = renderDetail();
    expect(within(pane).getByRole('heading', { name: 'Item it_1' })).toBeInTheDocument();
    expect(pane).toHaveTextContent('new');
    expect(within(pane).getByText('Vertical')).toBeInTheDocument();
    expect(within(pane).getByText('0.9 (consensus)')).toBeInTheDocument();
    const content = within(pane).getByRole('region', { name: 'Delivered content' });
    expect(content).toHaveTextContent('a red bicycle');
  });

  it('adopts on a click, and the Adopt button says what it charges', async () => {
    const { user, onAdopt, onDispute } = renderDetail();
    const adopt = screen.getByRole('button', { name: 'Adopt' });
    expect(adopt).toHaveAccessibleDescription('charges $0.0125');
    expect(adopt).toHaveAttribute('aria-keyshortcuts', 'A');
    await user.click(adopt);
    expect(onAdopt).toHaveBeenCalledTimes(1);
    expect(onDispute).not.toHaveBeenCalled();
  });

  it('says nothing of a charge for an item without a price', () => {
    renderDetail({ item: item('it_2', {}, null) });
    expect(screen.getByRole('button', { name: 'Adopt' })).not.toHaveAccessibleDescription();
    expect(screen.queryByText(/charges/)).not.toBeInTheDocument();
  });

  it('offers no decision on an item already decided or waiting to be sent', async () => {
    for (const state of ['adopted', 'disputed', 'waiting'] as const) {
      const { user, onAdopt, onDispute, pane, unmount } = renderDetail({ state });
      const adopt = within(pane).getByRole('button', { name: 'Adopt' });
      const dispute = within(pane).getByRole('button', { name: 'Dispute' });
      expect(adopt).toBeDisabled();
      expect(dispute).toBeDisabled();
      await user.click(adopt);
      await user.click(dispute);
      expect(onAdopt).not.toHaveBeenCalled();
      expect(onDispute).not.toHaveBeenCalled();
      unmount();
    }
  });

  it('opens on the codes: a number key picks one, the text is optional, Enter disputes with the code first', async () => {
    const onDisputeConfirm = vi.fn();
    const onDisputeCancel = vi.fn();
    const user = userEvent.setup();
    render(<DisputeHarness onDisputeConfirm={onDisputeConfirm} onDisputeCancel={onDisputeCancel} />);
    expect(screen.queryByRole('form', { name: 'Dispute reason' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Dispute' }));
    const form = screen.getByRole('form', { name: 'Dispute reason' });
    // The focus is on the choice (no code yet), so 2 picks the second code.
    expect(within(form).getByRole('radio', { name: 'No code' })).toHaveFocus();
    await user.keyboard('2');
    const second = within(form).getByRole('radio', { name: 'Missing object (missing_object)' });
    expect(second).toBeChecked();
    expect(second).toHaveFocus();
    expect(second).toHaveAttribute('aria-keyshortcuts', '2');
    // Tab reaches the text, where digits are text.
    await user.tab();
    const text = within(form).getByRole('textbox', { name: /Reason text \(optional\)/ });
    expect(text).toHaveFocus();
    await user.keyboard('  tail 3 not boxed  {Enter}');
    expect(second).toBeChecked();
    expect(onDisputeConfirm).toHaveBeenCalledExactlyOnceWith('missing_object: tail 3 not boxed');
    expect(onDisputeCancel).not.toHaveBeenCalled();
    expect(screen.queryByRole('form', { name: 'Dispute reason' })).not.toBeInTheDocument();
  });

  it('disputes with the code alone from a number key and Enter', async () => {
    const onDisputeConfirm = vi.fn();
    const user = userEvent.setup();
    render(<DisputeHarness onDisputeConfirm={onDisputeConfirm} onDisputeCancel={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Dispute' }));
    await user.keyboard('5{Enter}');
    expect(onDisputeConfirm).toHaveBeenCalledExactlyOnceWith('unreadable');
  });

  it('disputes with text alone and no code, trimmed', async () => {
    const onDisputeConfirm = vi.fn();
    const user = userEvent.setup();
    render(<DisputeHarness onDisputeConfirm={onDisputeConfirm} onDisputeCancel={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Dispute' }));
    await user.click(screen.getByRole('textbox', { name: /Reason text/ }));
    await user.keyboard('  blurry photo  {Enter}');
    expect(onDisputeConfirm).toHaveBeenCalledExactlyOnceWith('blurry photo');
  });

  it('disputes without a reason from the Confirm dispute button', async () => {
    const onDisputeConfirm = vi.fn();
    const user = userEvent.setup();
    render(<DisputeHarness onDisputeConfirm={onDisputeConfirm} onDisputeCancel={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Dispute' }));
    await user.click(screen.getByRole('button', { name: 'Confirm dispute' }));
    expect(onDisputeConfirm).toHaveBeenCalledExactlyOnceWith('');
  });

  it('cancels the dispute on Esc or Cancel without disputing', async () => {
    const onDisputeConfirm = vi.fn();
    const onDisputeCancel = vi.fn();
    const user = userEvent.setup();
    render(<DisputeHarness onDisputeConfirm={onDisputeConfirm} onDisputeCancel={onDisputeCancel} />);
    await user.click(screen.getByRole('button', { name: 'Dispute' }));
    await user.click(screen.getByRole('textbox', { name: /Reason text/ }));
    await user.keyboard('never mind{Escape}');
    expect(onDisputeCancel).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('form', { name: 'Dispute reason' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Dispute' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onDisputeCancel).toHaveBeenCalledTimes(2);
    expect(onDisputeConfirm).not.toHaveBeenCalled();
  });

  it('gives up the focus before a cancel removes the picker that holds it', async () => {
    // Removing the focused element lays the page out in the middle of that commit, and then again
    // for its frame (1–4 ms of d's keypress, traced).
    const focusedWhen: (Element | null)[] = [];
    const user = userEvent.setup();
    render(<DisputeHarness onDisputeConfirm={vi.fn()} onDisputeCancel={() => focusedWhen.push(document.activeElement)} />);
    await user.click(screen.getByRole('button', { name: 'Dispute' }));
    expect(screen.getByRole('form', { name: 'Dispute reason' })).toContainElement(document.activeElement as HTMLElement);
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Dispute' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(focusedWhen).toEqual([document.body, document.body]);
  });

  it('a dispute’s Enter keeps the focus in the picker it hides, and gives it up before the picker leaves the page', async () => {
    // As the workspace does: the Enter moves the card on (hiding the picker), and the render after
    // that paint removes it. Giving the focus up in the keydown cost the keypress ~0.3 ms (traced).
    const focusedWhen: [string, Element | null][] = [];
    const seen = (moment: string) => focusedWhen.push([moment, document.activeElement]);
    function MoveOnHarness() {
      const [shown, setShown] = useState(item('it_1', {}));
      const [disputeFor, setDisputeFor] = useState<string | null>(null);
      return (
        <ItemDetail
          item={shown}
          state="new"
          entry={undefined}
          baseUrl="https://dds.example.com"
          disputeFor={disputeFor}
          reasons={DEFAULT_REASONS}
          onAdopt={vi.fn()}
          onDispute={() => setDisputeFor(shown.key)}
          onDisputeConfirm={() => {
            seen('confirmed');
            setShown(item('it_2', {}));
            afterPaint(() => {
              seen('removed');
              setDisputeFor(null);
            });
          }}
          onDisputeCancel={vi.fn()}
        />
      );
    }
    const user = userEvent.setup();
    render(<MoveOnHarness />);
    await user.click(screen.getByRole('button', { name: 'Dispute' }));
    const form = screen.getByRole('form', { name: 'Dispute reason' });
    await user.keyboard('2');
    const chosen = screen.getByRole('radio', { name: 'Missing object (missing_object)' });
    const givenUpInPage: boolean[] = [];
    form.addEventListener('focusout', () => givenUpInPage.push(form.isConnected));
    // The Enter in one task, so nothing after its paint has run yet.
    act(() => void fireEvent.keyDown(chosen, { key: 'Enter', code: 'Enter' }));
    expect(focusedWhen).toEqual([['confirmed', chosen]]);
    expect(form).not.toBeVisible();
    expect(chosen).toHaveFocus();
    await waitFor(() => expect(form).not.toBeInTheDocument());
    expect(focusedWhen.map(([moment]) => moment)).toEqual(['confirmed', 'removed']);
    expect(givenUpInPage).toEqual([true]);
    expect(document.activeElement).toBe(document.body);
  });

  it('hides the picker when a dispute moves the card on, removes it once disputeFor is cleared, and opens it afresh on another item', async () => {
    // The removal is the render after the keypress's paint, not the keypress's own (workspace: afterPaint).
    const props = { state: 'new', entry: undefined, baseUrl: 'https://dds.example.com', reasons: DEFAULT_REASONS } as const;
    const handlers = { onAdopt: vi.fn(), onDispute: vi.fn(), onDisputeConfirm: vi.fn(), onDisputeCancel: vi.fn() };
    const user = userEvent.setup();
    const first = item('it_1', {});
    const second = item('it_2', {});
    const { rerender } = render(<ItemDetail {...props} {...handlers} item={first} disputeFor={first.key} />);
    const form = screen.getByRole('form', { name: 'Dispute reason' });
    await user.keyboard('2');
    expect(screen.getByRole('radio', { name: 'Missing object (missing_object)' })).toBeChecked();
    rerender(<ItemDetail {...props} {...handlers} item={second} disputeFor={first.key} />);
    expect(screen.queryByRole('form', { name: 'Dispute reason' })).not.toBeInTheDocument();
    expect(form).toBeInTheDocument();
    expect(form).not.toBeVisible();
    rerender(<ItemDetail {...props} {...handlers} item={second} disputeFor={null} />);
    expect(form).not.toBeInTheDocument();
    rerender(<ItemDetail {...props} {...handlers} item={second} disputeFor={first.key} />);
    rerender(<ItemDetail {...props} {...handlers} item={second} disputeFor={second.key} />);
    expect(screen.getByRole('form', { name: 'Dispute reason' })).toBeVisible();
    expect(screen.getByRole('radio', { name: 'No code' })).toBeChecked();
  });

  it('shows the outbox entry: a conflict with what the service held, a failure, the dispute reason sent', () => {
    const conflict = renderDetail({
      state: 'failed',
      entry: entry({ state: 'conflict', recorded: 'dispute', decision: 'dispute', reason: 'hidden on conflict' }),
    });
    expect(conflict.pane).toHaveTextContent('not saved: the service already held dispute');
    expect(conflict.pane).not.toHaveTextContent('hidden on conflict');
    conflict.unmount();

    const failed = renderDetail({ state: 'failed', entry: entry({ state: 'failed', lastError: 'The service refused: ITEM_EXPIRED' }) });
    expect(failed.pane).toHaveTextContent('The service refused: ITEM_EXPIRED');
    failed.unmount();

    const disputed = renderDetail({ state: 'disputed', entry: entry({ decision: 'dispute', reason: 'wrong label' }) });
    expect(disputed.pane).toHaveTextContent('Dispute reason: wrong label');
  });

  it('says what a team hub did with an adopt: held by the team’s budget, accepted to send, dropped (by whom) and free to decide again', async () => {
    const held = renderDetail({ state: 'held-team', entry: entry({ state: 'held-team', priceMicros: 15_000 }) });
    expect(held.pane).toHaveTextContent('held by the team’s budget$0.015 held by the team’s budget: an admin of the hub releases it');
    expect(screen.getByRole('button', { name: 'Adopt' })).toBeDisabled();
    held.unmount();

    const accepted = renderDetail({ state: 'accepted', entry: entry({ state: 'accepted-team' }) });
    expect(accepted.pane).toHaveTextContent('accepted by the hub, waiting to send');
    expect(accepted.pane).toHaveTextContent('released by an admin: the hub sends it when the vendor answers');
    accepted.unmount();

    const dropped = renderDetail({ state: 'new', entry: entry({ state: 'dropped-team', droppedBy: 'admin@team' }) });
    expect(dropped.pane).toHaveTextContent('your adopt was dropped on the hub by admin@team: decide it again');
    await dropped.user.click(screen.getByRole('button', { name: 'Adopt' }));
    expect(dropped.onAdopt).toHaveBeenCalledTimes(1);
  });

  it('keeps the upcoming item rendered but hidden, and shows only the focused one', async () => {
    renderDetail({ ahead: [item('it_2', { caption: 'a green kite' })] });
    const upcoming = await screen.findByText(/a green kite/, { ignore: false });
    const shown = screen.getAllByRole('region', { name: 'Delivered content' });
    expect(shown).toHaveLength(1);
    expect(shown[0]).toHaveTextContent('a red bicycle');
    expect(upcoming).not.toBeVisible();
    // Painted beforehand (transparent), but out of reach: no focus, pointer or assistive technology.
    expect(upcoming.closest('[inert]')).toHaveAttribute('aria-hidden', 'true');
  });

  it('keeps the items ahead rendered while moving through them, and renders the next few only when the next is not among them', async () => {
    const at = (n: number) => item(`it_${n}`, { caption: `caption ${n}` });
    const props = { state: 'new', entry: undefined, baseUrl: 'https://dds.example.com', disputeFor: null, reasons: DEFAULT_REASONS } as const;
    const handlers = { onAdopt: vi.fn(), onDispute: vi.fn(), onDisputeConfirm: vi.fn(), onDisputeCancel: vi.fn() };
    const detail = (n: number) => <ItemDetail {...props} {...handlers} item={at(n)} ahead={[at(n + 1), at(n + 2), at(n + 3)]} />;
    const rendered = () =>
      screen
        .getAllByText(/caption \d+/, { ignore: false })
        .map((e) => Number(/caption (\d+)/.exec(e.textContent!)![1]))
        .sort((a, b) => a - b);
    const { rerender } = render(detail(1));
    // A page's first render shows the focused item alone; the ones ahead follow its paint.
    expect(rendered()).toEqual([1]);
    await waitFor(() => expect(rendered()).toEqual([1, 2, 3, 4]));
    // Moving on within what is rendered: nothing is rendered anew, the item left stays (hidden).
    rerender(detail(2));
    rerender(detail(3));
    expect(rendered()).toEqual([1, 2, 3, 4]);
    expect(screen.getByRole('region', { name: 'Delivered content' })).toHaveTextContent('caption 3');
    // The next (5) is not rendered: once painted, the next three are, and those behind go.
    rerender(detail(4));
    expect(screen.getByRole('region', { name: 'Delivered content' })).toHaveTextContent('caption 4');
    await waitFor(() => expect(rendered()).toEqual([4, 5, 6, 7]));
  });

  it('fetches the images of the items after those ahead when it renders those ahead, and only then', async () => {
    const requests = recordImageRequests();
    const made = () => requests.map((request) => request.src);
    try {
      const at = (n: number) => item(`it_${n}`, { image_url: `/media/scenes/${n}.svg` });
      const props = { state: 'new', entry: undefined, baseUrl: 'https://dds.example.com', disputeFor: null, reasons: DEFAULT_REASONS } as const;
      const handlers = { onAdopt: vi.fn(), onDispute: vi.fn(), onDisputeConfirm: vi.fn(), onDisputeCancel: vi.fn() };
      const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => at(from + i));
      const detail = (n: number) => <ItemDetail {...props} {...handlers} item={at(n)} ahead={range(n + 1, n + 3)} further={range(n + 4, n + 6)} />;
      const scene = (n: number) => `https://dds.example.com/media/scenes/${n}.svg`;
      const { rerender } = render(detail(1));
      // Items 2-4 are rendered after the first paint; the images of 5-7, which come next, are fetched then.
      await waitFor(() => expect(made()).toEqual([5, 6, 7].map(scene)));
      rerender(detail(2));
      rerender(detail(3));
      // Moving within what is rendered fetches nothing (told once the move's after-paint work, which
      // makes the focused item reachable, has run).
      const box = (n: number) => document.querySelector(`img[src$="/scenes/${n}.svg"]`)!.closest('[data-item-content], [aria-hidden]')!;
      await waitFor(() => expect(box(3)).not.toHaveAttribute('inert'));
      expect(made()).toHaveLength(3);
      rerender(detail(4));
      await waitFor(() => expect(made()).toEqual([5, 6, 7, 8, 9, 10].map(scene)));
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('moves inert to the item left a frame after the move, showing the focused one above it meanwhile', async () => {
    const at = (n: number) => item(`it_${n}`, { caption: `caption ${n}` });
    const props = { state: 'new', entry: undefined, baseUrl: 'https://dds.example.com', disputeFor: null, reasons: DEFAULT_REASONS } as const;
    const handlers = { onAdopt: vi.fn(), onDispute: vi.fn(), onDisputeConfirm: vi.fn(), onDisputeCancel: vi.fn() };
    const detail = (n: number) => <ItemDetail {...props} {...handlers} item={at(n)} ahead={[at(n + 1), at(n + 2)]} />;
    const box = (n: number) => screen.getByText(new RegExp(`caption ${n}`), { ignore: false }).closest('[data-item-content], [aria-hidden]')!;
    const { rerender } = render(detail(1));
    await waitFor(() => expect(box(2)).toHaveAttribute('inert'));
    expect(box(1)).not.toHaveAttribute('inert');
    rerender(detail(2));
    // At once: the item shown is the focused one, above the rest, and the one left is hidden from assistive technology.
    expect(box(2)).toHaveAttribute('data-item-content');
    expect(box(2)).not.toHaveAttribute('aria-hidden');
    expect(box(2)).toHaveClass('lg:z-[1]');
    expect(box(1)).toHaveAttribute('aria-hidden', 'true');
    // After the paint: only the focused item is reachable.
    await waitFor(() => expect(box(2)).not.toHaveAttribute('inert'));
    expect(box(1)).toHaveAttribute('inert');
    expect(box(3)).toHaveAttribute('inert');
  });

  it('a title one line cuts gets its toggle, keeps the focus on it, and is cut again when its item comes back', async () => {
    // jsdom lays nothing out: "Item it_long" is wider than its line, "Item it_b" fits, and the
    // observer tells as a browser's would, after the title is laid out.
    const widths = vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return this.textContent === 'Item it_long' ? 500 : 50;
    });
    const client = vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(100);
    stubResizeObserver({ width: 100, height: 24 });
    try {
      const props = { state: 'new', entry: undefined, baseUrl: 'https://dds.example.com', disputeFor: null, reasons: DEFAULT_REASONS } as const;
      const handlers = { onAdopt: vi.fn(), onDispute: vi.fn(), onDisputeConfirm: vi.fn(), onDisputeCancel: vi.fn() };
      const detail = (id: string) => <ItemDetail {...props} {...handlers} item={item(id, { caption: id })} />;
      const { rerender } = render(detail('it_long'));
      const user = userEvent.setup();
      const toggle = () => screen.getByRole('button', { name: /of the title$/ });
      expect(toggle()).toHaveAccessibleName('Show all of the title');
      expect(screen.getByRole('heading', { level: 2 })).toHaveAttribute('title', 'Item it_long');
      await user.click(toggle());
      expect(toggle()).toHaveAccessibleName('Show less of the title');
      await user.keyboard('{Enter}');
      expect(toggle()).toHaveAccessibleName('Show all of the title');
      expect(toggle()).toHaveFocus();
      // Shown whole, then another item (not cut: no toggle), then back: it is cut again.
      await user.click(toggle());
      rerender(detail('it_b'));
      expect(screen.queryByRole('button', { name: /of the title$/ })).toBeNull();
      rerender(detail('it_long'));
      expect(toggle()).toHaveAccessibleName('Show all of the title');
      expect(toggle()).toHaveAttribute('aria-expanded', 'false');
    } finally {
      vi.unstubAllGlobals();
      widths.mockRestore();
      client.mockRestore();
    }
  });

  it('cuts megabytes-long metadata and title, each with a toggle that shows all of it', async () => {
    const grade = 'A'.repeat(5_000_000);
    const long = {
      ...item('it_1', {}),
      title: `Item ${'9'.repeat(1_000)}`,
      meta: () => [
        { label: 'Quality', value: `0.5 (${grade})` },
        { label: 'Source', value: 'web' },
      ],
    };
    const { pane, user } = renderDetail({ item: long });
    expect(pane.textContent!.length).toBeLessThan(2_000);
    expect(within(pane).getByRole('heading', { level: 2 }).textContent).toBe(`Item ${'9'.repeat(295)}…`);
    expect(within(pane).getByText('web')).toBeInTheDocument();
    await user.click(within(pane).getByRole('button', { name: 'Show all (5,000,006 characters)' }));
    expect(pane.textContent).toContain(grade);
    await user.click(within(pane).getByRole('button', { name: 'Show less' }));
    expect(pane.textContent!.length).toBeLessThan(2_000);
    await user.click(within(pane).getByRole('button', { name: 'Show all of the title' }));
    expect(within(pane).getByRole('heading', { level: 2 }).textContent).toBe(long.title);
  });
});
