import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SHOWN_CHARACTERS } from '../../../components/ui/long-text';
import { outboxEntry } from '../../../test/outbox-entry';
import type { OutboxEntry } from '../../../domain/outbox/model';
import { OutboxNotices } from './outbox-notices';

/** The notices over stand-ins: one active connection and the outbox entries the test sets. */
const world = vi.hoisted(() => ({ entries: [] as readonly unknown[], others: [] as readonly unknown[] }));

vi.mock('@tanstack/react-router', async (original) => ({
  ...(await original<typeof import('@tanstack/react-router')>()),
  Link: ({ to, children, className }: { to: string; children: React.ReactNode; className?: string }) => (
    <a href={to} className={className}>
      {children}
    </a>
  ),
}));

vi.mock('../../../data', async (original) => ({
  ...(await original<typeof import('../../../data')>()),
  useConnections: () => ({ active: { id: 'c1', name: 'Demo', apiKey: 'k', subscriptions: [] }, failures: {} }),
  useOutboxEntries: () => world.entries,
  useOtherTabsEntries: () => world.others,
  useOutboxPaused: () => null,
  useOutboxPausedSubscriptions: () => ({}),
  useOutboxWriteError: () => null,
  useOutbox: () => ({ isDiscardable: () => false, retry: vi.fn(), discard: vi.fn(), confirm: vi.fn() }),
}));

const show = (entries: OutboxEntry[], others: OutboxEntry[] = []) => {
  world.entries = entries;
  world.others = others;
  return render(<OutboxNotices />);
};

describe('a failed decision’s error text', () => {
  it('is cut when long, with a toggle that shows all of it', async () => {
    const lastError = `service said: ${'x'.repeat(5_000)}END`;
    show([outboxEntry({ itemId: 'i9', state: 'failed', lastError })]);
    const notice = screen.getByRole('region', { name: 'Decisions that need attention' });
    expect(notice.textContent).toContain('Could not adopt item i9: service said: xxx');
    expect(notice.textContent).not.toContain('END');
    expect(notice.textContent!.length).toBeLessThan(SHOWN_CHARACTERS + 200);

    await userEvent.click(screen.getByRole('button', { name: /show all/i }));
    expect(notice.textContent).toContain(`${'x'.repeat(5_000)}END`);
    await userEvent.click(screen.getByRole('button', { name: /show less/i }));
    expect(notice.textContent).not.toContain('END');
  });

  it('is shown whole, without a toggle, when short', () => {
    show([outboxEntry({ itemId: 'i9', state: 'failed', lastError: 'network error' })]);
    expect(screen.getByText(/Could not adopt item i9: network error/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /show all/i })).toBeNull();
  });

  it('cuts what the service says it recorded, on a conflict', () => {
    show([outboxEntry({ itemId: 'i9', state: 'conflict', recorded: 'r'.repeat(5_000) })]);
    const notice = screen.getByRole('region', { name: 'Decisions that need attention' });
    expect(notice.textContent!.length).toBeLessThan(SHOWN_CHARACTERS + 200);
  });
});

describe('adopts a team hub holds', () => {
  it('says how many the team’s budget holds (every tab’s), apart from the browser’s budget, with the way to the holds', () => {
    show(
      [outboxEntry({ itemId: 'i1', state: 'held-team', priceMicros: 12_500 }), outboxEntry({ itemId: 'i2', state: 'held-budget' })],
      [outboxEntry({ itemId: 'i3', state: 'held-team', priceMicros: 10_000 })],
    );
    const notice = screen.getByRole('region', { name: 'Held by the team’s budget' });
    expect(notice.textContent).toBe('2 adopts held by the team’s budget ($0.0225): an admin can release them. See the holds');
    expect(screen.getByRole('link', { name: 'See the holds' }).getAttribute('href')).toBe('/team/holds');
    // The browser's own budget hold is its own notice.
    expect(screen.getByRole('region', { name: 'Held by budget' }).textContent).toMatch(/^1 charged adopt held by budget/);
  });

  it('lists adopts dropped on the hub, by whom, and says nothing of holds once none is held', () => {
    show([outboxEntry({ itemId: 'item-1', state: 'dropped-team', droppedBy: 'admin@team' }), outboxEntry({ itemId: 'i2', state: 'accepted-team' })]);
    expect(screen.queryByRole('region', { name: 'Held by the team’s budget' })).toBeNull();
    expect(screen.getByText(/1 adopt dropped on the hub/)).toBeTruthy();
    expect(screen.getByRole('listitem').textContent).toBe('Dropped by admin@team: adopt of item-1');
  });
});

describe('adopts a budget of this browser holds', () => {
  afterEach(() => vi.useRealTimers());

  it('dates a hold of today from midnight on, though no decision changes: its spend is no longer today’s', () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    vi.setSystemTime(new Date(2026, 11, 3, 23, 59, 30));
    const heldBy = { level: 'organization', period: 'daily', limitMicros: 50_000, spentMicros: 48_000, at: Date.now() - 60_000 } as const;
    show([outboxEntry({ itemId: 'i1', state: 'held-budget', priceMicros: 12_500, heldBy })]);
    const notice = screen.getByRole('region', { name: 'Held by budget' });
    expect(notice.textContent).toContain('(organization daily limit $0.05 (spent $0.048))');
    act(() => vi.advanceTimersByTime(60_000));
    expect(notice.textContent).toMatch(/\(organization daily limit \$0\.05 \(spent \$0\.048 on (3 Dec|Dec 3)\)\)/);
  });
});
